import { safeFileName, sniffType } from "../../src/modules/files/file-bytes";
import { fileIdOf } from "../../src/modules/files/file-links";
import { loadConfig } from "../../src/config";

const ID = "0190a0a0-1234-7abc-8def-0123456789ab";

describe("sniffType", () => {
  it.each([
    ["%PDF-1.7\n", "application/pdf"],
    ["\xff\xd8\xff\xe0....", "image/jpeg"],
    ["\x89PNG\r\n\x1a\n....", "image/png"],
    ["RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"],
    ["RIFF\x00\x00\x00\x00WAVEfmt ", null],
    ["<svg xmlns=", null],
    ["\x7fELF\x02\x01\x01\x00", null],
    ["GIF89a......", null],
  ])("%j is %s", (head, type) => {
    expect(sniffType(Buffer.from(head, "latin1"))).toBe(type);
  });
});

describe("safeFileName", () => {
  it.each([
    ["../../etc/passwd.pdf", "application/pdf", "passwd.pdf"],
    ["C:\\Users\\x\\photo.JPG", "image/jpeg", "photo.jpg"],
    ['a"b;c.pdf', "application/pdf", "a_b_c.pdf"],
    ["page.html", "application/pdf", "page.pdf"],
    [".hidden", "image/png", "hidden.png"],
    ["...", "image/png", "file.png"],
    [undefined, "image/webp", "file.webp"],
  ])("%j as %s is %j", (raw, type, expected) => {
    expect(safeFileName(raw, type)).toBe(expected);
  });
});

describe("fileIdOf", () => {
  it.each([
    [ID, ID],
    [`/api/v1/files/${ID}?expires=1&signature=x`, ID],
    [`https://api.example.org/api/v1/files/public/${ID}`, ID],
    ["https://example.org/me.png", null],
    [`/api/v1/files/${ID}/../x`, null],
    ["not-an-id", null],
  ])("%j names %j", (ref, id) => {
    expect(fileIdOf(ref)).toBe(id);
  });
});

describe("file settings", () => {
  it("defaults to the contract's values and names a bad one", () => {
    expect(loadConfig({}).files).toMatchObject({
      maxBytes: 4 * 1024 * 1024,
      maxPerUser: 100,
      linkTtlSeconds: 900,
      orphanHours: 24,
    });
    expect(() => loadConfig({ FILE_STORAGE_URL: "s3://" })).toThrow(/FILE_STORAGE_URL/);
    expect(() => loadConfig({ FILE_MAX_BYTES: "0" })).toThrow(/FILE_MAX_BYTES/);
  });
});
