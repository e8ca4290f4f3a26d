import { JPEG, PNG, storageDir, upload } from "../support/file-samples";
import { bearer, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

/** A post's media: NEWS_MEDIA uploads named by id or fileUrl, answered with public URLs. */
const BASE = "/api/v1/news-blogs";
const storage = storageDir();

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: storage.env }));
});
afterAll(() => app?.close());

async function media(bytes: Buffer, filename: string, purpose = "NEWS_MEDIA") {
  const response = await upload(app, admin, bytes, { purpose, filename });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; fileUrl: string };
}

const fileOf = (id: string) => rawDb(app).files.findById(id).lean();

describe("news media", () => {
  it("shows the files in the order sent, with kind, public URL, name and sortOrder", async () => {
    const photo = await media(PNG, "photo.png");
    const scan = await media(JPEG, "scan.jpg");
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ title: "Gallery", status: "PUBLISHED", media: [scan.fileUrl, photo.id, scan.id] });
    expect(response.status).toBe(201);
    expect(response.body.data.media).toEqual([
      {
        id: scan.id,
        kind: "IMAGE",
        fileUrl: expect.stringContaining(`/files/public/${scan.id}`),
        fileName: "scan.jpg",
        sortOrder: 0,
      },
      {
        id: photo.id,
        kind: "IMAGE",
        fileUrl: expect.stringContaining(`/files/public/${photo.id}`),
        fileName: "photo.png",
        sortOrder: 1,
      },
    ]);
    const publicPost = await app.http().get(`${BASE}/public/${response.body.data.id}`);
    expect(publicPost.body.data.media).toEqual(response.body.data.media);
    const fetched = await app
      .http()
      .get(new URL(publicPost.body.data.media[1].fileUrl, app.url).pathname);
    expect(fetched.status).toBe(200);
  });

  it("releases the files a post no longer shows, and all of them on delete", async () => {
    const kept = await media(PNG, "kept.png");
    const dropped = await media(PNG, "dropped.png");
    const created = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ title: "Edit me", media: [kept.id, dropped.id] });
    const id = created.body.data.id as string;
    const edited = await app
      .http()
      .put(`${BASE}/${id}`)
      .set(bearer(admin))
      .send({ media: [created.body.data.media[0].fileUrl] });
    expect(edited.status).toBe(200);
    expect(edited.body.data.media.map((m: { id: string }) => m.id)).toEqual([kept.id]);
    expect((await fileOf(dropped.id))?.unnamedSince).not.toBeNull();
    expect((await fileOf(kept.id))?.unnamedSince).toBeNull();
    expect((await app.http().delete(`${BASE}/${id}`).set(bearer(admin))).status).toBe(204);
    expect((await fileOf(kept.id))?.unnamedSince).not.toBeNull();
  });

  it("refuses files of another purpose or unknown refs, naming the entry", async () => {
    const ok = await media(PNG, "ok.png");
    const event = await media(PNG, "event.png", "EVENT_IMAGE");
    for (const ref of [event.id, "0190a2b4-0000-7000-8000-000000000000", "not a ref"]) {
      const response = await app
        .http()
        .post(`${BASE}/create`)
        .set(bearer(admin))
        .send({ title: "x", media: [ok.id, ref] });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe("media.1");
    }
    // The refused writes named nothing: the file they claimed first is free again.
    expect((await fileOf(ok.id))?.unnamedSince).not.toBeNull();
  });
});
