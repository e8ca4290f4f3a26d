/**
 * Issue 48 point 1: the organisation's site's upload protocol (the `uploadthing` v7 client's
 * exchange) over plain HTTP: presign at each uploader's URL, HEAD and PUT on the one-time link.
 * Good uploads land as files of POST /files do; bad input gets the answer the client shows and
 * leaves no byte and no record. The real client in a browser: site-uploads.browser.test.ts.
 */
import { createHash } from "node:crypto";
import { FileLinks } from "../../src/modules/files/file-links";
import { approvedMember } from "../support/onboarding";
import { bearer, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { eventually } from "../support/until";
import { TEST_JWT_SECRET, type TestApp } from "../support/test-app";
import { JPEG, PDF, PNG, storageDir, storedNames, upload } from "../support/file-samples";

const storage = storageDir();
const SITE = "https://chaplains.example.org";
const scenario = useScenario({
  env: {
    ...storage.env,
    FILE_MAX_BYTES: String(256 * 1024),
    FILE_MAX_PER_USER: "10",
    CORS_ORIGINS: SITE,
  },
  users: { member: {}, other: {}, unverified: { verified: false } },
});

const REQUIREMENTS = "/api/v1/members/requirements/upload";
const AVATAR = "/api/v1/users/avatar/upload";
const PUBLIC_RECORDS = "/api/v1/members/public-records/upload";
const CERTIFICATES = "/api/v1/members/certificates/upload";

interface Declared {
  name: string;
  size: number;
  type: string;
}
const declare = (name: string, bytes: Buffer, type: string): Declared => ({
  name,
  size: bytes.length,
  type,
});

/** The client's presign POST, as `genUploader` sends it. */
function presign(
  app: TestApp,
  user: TestUser | null,
  url: string,
  slug: string,
  files: Declared[],
) {
  const request = app
    .http()
    .post(`${url}?actionType=upload&slug=${slug}`)
    .set("x-uploadthing-version", "7.7.4")
    .set("x-uploadthing-package", "uploadthing/client");
  if (user) request.set(bearer(user));
  return request.send({ input: null, files: files.map((f) => ({ ...f, lastModified: 1 })) });
}

/** The path and query of an absolute ingest link (supertest talks to the app itself). */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** The client's PUT: one multipart part `file`, with its Range and version headers. */
function put(app: TestApp, url: string, bytes: Buffer, name: string, user?: TestUser) {
  const request = app
    .http()
    .put(local(url))
    .set("Range", "bytes=0-")
    .set("x-uploadthing-version", "7.7.4");
  if (user) request.set(bearer(user));
  return request.attach("file", bytes, { filename: name, contentType: "application/octet-stream" });
}

async function linkFor(
  app: TestApp,
  user: TestUser,
  url = REQUIREMENTS,
  slug = "requirementUploader",
) {
  const answer = await presign(app, user, url, slug, [declare("photo.jpg", JPEG, "image/jpeg")]);
  expect(answer.status).toBe(200);
  return answer.body[0] as { url: string; key: string; customId: null; name: string };
}

/** Runs `act` and checks it stored no byte and no file record. */
async function storesNothing(app: TestApp, act: () => Promise<void>) {
  const names = storedNames(storage.dir);
  const records = await rawDb(app).files.estimatedDocumentCount();
  await act();
  // A refused upload may finish cleaning after its answer.
  const after = await eventually(
    async () => ({
      names: storedNames(storage.dir),
      records: await rawDb(app).files.estimatedDocumentCount(),
    }),
    (now) => JSON.stringify(now) === JSON.stringify({ names, records }),
    10_000,
  );
  expect(after).toEqual({ names, records });
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the site's upload exchange", () => {
  it("presigns, answers HEAD, stores the PUT as a REQUIREMENT file the member documents take", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    const presigned = await presign(app, member.user, REQUIREMENTS, "requirementUploader", [
      declare("diploma.pdf", PDF, "application/pdf"),
    ]);
    expect(presigned.status).toBe(200);
    expect(presigned.body).toEqual([
      { url: expect.any(String), key: expect.any(String), customId: null, name: "diploma.pdf" },
    ]);
    const link = presigned.body[0].url as string;
    // Absolute, on this service, signed, and naming no account.
    expect(link).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:\\d+/api/v1/files/ingest/${presigned.body[0].key}\\?expires=\\d+&signature=`,
      ),
    );
    expect(link).not.toContain(member.user.id);

    const head = await app.http().head(local(link));
    expect(head.status).toBe(200);
    expect(head.headers["x-ut-range-start"]).toBe("0");

    const stored = await put(app, link, PDF, "diploma.pdf");
    expect(stored.status).toBe(200);
    const { fileId, fileUrl } = stored.body.serverData as { fileId: string; fileUrl: string };
    expect(stored.body).toEqual({
      url: fileUrl,
      appUrl: fileUrl,
      ufsUrl: fileUrl,
      fileHash: sha256(PDF),
      serverData: { fileId, fileUrl },
    });
    expect(fileUrl).toMatch(new RegExp(`^http://.+/api/v1/files/${fileId}\\?expires=`));
    expect(await rawDb(app).files.findById(fileId).lean()).toMatchObject({
      ownerId: member.user.id,
      purpose: "REQUIREMENT",
      mimeType: "application/pdf",
      sha256: sha256(PDF),
    });
    const bytes = await app.http().get(local(fileUrl)).buffer(true);
    expect(Buffer.from(bytes.body as Buffer)).toEqual(PDF);

    // As the site sends it: the answer's fileUrl as a requirement, then as a payment proof.
    const requirements = await member.put("/members/current/requirements", {
      attachments: [{ type: "CLEARANCE_NBI", fileUrl }],
    });
    expect(requirements.status).toBe(200);
    const proof = await linkFor(app, member.user);
    const proofFile = await put(app, proof.url, JPEG, "receipt.jpg");
    expect(proofFile.status).toBe(200);
    const paid = await member.put("/members/current/payment-checkout", {
      paymentMethod: "E_WALLET",
      proofOfPaymentUrl: proofFile.body.serverData.fileUrl,
    });
    expect(paid.status).toBe(200);
  });

  it("answers the preflight for the client's headers and lets it read x-ut-range-start", async () => {
    const { app, member } = scenario();
    const preflight = await app
      .http()
      .options(REQUIREMENTS)
      .set("Origin", SITE)
      .set("Access-Control-Request-Method", "POST")
      .set(
        "Access-Control-Request-Headers",
        "authorization,content-type,x-uploadthing-version,x-uploadthing-package,b3,traceparent",
      );
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(SITE);
    for (const header of ["x-uploadthing-version", "x-uploadthing-package", "b3", "traceparent"]) {
      expect(preflight.headers["access-control-allow-headers"]).toContain(header);
    }
    const link = await linkFor(app, member);
    const putPreflight = await app
      .http()
      .options(local(link.url))
      .set("Origin", SITE)
      .set("Access-Control-Request-Method", "PUT")
      .set("Access-Control-Request-Headers", "range,x-uploadthing-version,b3,traceparent");
    expect(putPreflight.status).toBe(204);
    expect(putPreflight.headers["access-control-allow-headers"]).toContain("range");
    const head = await app.http().head(local(link.url)).set("Origin", SITE);
    expect(head.headers["access-control-expose-headers"]).toContain("x-ut-range-start");
  });

  it("stores an avatar and makes it the account's, answering its avatarUrl", async () => {
    const { app, member } = scenario();
    const presigned = await presign(app, member, AVATAR, "avatarUploader", [
      declare("me.png", PNG, "image/png"),
    ]);
    expect(presigned.status).toBe(200);
    const stored = await put(app, presigned.body[0].url, PNG, "me.png");
    expect(stored.status).toBe(200);
    expect(stored.body.avatarUrl).toBe(stored.body.serverData.fileUrl);
    const account = await app.http().get("/api/v1/users/current").set(bearer(member));
    expect(account.body.user.avatar).toContain(`/files/${stored.body.serverData.fileId}?`);
    expect(await rawDb(app).files.findById(stored.body.serverData.fileId).lean()).toMatchObject({
      purpose: "AVATAR",
    });
  });

  it("takes up to six public-record pictures at once and a certificate as PDF", async () => {
    const { app, member } = scenario();
    const six = Array.from({ length: 6 }, (_, i) => declare(`p${i}.png`, PNG, "image/png"));
    const presigned = await presign(
      app,
      member,
      PUBLIC_RECORDS,
      "memberPublicRecordAttachmentUploader",
      six,
    );
    expect(presigned.status).toBe(200);
    expect(presigned.body).toHaveLength(6);
    expect(new Set(presigned.body.map((p: { url: string }) => p.url)).size).toBe(6);
    const picture = await put(app, presigned.body[5].url, PNG, "p5.png");
    expect(picture.status).toBe(200);
    const certificate = await presign(app, member, CERTIFICATES, "memberCertificateUploader", [
      declare("cert.pdf", PDF, ""),
    ]);
    expect(certificate.status).toBe(200);
    const stored = await put(app, certificate.body[0].url, PDF, "cert.pdf");
    expect(stored.status).toBe(200);
    const purposeOf = async (id: string) => (await rawDb(app).files.findById(id).lean())?.purpose;
    expect(await purposeOf(picture.body.serverData.fileId)).toBe("PUBLIC_RECORD");
    expect(await purposeOf(stored.body.serverData.fileId)).toBe("CERTIFICATE");
  });
});

