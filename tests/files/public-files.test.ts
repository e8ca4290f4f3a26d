/**
 * What /files/public/{id} serves, and how (issue 53 points 2 and 7): only a listed member's
 * current avatar (a replaced one answers as an unknown id does); event images while a PUBLIC
 * event shows them and news media while a post that is out shows them (before that, the same
 * 404); and every byte route under `Content-Security-Policy: default-src 'none'; sandbox`.
 */
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import { useScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { JPEG, PDF, storageDir, upload, uniquePng } from "../support/file-samples";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });
const UNKNOWN = "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b";

const publicRead = (app: TestApp, id: string) =>
  app.http().get(`/api/v1/files/public/${id}`).buffer(true);

/** The answer for an id nobody ever stored: what a file that is not public must answer too. */
async function expectAsUnknown(app: TestApp, id: string) {
  const [answer, unknown] = await Promise.all([publicRead(app, id), publicRead(app, UNKNOWN)]);
  expect([answer.status, answer.body]).toEqual([404, unknown.body]);
}

const local = (url: string) => {
  const parsed = new URL(url, "http://service.invalid");
  return `${parsed.pathname}${parsed.search}`;
};

async function uploaded(app: TestApp, user: TestUser, purpose: string, bytes = uniquePng()) {
  const response = await upload(app, user, bytes, { purpose, filename: "picture.png" });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; fileUrl: string };
}

describe("avatars", () => {
  it("serves a listed member's current avatar only: a replaced one is private again", async () => {
    const { app, admin } = scenario();
    const member = await approvedMemberOf(app, admin);
    const listed = await app
      .http()
      .put("/api/v1/members/current/public-profile")
      .set(bearer(member.user))
      .send({ listed: true });
    expect(listed.status).toBe(200);
    const first = await uploaded(app, member.user, "AVATAR");
    expect((await publicRead(app, first.id)).status).toBe(200);
    const second = await uploaded(app, member.user, "AVATAR");
    expect((await publicRead(app, second.id)).status).toBe(200);
    await expectAsUnknown(app, first.id);
    // Its owner still reads it by Bearer until the orphan sweep takes it.
    const own = await app.http().get(`/api/v1/files/${first.id}`).set(bearer(member.user));
    expect(own.status).toBe(200);
  });
});

describe("event images", () => {
  it("are public only while a PUBLIC event shows them; a PRIVATE event's answer links it signed", async () => {
    const { app, admin } = scenario();
    const image = await uploaded(app, admin, "EVENT_IMAGE");
    await expectAsUnknown(app, image.id);
    const created = await app.http().post("/api/v1/events/create").set(bearer(admin)).send({
      name: "Hospital chaplains' retreat",
      category: "TRAINING",
      type: "ONSITE",
      location: "Tagaytay City",
      startsAt: "2027-03-06",
      status: "SCHEDULED",
      visibility: "PRIVATE",
      thumbnailUrl: image.id,
    });
    expect(created.status).toBe(201);
    const eventId = created.body.data.id as string;
    await expectAsUnknown(app, image.id);
    // Members see the private event with a signed link to its image, which works.
    const member = await approvedMemberOf(app, admin);
    const seen = await app.http().get(`/api/v1/events/${eventId}`).set(bearer(member.user));
    expect(seen.body.data.thumbnailUrl).toContain(`/files/${image.id}?expires=`);
    expect((await app.http().get(local(seen.body.data.thumbnailUrl))).status).toBe(200);

    const opened = await app
      .http()
      .put(`/api/v1/events/${eventId}`)
      .set(bearer(admin))
      .send({ visibility: "PUBLIC", thumbnailUrl: seen.body.data.thumbnailUrl });
    expect(opened.status).toBe(200);
    expect(opened.body.data.thumbnailUrl).toContain(`/files/public/${image.id}`);
    const served = await publicRead(app, image.id);
    expect(served.status).toBe(200);
    expect(served.headers["cache-control"]).toBe("public, max-age=86400");

    const closed = await app
      .http()
      .put(`/api/v1/events/${eventId}`)
      .set(bearer(admin))
      .send({ visibility: "PRIVATE" });
    expect(closed.status).toBe(200);
    await expectAsUnknown(app, image.id);
  });
});

describe("news media", () => {
  it("are public only while a PUBLISHED post whose publishedAt has come shows them", async () => {
    const { app, admin } = scenario();
    const photo = await uploaded(app, admin, "NEWS_MEDIA");
    const draft = await app
      .http()
      .post("/api/v1/news-blogs/create")
      .set(bearer(admin))
      .send({ title: "Relief mission in Samar", status: "DRAFT", media: [photo.id] });
    expect(draft.status).toBe(201);
    const postId = draft.body.data.id as string;
    // The administrator's preview links the picture signed; the public gets nothing yet.
    const preview = draft.body.data.media[0].fileUrl as string;
    expect(preview).toContain(`/files/${photo.id}?expires=`);
    expect((await app.http().get(local(preview))).status).toBe(200);
    await expectAsUnknown(app, photo.id);

    const later = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    const scheduled = await app
      .http()
      .put(`/api/v1/news-blogs/${postId}`)
      .set(bearer(admin))
      .send({ status: "PUBLISHED", publishedAt: later, media: [preview] });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data.media.map((m: { id: string }) => m.id)).toEqual([photo.id]);
    await expectAsUnknown(app, photo.id);

    const out = await app
      .http()
      .put(`/api/v1/news-blogs/${postId}`)
      .set(bearer(admin))
      .send({ publishedAt: new Date(Date.now() - 1000).toISOString() });
    expect(out.status).toBe(200);
    expect(out.body.data.media[0].fileUrl).toContain(`/files/public/${photo.id}`);
    expect((await publicRead(app, photo.id)).status).toBe(200);
    const listed = await app.http().get("/api/v1/news-blogs/public");
    expect(listed.body.data[0].media[0].fileUrl).toContain(`/files/public/${photo.id}`);

    expect(
      (await app.http().delete(`/api/v1/news-blogs/${postId}`).set(bearer(admin))).status,
    ).toBe(204);
    await expectAsUnknown(app, photo.id);
  });
});

describe("the byte routes' Content-Security-Policy", () => {
  it("is default-src 'none'; sandbox on private and public bytes", async () => {
    const { app, admin } = scenario();
    const member = await approvedMemberOf(app, admin);
    const document = await upload(app, member.user, PDF);
    const photo = await upload(app, member.user, JPEG, { purpose: "AVATAR" });
    await app
      .http()
      .put("/api/v1/members/current/public-profile")
      .set(bearer(member.user))
      .send({ listed: true });
    const reads = [
      await app.http().get(`/api/v1/files/${document.body.data.id}`).set(bearer(member.user)),
      await app.http().get(local(photo.body.data.fileUrl)),
      await publicRead(app, photo.body.data.id),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(read.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      expect(read.headers["x-content-type-options"]).toBe("nosniff");
    }
  });
});
