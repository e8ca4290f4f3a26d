/**
 * Issue 39 ("object storage that every replica shares"): two instances of the service on one
 * database and one S3 bucket, as behind a load balancer. What one stores, the other serves; a
 * link one renders, the other accepts (the link key comes from the shared JWT_SECRET); an
 * erasure through one deletes what the other stored, leaving nothing of the person in the bucket.
 */
import { createHash, randomBytes } from "node:crypto";
import { S3Storage } from "../../src/storage/s3-storage";
import { bearer, buildAdmin, buildUser, type TestUser } from "../support/factories";
import { startObjectStore, type RunningObjectStore } from "../support/object-store";
import { startTwoInstances, type TestApp } from "../support/test-app";
import { approvedMember } from "../support/onboarding";
import { PDF, PNG, holdsAny, upload, uploadMarked } from "../support/file-samples";

const BUCKET = "two-replicas";
let server: RunningObjectStore;
let bucket: S3Storage;
let a: TestApp;
let b: TestApp;
let admin: TestUser;
let closeBoth = (): Promise<void> => Promise.resolve();

beforeAll(async () => {
  server = await startObjectStore();
  const started = await startTwoInstances(server.envFor(BUCKET));
  ({ first: a, second: b, closeBoth } = started);
  admin = await buildAdmin(a);
  bucket = server.driverOf(BUCKET);
}, 90_000);
afterAll(async () => {
  await bucket?.close();
  await closeBoth?.();
  await server?.stop();
});

const pathOf = (fileUrl: string) => fileUrl.replace(/^https?:\/\/[^/]+/, "");

/** GET `path` on `app`, the body read as bytes. */
async function bytesFrom(app: TestApp, path: string, token?: string) {
  const request = app.http().get(path).buffer(true);
  if (token) request.set(bearer({ token }));
  const response = await request;
  // A file's bytes, or the JSON of an error answer.
  const body: unknown = response.body;
  return {
    status: response.status,
    body: Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body)),
  };
}

/** Every object of the bucket, read whole. */
async function objects(): Promise<Buffer[]> {
  const found: Buffer[] = [];
  for await (const key of bucket.keys()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await bucket.get(key)) chunks.push(chunk as Buffer);
    found.push(Buffer.concat(chunks));
  }
  return found;
}

it("serves through B, by Bearer and by A's link, what was uploaded through A", async () => {
  const person = await buildUser(a);
  const document = Buffer.concat([PDF, randomBytes(32)]);
  const stored = await upload(a, person, document);
  expect(stored.status).toBe(201);
  const { id, fileUrl } = stored.body.data as { id: string; fileUrl: string };
  expect(await bytesFrom(b, `/api/v1/files/${id}`, person.token)).toEqual({
    status: 200,
    body: document,
  });
  expect(await bytesFrom(b, pathOf(fileUrl))).toEqual({ status: 200, body: document });
  // Someone else's Bearer on B is refused as on A.
  const stranger = await buildUser(a);
  expect((await bytesFrom(b, `/api/v1/files/${id}`, stranger.token)).status).toBe(404);
});

it("serves a public image through B, and audits on B an administrator's read by A's link", async () => {
  const image = await upload(a, admin, PNG, { purpose: "EVENT_IMAGE" });
  expect(image.status).toBe(201);
  const event = await a.http().post("/api/v1/events/create").set(bearer(admin)).send({
    name: "Fellowship night",
    category: "FELLOWSHIP",
    type: "ONSITE",
    startsAt: "2027-04-01",
    status: "SCHEDULED",
    visibility: "PUBLIC",
    thumbnailUrl: image.body.data.id,
  });
  expect(event.status).toBe(201);
  const shown = await bytesFrom(b, `/api/v1/files/public/${image.body.data.id}`);
  expect(shown.status).toBe(200);
  expect(createHash("sha256").update(shown.body).digest("hex")).toBe(image.body.data.sha256);

  const member = await approvedMember(a, admin);
  const clearance = await upload(a, member.user, PDF);
  await member.put("/members/current/requirements", {
    attachments: [{ type: "CLEARANCE_NBI", fileId: clearance.body.data.id }],
  });
  const record = await a.http().get(`/api/v1/members/${member.id}`).set(bearer(admin));
  const link: string = record.body.data.onboarding.requirements[0].fileUrl;
  const read = await b.http().get(pathOf(link)).buffer(true);
  expect(read.status).toBe(200);
  const entries = await a
    .http()
    .get("/api/v1/audit-logs")
    .query({ targetId: clearance.body.data.id, action: "file.read" })
    .set(bearer(admin));
  expect(entries.body.data).toEqual([
    expect.objectContaining({ actorId: admin.id, requestId: read.headers["x-request-id"] }),
  ]);
});

it("erases through B every byte the person stored through A", async () => {
  const person = await buildUser(a);
  const { markers, ids } = await uploadMarked(a, person);
  expect((await objects()).filter((bytes) => holdsAny(bytes, markers))).toHaveLength(2);
  const erased = await b.http().delete(`/api/v1/users/${person.id}`).set(bearer(admin));
  expect(erased.status).toBeLessThan(300);
  expect((await objects()).filter((bytes) => holdsAny(bytes, markers))).toEqual([]);
  for (const id of ids) {
    expect((await bytesFrom(a, `/api/v1/files/${id}`, admin.token)).status).toBe(404);
  }
});