describe("presign refusals: 4xx JSON with the message the client shows", () => {
  it.each([
    [
      "an unknown slug",
      REQUIREMENTS,
      "passportUploader",
      [declare("a.pdf", PDF, "application/pdf")],
      404,
      /passportUploader/,
    ],
    [
      "another URL's slug",
      REQUIREMENTS,
      "avatarUploader",
      [declare("a.png", PNG, "image/png")],
      404,
      /requirementUploader/,
    ],
    [
      "two files for one",
      REQUIREMENTS,
      "requirementUploader",
      [declare("a.pdf", PDF, "application/pdf"), declare("b.pdf", PDF, "application/pdf")],
      400,
      /one file at a time/,
    ],
    [
      "seven pictures for six",
      PUBLIC_RECORDS,
      "memberPublicRecordAttachmentUploader",
      Array.from({ length: 7 }, () => declare("a.png", PNG, "image/png")),
      400,
      /at most 6 files/,
    ],
    [
      "a type the slug refuses",
      REQUIREMENTS,
      "requirementUploader",
      [declare("page.html", PDF, "text/html")],
      400,
      /page\.html is not a PDF, JPEG or PNG file/,
    ],
    [
      "a PDF as avatar",
      AVATAR,
      "avatarUploader",
      [declare("me.pdf", PDF, "application/pdf")],
      400,
      /not a JPEG, PNG or WEBP file/,
    ],
    [
      "a declared size over FILE_MAX_BYTES",
      REQUIREMENTS,
      "requirementUploader",
      [{ name: "big.pdf", size: 256 * 1024 + 1, type: "application/pdf" }],
      413,
      /big\.pdf is larger than 256 KiB/,
    ],
    [
      "an empty file",
      REQUIREMENTS,
      "requirementUploader",
      [{ name: "empty.pdf", size: 0, type: "application/pdf" }],
      400,
      /empty/,
    ],
    ["no files", REQUIREMENTS, "requirementUploader", [], 400, /files/],
  ] as const)("%s", async (_label, url, slug, files, status, message) => {
    const { app, member } = scenario();
    const tickets = await app.connection.collection("upload_tickets").estimatedDocumentCount();
    const answer = await presign(app, member, url, slug, [...files]);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({
      code: expect.any(String),
      message: expect.stringMatching(message),
    });
    expect(await app.connection.collection("upload_tickets").estimatedDocumentCount()).toBe(
      tickets,
    );
  });

  it("refuses another actionType, no Bearer (401) and an unverified email (403)", async () => {
    const { app, member, unverified } = scenario();
    const files = [declare("a.pdf", PDF, "application/pdf")];
    const other = await app
      .http()
      .post(`${REQUIREMENTS}?actionType=upload-complete&slug=requirementUploader`)
      .set(bearer(member))
      .send({ files });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/actionType/);
    expect((await presign(app, null, REQUIREMENTS, "requirementUploader", files)).status).toBe(401);
    const unverifiedAnswer = await presign(
      app,
      unverified,
      REQUIREMENTS,
      "requirementUploader",
      files,
    );
    expect(unverifiedAnswer.status).toBe(403);
    expect(unverifiedAnswer.body.code).toBe("EMAIL_NOT_VERIFIED");
  });
});

