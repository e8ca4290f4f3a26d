import { PNG, storageDir, upload } from "../support/file-samples";
import { bearer, type TestUser } from "../support/factories";
import { Role } from "../../src/modules/users/role";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

/** An event's thumbnail: an EVENT_IMAGE upload named by id or fileUrl, shown by its public URL. */
const BASE = "/api/v1/events";
const storage = storageDir();

let app: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, otherAdmin, member } = await startScenario({
    env: storage.env,
    users: { otherAdmin: { role: Role.ADMIN }, member: {} },
  }));
});
afterAll(() => app?.close());

async function image(by: TestUser = admin, purpose = "EVENT_IMAGE") {
  const response = await upload(app, by, PNG, { purpose, filename: "poster.png" });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; fileUrl: string };
}

const fileOf = (id: string) => rawDb(app).files.findById(id).lean();
const event = {
  name: "Poster night",
  category: "FELLOWSHIP",
  type: "ONSITE",
  startsAt: "2027-04-01",
};

describe("event thumbnails", () => {
  it("takes an uploaded image by id, answers its public URL, and the public can fetch it", async () => {
    const file = await image();
    const created = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ ...event, thumbnailUrl: file.id });
    expect(created.status).toBe(201);
    const url = created.body.data.thumbnailUrl as string;
    expect(url).toContain(`/files/public/${file.id}`);
    expect((await fileOf(file.id))?.unnamedSince).toBeNull();
    const listed = await app.http().get(`${BASE}/public`);
    expect(listed.body.data[0].thumbnailUrl).toBe(url);
    // Relative to this service when PUBLIC_URL is unset, as in tests.
    const bytes = await app.http().get(new URL(url, app.url).pathname).buffer(true);
    expect(bytes.status).toBe(200);
    expect((bytes.body as Buffer).length).toBe((await fileOf(file.id))?.size);
  });

  it("takes the fileUrl too, releases the image it replaces, and keeps its own when sent back", async () => {
    const first = await image();
    const second = await image();
    const created = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ ...event, thumbnailUrl: first.fileUrl });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    // Another administrator edits, sending the current thumbnail back as it was answered.
    const kept = await app
      .http()
      .put(`${BASE}/${id}`)
      .set(bearer(otherAdmin))
      .send({ thumbnailUrl: created.body.data.thumbnailUrl, organizer: "Board" });
    expect(kept.status).toBe(200);
    expect(kept.body.data.thumbnailUrl).toBe(created.body.data.thumbnailUrl);
    const replaced = await app
      .http()
      .put(`${BASE}/${id}`)
      .set(bearer(admin))
      .send({ thumbnailUrl: second.id });
    expect(replaced.body.data.thumbnailUrl).toContain(second.id);
    expect((await fileOf(first.id))?.unnamedSince).not.toBeNull();
    const deleted = await app.http().delete(`${BASE}/${id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect((await fileOf(second.id))?.unnamedSince).not.toBeNull();
  });

  it("refuses a file that is not an EVENT_IMAGE of the caller, on thumbnailUrl", async () => {
    const news = await image(admin, "NEWS_MEDIA");
    const others = await image(otherAdmin);
    const own = await upload(app, member, PNG, { purpose: "AVATAR", filename: "me.png" });
    for (const ref of [news.id, others.id, own.body.data.id, "https://elsewhere.example/x.png"]) {
      const response = await app
        .http()
        .post(`${BASE}/create`)
        .set(bearer(admin))
        .send({ ...event, thumbnailUrl: ref });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].path).toBe("thumbnailUrl");
    }
  });
});
