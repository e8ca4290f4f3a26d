import { UUID_V7 } from "../support/expectations";
import { applyAs, approvedMemberOf, bearer, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

const BASE = "/api/v1/news-blogs";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

type Post = { id: string; title: string; publishedAt: string | null } & Record<string, unknown>;

async function write(body: Record<string, unknown>): Promise<Post> {
  const response = await app.http().post(`${BASE}/create`).set(bearer(admin)).send(body);
  if (response.status !== 201) throw new Error(`create: ${response.status} ${response.text}`);
  return response.body.data as Post;
}

const publicIds = async (query: Record<string, string | number> = {}) => {
  const response = await app
    .http()
    .get(`${BASE}/public`)
    .query({ limit: 100, ...query });
  expect(response.status).toBe(200);
  return response.body.data.map((post: Post) => post.id) as string[];
};

const past = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe("writing news", () => {
  it("creates a DRAFT by default, with every field of the contract, hidden from the public", async () => {
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({
        title: "  Flood relief  ",
        caption: "<p>We <strong>served</strong> 300 families</p>",
        platform: "FACEBOOK",
        hashtags: ["#relief", " #relief ", "", "#cebu"],
        scheduledAt: "2030-01-01",
        publishedAt: "2020-01-01",
        authorEmail: "ignored@example.org",
      });
    expect(response.status).toBe(201);
    expect(response.body.code).toBe("CREATED");
    const post = response.body.data;
    expect(post).toEqual({
      id: expect.stringMatching(UUID_V7),
      title: "Flood relief",
      caption: "<p>We <strong>served</strong> 300 families</p>",
      status: "DRAFT",
      platform: "FACEBOOK",
      hashtags: ["#relief", "#cebu"],
      scheduledAt: "2030-01-01T00:00:00.000Z",
      publishedAt: null,
      media: [],
      taggedMembers: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await publicIds()).not.toContain(post.id);
    expect((await app.http().get(`${BASE}/public/${post.id}`)).status).toBe(404);
    const all = await app.http().get(BASE).set(bearer(admin));
    expect(all.body.data.map((p: Post) => p.id)).toContain(post.id);
  });

  it("publishes now when PUBLISHED without a date, and answers the public cacheably", async () => {
    const before = Date.now();
    const post = await write({ title: "Ordination day", status: "PUBLISHED" });
    expect(new Date(post.publishedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const one = await app.http().get(`${BASE}/public/${post.id}`);
    expect(one.status).toBe(200);
    expect(one.headers["cache-control"]).toBe("public, max-age=60");
    expect(one.body.data).toMatchObject({ id: post.id, status: "PUBLISHED" });
    expect(await publicIds()).toContain(post.id);
  });

  it("keeps a post scheduled for later hidden until its publishedAt has come", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const post = await write({ title: "Scheduled", status: "PUBLISHED", scheduledAt: soon });
    expect(post.publishedAt).toBe(soon);
    expect(await publicIds()).not.toContain(post.id);
    expect((await app.http().get(`${BASE}/public/${post.id}`)).status).toBe(404);
    app.internals.clock.advance(61);
    expect(await publicIds()).toContain(post.id);
    expect((await app.http().get(`${BASE}/public/${post.id}`)).status).toBe(200);
  });

  it("validates: a blank title, a bad status or date, too long a caption → 400 on the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "   " }, "title"],
      [{ title: "x", status: "LIVE" }, "status"],
      [{ title: "x", scheduledAt: "soon" }, "scheduledAt"],
      [{ title: "x", caption: "a".repeat(50_001) }, "caption"],
      [{ title: "x", hashtags: ["#ok", 7] }, "hashtags.1"],
    ];
    for (const [body, path] of cases) {
      const response = await app.http().post(`${BASE}/create`).set(bearer(admin)).send(body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
      expect(response.body.errors[0].path).toBe(path);
    }
  });

  it("is for administrators only", async () => {
    expect((await app.http().post(`${BASE}/create`).send({ title: "x" })).status).toBe(401);
    const asMember = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(member))
      .send({ title: "x" });
    expect(asMember.status).toBe(403);
    expect((await app.http().get(BASE).set(bearer(member))).status).toBe(403);
  });
});

describe("the public list", () => {
  let ids: string[];

  beforeAll(async () => {
    ids = [];
    for (const [title, days] of [
      ["Harvest thanksgiving", 3],
      ["Hospital visits", 1],
      ["Prison ministry", 2],
    ] as const)
      ids.push((await write({ title, status: "PUBLISHED", publishedAt: past(days) })).id);
  });

  it("lists newest publishedAt first and pages", async () => {
    const response = await app.http().get(`${BASE}/public`).query({ search: "i", limit: 2 });
    const listed = await publicIds({ search: "harvest" });
    expect(listed).toEqual([ids[0]]);
    const all = await publicIds();
    const mine = all.filter((id) => ids.includes(id));
    expect(mine).toEqual([ids[1], ids[2], ids[0]]);
    expect(response.body.pagination).toMatchObject({ currentPage: 1, limit: 2 });
    expect((await app.http().get(`${BASE}/public`).query({ limit: 101 })).status).toBe(400);
  });

  it("searches the title, the caption's words and the hashtags, never its markup", async () => {
    const post = await write({
      title: "Chaplains at sea",
      caption: '<p>Blessing of the <em>fishing</em> fleet <a href="https://x.example">here</a></p>',
      hashtags: ["#Maritime"],
      status: "PUBLISHED",
    });
    for (const term of ["AT SEA", "fishing fleet", "maritime"])
      expect(await publicIds({ search: term })).toEqual([post.id]);
    expect(await publicIds({ search: "x.example" })).toEqual([]);
    expect(await publicIds({ search: "<em>" })).toEqual([]);
  });

  it("drops a post from the public once it is unpublished, and changes its ETag", async () => {
    const post = await write({ title: "Retracted", status: "PUBLISHED" });
    const before = await app.http().get(`${BASE}/public`);
    const update = await app
      .http()
      .put(`${BASE}/${post.id}`)
      .set(bearer(admin))
      .send({ status: "DRAFT" });
    expect(update.status).toBe(200);
    expect(update.body.data).toMatchObject({ status: "DRAFT", publishedAt: null });
    const after = await app.http().get(`${BASE}/public`).set("if-none-match", before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data.map((p: Post) => p.id)).not.toContain(post.id);
  });
});

describe("tagged members", () => {
  it("shows id, uniqueId and full name of APPROVED members, never an email", async () => {
    const approved = await approvedMemberOf(app, admin, { firstName: "Maria", lastName: "Santos" });
    const post = await write({
      title: "Welcome",
      status: "PUBLISHED",
      taggedMembers: [approved.id, approved.id],
    });
    expect(post.taggedMembers).toEqual([
      {
        id: approved.id,
        uniqueId: (await rawDb(app).members.findById(approved.id).lean())?.uniqueId ?? null,
        fullName: "Maria Santos",
      },
    ]);
    const publicAnswer = await app.http().get(`${BASE}/public/${post.id}`);
    expect(publicAnswer.body.data.taggedMembers).toEqual(post.taggedMembers);
    expect(publicAnswer.text).not.toContain(approved.user.email);
    expect(publicAnswer.text).not.toContain("@");
  });

  it("refuses ids that are not APPROVED members, naming the entry", async () => {
    const applicant = await buildUser(app, { name: "Pending Person" });
    const pending = await applyAs(app, applicant);
    const approved = await approvedMemberOf(app, admin);
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ title: "x", taggedMembers: [approved.id, pending.id] });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe("taggedMembers.1");
    const notUuid = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ title: "x", taggedMembers: ["nope"] });
    expect(notUuid.status).toBe(400);
  });
});