describe("PUT refusals: 4xx JSON {error} the client shows, nothing stored", () => {
  const expectRefusal = (
    answer: { status: number; body: Record<string, unknown> },
    status: number,
    message: RegExp,
  ) => {
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({
      error: expect.stringMatching(message),
      message: answer.body.error,
    });
  };

  it("refuses bytes of a type the uploader does not take, whatever they are called (415)", async () => {
    const { app, member } = scenario();
    const link = await linkFor(app, member);
    await storesNothing(app, async () => {
      const html = Buffer.from("<!doctype html><script>alert(1)</script>");
      expectRefusal(await put(app, link.url, html, "photo.jpg"), 415, /Only PDF, JPEG, PNG/);
    });
    // The avatar uploader takes images only: a PDF sent to its link is refused too.
    const avatar = await presign(app, member, AVATAR, "avatarUploader", [
      declare("me.png", PNG, "image/png"),
    ]);
    await storesNothing(app, async () => {
      expectRefusal(await put(app, avatar.body[0].url, PDF, "me.png"), 415, /JPEG/);
    });
  });

  it("refuses a file over FILE_MAX_BYTES (413) and a damaged image (415)", async () => {
    const { app, member } = scenario();
    await storesNothing(app, async () => {
      const link = await linkFor(app, member);
      const big = Buffer.concat([PDF, Buffer.alloc(256 * 1024, 0x20)]);
      expectRefusal(
        await put(app, link.url, big, "big.pdf"),
        413,
        /^The file is larger than 256 KiB, the most a file may be$/,
      );
    });
    await storesNothing(app, async () => {
      const link = await linkFor(app, member);
      const damaged = Buffer.concat([JPEG.subarray(0, 20), Buffer.alloc(40, 7)]);
      expectRefusal(await put(app, link.url, damaged, "photo.jpg"), 415, /cannot be read/);
    });
  });

  it("takes a link once: a second PUT is 409 and HEAD no longer answers 200", async () => {
    const { app, member } = scenario();
    const link = await linkFor(app, member);
    expect((await put(app, link.url, JPEG, "photo.jpg")).status).toBe(200);
    await storesNothing(app, async () => {
      expectRefusal(await put(app, link.url, PDF, "again.pdf"), 409, /used already/);
    });
    expect((await app.http().head(local(link.url))).status).toBe(404);
  });

  it("refuses an altered or expired link (403)", async () => {
    const { app, member } = scenario();
    const link = await linkFor(app, member);
    const url = new URL(link.url);
    const signature = url.searchParams.get("signature")!;
    const expires = Number(url.searchParams.get("expires"));
    const other = await linkFor(app, member);
    const altered = [
      link.url.replace(signature, `${signature.slice(0, -2)}AA`),
      link.url.replace(`expires=${expires}`, `expires=${expires + 3600}`),
      // Another link's signature on this ticket, and this ticket's path with another's query.
      link.url.replace(signature, new URL(other.url).searchParams.get("signature")!),
      link.url.replace(link.key, other.key),
      link.url.split("?")[0],
      // Signed with the right key but already expired.
      `${url.origin}${new FileLinks(TEST_JWT_SECRET, -60).ingestUrl(link.key, "").url}`,
      // A file link of this service is not an upload link.
      link.url.replace("/ingest/", "/"),
    ];
    for (const bad of altered) {
      await storesNothing(app, async () => {
        const answer = await put(app, bad, JPEG, "photo.jpg");
        expect([bad, answer.status]).toEqual([bad, expect.any(Number)]);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
      });
    }
    expectRefusal(await put(app, altered[0], JPEG, "photo.jpg"), 403, /not valid/);
    // Untouched, the link still works: refusals did not spend it.
    expect((await put(app, link.url, JPEG, "photo.jpg")).status).toBe(200);
  });

  it("refuses another account's Bearer on a link, and one member's file in another's records", async () => {
    const { app, admin, other } = scenario();
    const owner = await approvedMember(app, admin);
    const link = await linkFor(app, owner.user);
    await storesNothing(app, async () => {
      expectRefusal(await put(app, link.url, JPEG, "photo.jpg", other), 403, /another account/);
    });
    const stored = await put(app, link.url, JPEG, "photo.jpg", owner.user);
    expect(stored.status).toBe(200);
    const thief = await approvedMember(app, admin);
    const taken = await thief.put("/members/current/requirements", {
      attachments: [{ type: "PHOTO_2X2", fileUrl: stored.body.serverData.fileUrl }],
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0].path).toBe("attachments.0.fileUrl");
  });

  it("refuses a Range that does not start at the first byte (400)", async () => {
    const { app, member } = scenario();
    const link = await linkFor(app, member);
    await storesNothing(app, async () => {
      const answer = await app
        .http()
        .put(local(link.url))
        .set("Range", "bytes=100-")
        .attach("file", JPEG, "photo.jpg");
      expectRefusal(answer, 400, /first byte/);
    });
  });

  it("holds the quota: a full account gets no links (409), and a link taken before is refused", async () => {
    const { app } = scenario();
    const user = await buildUser(app);
    const max = app.config.files.maxPerUser;
    const early = await linkFor(app, user);
    for (let i = 0; i < max; i += 1) expect((await upload(app, user, PDF)).status).toBe(201);
    const refused = await presign(app, user, REQUIREMENTS, "requirementUploader", [
      declare("a.pdf", PDF, "application/pdf"),
    ]);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(new RegExp(`${max} stored files`));
    await storesNothing(app, async () => {
      expectRefusal(await put(app, early.url, JPEG, "photo.jpg"), 409, /stored files/);
    });
  }, 60_000);
});
