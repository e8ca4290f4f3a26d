import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Role } from "../../src/modules/users/role";
import { bearer, buildUser } from "../support/factories";
import { OwnFilesDocument } from "../graphql/generated";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { JPEG, PDF, PNG, storageDir, storedNames, upload } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({
  env: { ...storage.env, FILE_MAX_PER_USER: "6" },
  users: { member: {}, other: {}, unverified: { verified: false } },
});

const pathOf = (fileUrl: string) => fileUrl.replace(/^https?:\/\/[^/]+/, "");

describe("POST /files", () => {
  it("stores a PDF under a type judged by its bytes and answers its record with a signed link", async () => {
    const { app, member } = scenario();
    const response = await upload(app, member, PDF, {
      filename: "diploma.html",
      contentType: "text/html",
    });
    expect(response.status).toBe(201);
    expect(response.body.code).toBe("CREATED");
    const data = response.body.data;
    expect(data).toMatchObject({
      fileName: "diploma.pdf",
      mimeType: "application/pdf",
      size: PDF.length,
      sha256: createHash("sha256").update(PDF).digest("hex"),
      purpose: "REQUIREMENT",
    });
    expect(data.fileUrl).toContain(`/api/v1/files/${data.id}?expires=`);
    const stored = await rawDb(app).files.findById(data.id).lean();
    expect(stored).toMatchObject({ ownerId: member.id, attachedAt: null });
    const file = path.join(storage.dir, stored!.storageKey);
    expect(fs.readFileSync(file)).toEqual(PDF);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(storage.dir).mode & 0o777).toBe(0o700);
  });

  it("refuses without a Bearer (401) and before the email is verified (403)", async () => {
    const { app, unverified } = scenario();
    const anonymous = await app
      .http()
      .post("/api/v1/files")
      .field("purpose", "REQUIREMENT")
      .attach("file", PDF, "a.pdf");
    expect(anonymous.status).toBe(401);
    const response = await upload(app, unverified, PDF);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("EMAIL_NOT_VERIFIED");
  });

  it("keeps event and news images to administrators and takes images only for them", async () => {
    const { app, admin, member } = scenario();
    const refused = await upload(app, member, PNG, { purpose: "EVENT_IMAGE" });
    expect(refused.status).toBe(403);
    const pdfImage = await upload(app, admin, PDF, { purpose: "NEWS_MEDIA" });
    expect(pdfImage.status).toBe(415);
    const accepted = await upload(app, admin, PNG, { purpose: "EVENT_IMAGE", filename: "x.png" });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.mimeType).toBe("image/png");
    const avatarPdf = await upload(app, member, PDF, { purpose: "AVATAR" });
    expect(avatarPdf.status).toBe(415);
    expect(avatarPdf.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers 409 once the account holds FILE_MAX_PER_USER files, leaving nothing new", async () => {
    const { app } = scenario();
    const user = await buildUser(app);
    for (let i = 0; i < 6; i += 1) expect((await upload(app, user, PDF)).status).toBe(201);
    const before = storedNames(storage.dir).length;
    const response = await upload(app, user, PDF);
    expect(response.status).toBe(409);
    expect(storedNames(storage.dir)).toHaveLength(before);
    expect(await rawDb(app).files.countDocuments({ ownerId: user.id })).toBe(6);
  });
});

