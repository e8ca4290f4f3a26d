import { FileLinks } from "../../src/modules/files/file-links";
import {
  SITE_UPLOADERS,
  declaredTypeOf,
  typesInWords,
} from "../../src/modules/files/site-upload-slugs";

const TICKET = "01a2230f-0000-7000-8000-000000000001";
const OTHER = "01a2230f-0000-7000-8000-000000000002";
const NOW = Date.UTC(2027, 0, 15, 8, 0, 0);
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe("the site's uploaders (issue 48 point 1)", () => {
  it("take the types and counts the site's client asks for", () => {
    expect(
      Object.values(SITE_UPLOADERS).map(({ slug, purpose, maxFiles, types }) => [
        slug,
        purpose,
        maxFiles,
        typesInWords(types),
      ]),
    ).toEqual([
      ["requirementUploader", "REQUIREMENT", 1, "PDF, JPEG or PNG"],
      ["memberCertificateUploader", "CERTIFICATE", 1, "PDF, JPEG, PNG or WEBP"],
      ["memberPublicRecordAttachmentUploader", "PUBLIC_RECORD", 6, "JPEG, PNG or WEBP"],
      ["avatarUploader", "AVATAR", 1, "JPEG, PNG or WEBP"],
    ]);
  });

  it("read a declared type from the browser's type, else the name's extension", () => {
    expect(declaredTypeOf({ name: "a.bin", type: "image/PNG" })).toBe("image/png");
    expect(declaredTypeOf({ name: "a.bin", type: "image/jpg" })).toBe("image/jpeg");
    expect(declaredTypeOf({ name: "Scan.JPEG", type: "" })).toBe("image/jpeg");
    expect(declaredTypeOf({ name: "diploma.pdf", type: " " })).toBe("application/pdf");
    expect(declaredTypeOf({ name: "notes", type: "" })).toBeNull();
    expect(declaredTypeOf({ name: "page.html", type: "" })).toBeNull();
  });
});

describe("upload links", () => {
  const links = new FileLinks(
    "a-secret-of-at-least-32-characters-long!",
    900,
    "https://api.example.org",
  );

  it("are absolute, expire with the TTL, and verify only unaltered", () => {
    const { url, expiresAt } = links.ingestUrl(TICKET, "http://ignored.example", NOW);
    expect(url.startsWith(`https://api.example.org/api/v1/files/ingest/${TICKET}?expires=`)).toBe(
      true,
    );
    expect(expiresAt.getTime()).toBe(NOW + 900_000);
    const query = queryOf(url);
    expect(links.verifyIngest(TICKET, query, NOW)).toBe(true);
    expect(links.verifyIngest(TICKET, query, NOW + 900_000)).toBe(false);
    expect(links.verifyIngest(OTHER, query, NOW)).toBe(false);
    expect(
      links.verifyIngest(TICKET, { ...query, expires: String(Number(query.expires) + 60) }, NOW),
    ).toBe(false);
    expect(links.verifyIngest(TICKET, { ...query, signature: `${query.signature}x` }, NOW)).toBe(
      false,
    );
    expect(links.verifyIngest(TICKET, { expires: query.expires }, NOW)).toBe(false);
  });

  it("cannot be made from a file link, nor a file link from them", () => {
    const fileLink = queryOf(links.privateUrl(TICKET, undefined, NOW));
    expect(links.verifyIngest(TICKET, fileLink, NOW)).toBe(false);
    const upload = queryOf(links.ingestUrl(TICKET, "", NOW).url);
    expect(links.verify(TICKET, upload, NOW)).toBeUndefined();
  });

  it("name the request's origin when PUBLIC_URL is unset, and leave absolute links alone", () => {
    const bare = new FileLinks("a-secret-of-at-least-32-characters-long!", 900);
    expect(bare.ingestUrl(TICKET, "http://api.test:4000", NOW).url).toMatch(
      /^http:\/\/api\.test:4000\/api\/v1\/files\/ingest\//,
    );
    expect(bare.absolute("/api/v1/files/x?y=1", "http://api.test:4000")).toBe(
      "http://api.test:4000/api/v1/files/x?y=1",
    );
    expect(bare.absolute("https://cdn.example/x", "http://api.test:4000")).toBe(
      "https://cdn.example/x",
    );
  });
});
