import http from "node:http";
import { randomBytes } from "node:crypto";
import { bearer } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { eventually } from "../support/until";
import { JPEG, PDF, PNG, storageDir, storedNames, upload } from "../support/file-samples";

/** Issue 39 point 6: each of these gets a clear 4xx and leaves no byte and no record. */
const storage = storageDir();
const scenario = useScenario({ env: storage.env, users: { member: {} } });
const MAX = 4 * 1024 * 1024;

const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(200)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
const HTML = Buffer.from("<!doctype html><script>fetch('/api/v1/users/current')</script>");
/** HTML first, a PDF's signature further in: what a browser would render, whatever it claims. */
const POLYGLOT = Buffer.concat([Buffer.from("<html><script>alert(1)</script><!--"), PDF]);

/** Runs `act` and checks it changed nothing: no stored bytes, no draft, no record. */
async function changesNothing(act: () => Promise<void>) {
  const { app, member } = scenario();
  const files = storedNames(storage.dir);
  const records = await rawDb(app).files.countDocuments({ ownerId: member.id });
  await act();
  // A refused upload may finish cleaning after its answer.
  const after = await eventually(
    async () => ({
      files: storedNames(storage.dir),
      records: await rawDb(app).files.countDocuments({ ownerId: member.id }),
    }),
    (now) => JSON.stringify(now) === JSON.stringify({ files, records }),
    10_000,
  );
  expect(after).toEqual({ files, records });
}

const expectError = (response: { status: number; body: unknown }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code, message: expect.any(String) });
};

describe.each([
  ["a renamed executable", ELF, "photo.jpg", "image/jpeg"],
  ["an SVG", SVG, "logo.svg", "image/svg+xml"],
  ["an HTML page", HTML, "diploma.pdf", "application/pdf"],
  ["an HTML/PDF polyglot", POLYGLOT, "contract.pdf", "application/pdf"],
])("%s", (_label, bytes, filename, contentType) => {
  it("is refused with 415 whatever its name and declared type say", async () => {
    await changesNothing(async () => {
      const { app, member } = scenario();
      expectError(
        await upload(app, member, bytes, { filename, contentType }),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
    });
  });
});

it("refuses a zero-byte file with 400", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    expectError(await upload(app, member, Buffer.alloc(0)), 400, "BAD_REQUEST");
  });
});

it("refuses 4 MiB + 1 byte with 413 and takes exactly 4 MiB", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const tooBig = Buffer.concat([PDF, Buffer.alloc(MAX + 1 - PDF.length, 0x20)]);
    const refused = await upload(app, member, tooBig);
    expectError(refused, 413, "PAYLOAD_TOO_LARGE");
    expect(refused.body.message).toBe("The file is larger than 4 MiB, the most a file may be");
  });
  const { app, member } = scenario();
  const exact = Buffer.concat([PDF, Buffer.alloc(MAX - PDF.length, 0x20)]);
  const response = await upload(app, member, exact);
  expect(response.status).toBe(201);
  expect(response.body.data.size).toBe(MAX);
});

it("refuses a missing purpose with 400 on that field", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const response = await upload(app, member, PDF, { purpose: null });
    expectError(response, 400, "VALIDATION_ERROR");
    expect(JSON.stringify(response.body)).toContain("purpose");
  });
});

it("refuses an unknown purpose, sent after the file, with 400", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const response = await app
      .http()
      .post("/api/v1/files")
      .set(bearer(member))
      .attach("file", PDF, "a.pdf")
      .field("purpose", "PASSPORT");
    expectError(response, 400, "VALIDATION_ERROR");
  });
});

it("refuses two file parts with 400", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const response = await app
      .http()
      .post("/api/v1/files")
      .set(bearer(member))
      .field("purpose", "REQUIREMENT")
      .attach("file", PDF, "a.pdf")
      .attach("file", JPEG, "b.jpg");
    expectError(response, 400, "VALIDATION_ERROR");
  });
});

it("refuses a body that is not multipart with 415", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const response = await app.http().post("/api/v1/files").set(bearer(member)).send({ a: 1 });
    expectError(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

it("refuses a truncated multipart body with 400", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const body = [
      "--XyZ",
      'Content-Disposition: form-data; name="purpose"',
      "",
      "REQUIREMENT",
      "--XyZ",
      'Content-Disposition: form-data; name="file"; filename="a.pdf"',
      "Content-Type: application/pdf",
      "",
      PDF.toString("latin1"),
    ].join("\r\n");
    const response = await app
      .http()
      .post("/api/v1/files")
      .set(bearer(member))
      .set("content-type", "multipart/form-data; boundary=XyZ")
      .send(body);
    expectError(response, 400, "BAD_REQUEST");
  });
});

it("stores a file whose name carries a path under its base name only", async () => {
  const { app, member } = scenario();
  const response = await upload(app, member, PNG, {
    purpose: "AVATAR",
    filename: "../../../etc/cron.d/evil.png",
  });
  expect(response.status).toBe(201);
  expect(response.body.data.fileName).toBe("evil.png");
  expect(storedNames(storage.dir)).toContain(response.body.data.id);
  const windows = await upload(app, member, PNG, {
    purpose: "AVATAR",
    filename: "C:\\x\\..\\y.png",
  });
  expect(windows.body.data.fileName).toBe("y.png");
});

it("leaves nothing of a client that stops sending half-way, and keeps serving", async () => {
  await changesNothing(async () => {
    const { app, member } = scenario();
    const url = new URL(app.url);
    const head = [
      "--XyZ",
      'Content-Disposition: form-data; name="purpose"',
      "",
      "REQUIREMENT",
      "--XyZ",
      'Content-Disposition: form-data; name="file"; filename="a.pdf"',
      "",
      "",
    ].join("\r\n");
    await new Promise<void>((resolve) => {
      const request = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/v1/files",
        headers: {
          ...bearer(member),
          "content-type": "multipart/form-data; boundary=XyZ",
          "content-length": String(2 * 1024 * 1024),
        },
      });
      request.on("error", () => resolve());
      request.on("response", () => resolve());
      request.write(head);
      request.write(Buffer.concat([PDF, Buffer.alloc(512 * 1024, 0x20)]));
      setTimeout(() => {
        request.destroy();
        resolve();
      }, 300);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  const { app, member } = scenario();
  expect((await upload(app, member, PDF)).status).toBe(201);
});