describe("GET /files/{id}", () => {
  it("serves the owner by Bearer and anyone by the signed link, with the contract's headers", async () => {
    const { app, member } = scenario();
    const { body } = await upload(app, member, PDF, { filename: "nbi clearance.pdf" });
    const byBearer = await app.http().get(`/api/v1/files/${body.data.id}`).set(bearer(member));
    expect(byBearer.status).toBe(200);
    expect(byBearer.headers["content-type"]).toBe("application/pdf");
    expect(byBearer.headers["x-content-type-options"]).toBe("nosniff");
    expect(byBearer.headers["cache-control"]).toBe("private, no-store");
    expect(byBearer.headers["content-disposition"]).toContain('filename="nbi clearance.pdf"');
    expect(Buffer.from(byBearer.body as Buffer)).toEqual(PDF);
    const byLink = await app.http().get(pathOf(body.data.fileUrl)).buffer(true);
    expect(byLink.status).toBe(200);
    expect(Buffer.from(byLink.body as Buffer)).toEqual(PDF);
  });

  it("gives another member, an altered or expired link, an unknown or malformed id the same 404", async () => {
    const { app, member, other } = scenario();
    const { body } = await upload(app, member, PDF);
    const id: string = body.data.id;
    const url = new URL(body.data.fileUrl, "http://x");
    const expires = url.searchParams.get("expires")!;
    const signature = url.searchParams.get("signature")!;
    const attempts = [
      app.http().get(`/api/v1/files/${id}`).set(bearer(other)),
      app.http().get(`/api/v1/files/${id}`),
      app.http().get(`/api/v1/files/${id}`).set({ authorization: "Bearer not-a-token" }),
      app.http().get(`/api/v1/files/${id}?expires=${Number(expires) + 60}&signature=${signature}`),
      app.http().get(`/api/v1/files/${id}?expires=${expires}&signature=${signature.slice(1)}x`),
      app
        .http()
        .get(
          `/api/v1/files/0190a0a0-0000-7000-8000-000000000000?expires=${expires}&signature=${signature}`,
        ),
      app.http().get(`/api/v1/files/not-an-id`).set(bearer(member)),
      app.http().get(`/api/v1/files/public/${id}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: "NOT_FOUND", message: "No file with this id" });
    }
  });

  it("lets an administrator read a member's document, and audits the read", async () => {
    const { app, admin, member } = scenario();
    const { body } = await upload(app, member, JPEG, { purpose: "PAYMENT_PROOF" });
    const response = await app.http().get(`/api/v1/files/${body.data.id}`).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("image/jpeg");
    const entries = await rawDb(app).auditLogs.find({ targetId: body.data.id }).lean();
    expect(entries).toEqual([
      expect.objectContaining({ action: "file.read", actorId: admin.id, targetType: "file" }),
    ]);
    await app.http().get(`/api/v1/files/${body.data.id}`).set(bearer(member));
    expect(await rawDb(app).auditLogs.countDocuments({ targetId: body.data.id })).toBe(1);
  });
});

describe("GET /files/public/{id}", () => {
  it("serves a PUBLIC event's image to anyone with a day of caching", async () => {
    const { app, admin } = scenario();
    const { body } = await upload(app, admin, PNG, { purpose: "EVENT_IMAGE" });
    const event = await app.http().post("/api/v1/events/create").set(bearer(admin)).send({
      name: "Chaplains' fellowship",
      category: "FELLOWSHIP",
      type: "ONSITE",
      startsAt: "2027-04-01",
      status: "SCHEDULED",
      visibility: "PUBLIC",
      thumbnailUrl: body.data.id,
    });
    expect(event.status).toBe(201);
    const response = await app.http().get(`/api/v1/files/public/${body.data.id}`).buffer(true);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=86400");
    expect(response.headers["content-type"]).toBe("image/png");
    const stored = Buffer.from(response.body as Buffer);
    expect([stored.length, createHash("sha256").update(stored).digest("hex")]).toEqual([
      body.data.size,
      body.data.sha256,
    ]);
  });
});

describe("GET /files (the caller's own)", () => {
  it("lists the caller's files only, over REST and GraphQL, with fresh links", async () => {
    const { app } = scenario();
    const owner = await buildUser(app, { role: Role.MEMBER });
    const { body } = await upload(app, owner, PNG, { purpose: "AVATAR", filename: "me.png" });
    const rest = await app.http().get("/api/v1/files").set(bearer(owner));
    expect(rest.status).toBe(200);
    expect(rest.body.data).toEqual([
      expect.objectContaining({ id: body.data.id, fileName: "me.png", purpose: "AVATAR" }),
    ]);
    expect(rest.body.pagination.totalCount).toBe(1);
    const link = await app.http().get(pathOf(rest.body.data[0].fileUrl));
    expect(link.status).toBe(200);
    const graphql = await app.graphql(OwnFilesDocument, {}, owner.token);
    expect(graphql.data?.files.data).toEqual([
      {
        id: body.data.id,
        fileUrl: expect.stringContaining("signature="),
        sha256: body.data.sha256,
      },
    ]);
  });
});