describe("PUT and DELETE", () => {
  it("edits part of a post and cleans a new caption", async () => {
    const post = await write({ title: "Draft", caption: "<p>first</p>" });
    const response = await app
      .http()
      .put(`${BASE}/${post.id}`)
      .set(bearer(admin))
      .send({ caption: '<p onclick="x()">second</p><script>x()</script>', title: null });
    expect(response.status).toBe(400);
    const edited = await app
      .http()
      .put(`${BASE}/${post.id}`)
      .set(bearer(admin))
      .send({ caption: '<p onclick="x()">second</p><script>x()</script>', platform: "WEBSITE" });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      title: "Draft",
      caption: "<p>second</p>",
      platform: "WEBSITE",
    });
  });

  it("deletes with 204, then 404; writes are audited", async () => {
    const post = await write({ title: "Gone soon", status: "PUBLISHED" });
    const deleted = await app.http().delete(`${BASE}/${post.id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect((await app.http().delete(`${BASE}/${post.id}`).set(bearer(admin))).status).toBe(404);
    expect((await app.http().get(`${BASE}/public/${post.id}`)).status).toBe(404);
    const audit = await app
      .http()
      .get("/api/v1/audit-logs")
      .query({ targetId: post.id })
      .set(bearer(admin));
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual([
      "news.delete",
      "news.create",
    ]);
  });
});
