import { UUID_V7 } from "../support/expectations";
import { bearer, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

const BASE = "/api/v1/events";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

const ZOOM = {
  type: "ONLINE",
  onlineLink: "https://zoom.example.org/j/123",
  meetingPlatform: "ZOOM",
  meetingId: "123 456 789",
  meetingPassword: "pray4all",
};

async function createEvent(body: Record<string, unknown>) {
  const response = await app
    .http()
    .post(`${BASE}/create`)
    .set(bearer(admin))
    .send({ category: "WORSHIP", type: "ONSITE", startsAt: "2027-01-10T02:00:00Z", ...body });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${response.text}`);
  return response.body.data as Record<string, unknown> & { id: string };
}

describe("POST /events/create", () => {
  it("creates an event with every field of the contract and answers 201", async () => {
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({
        name: "  Chaplains' Conference  ",
        category: "CONFERENCE",
        location: "Cebu City",
        description: "Workshops",
        organizer: "The board",
        startsAt: "2027-03-12",
        endsAt: "2027-03-13T09:00:00+08:00",
        ...ZOOM,
        createdAt: "2000-01-01T00:00:00Z",
        ownerNote: "ignored",
      });
    expect(response.status).toBe(201);
    expect(response.body.code).toBe("CREATED");
    const event = response.body.data;
    expect(event).toMatchObject({
      name: "Chaplains' Conference",
      category: "CONFERENCE",
      type: "ONLINE",
      location: "Cebu City",
      onlineLink: ZOOM.onlineLink,
      meetingPlatform: "ZOOM",
      meetingId: ZOOM.meetingId,
      meetingPassword: ZOOM.meetingPassword,
      description: "Workshops",
      thumbnailUrl: null,
      organizer: "The board",
      startsAt: "2027-03-12T00:00:00.000Z",
      endsAt: "2027-03-13T01:00:00.000Z",
      status: "SCHEDULED",
      visibility: "PUBLIC",
    });
    expect(event.id).toMatch(UUID_V7);
    expect(event.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    expect(event).not.toHaveProperty("ownerNote");
  });

  it("refuses an end before the start, a bad enum and a bad date with 400 on the field", async () => {
    const send = (body: object) =>
      app
        .http()
        .post(`${BASE}/create`)
        .set(bearer(admin))
        .send({
          name: "Bad",
          category: "WORSHIP",
          type: "ONSITE",
          startsAt: "2027-01-10",
          ...body,
        });
    const backwards = await send({ endsAt: "2027-01-09" });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "endsAt" }],
    });
    const category = await send({ category: "PICNIC" });
    expect(category.status).toBe(400);
    expect(category.body.errors[0].path).toBe("category");
    const date = await send({ startsAt: "next Tuesday" });
    expect(date.status).toBe(400);
    expect(date.body.errors[0]).toMatchObject({ path: "startsAt" });
    expect(date.body.errors[0].message).toContain("YYYY-MM-DD");
    const link = await send({ onlineLink: "javascript:alert(1)" });
    expect(link.status).toBe(400);
    expect(link.body.errors[0].path).toBe("onlineLink");
    expect((await send({ endsAt: "2027-01-10" })).status).toBe(201);
  });

  it("is for administrators only", async () => {
    const body = { name: "X", category: "WORSHIP", type: "ONSITE", startsAt: "2027-01-10" };
    expect((await app.http().post(`${BASE}/create`).send(body)).status).toBe(401);
    const asMember = await app.http().post(`${BASE}/create`).set(bearer(member)).send(body);
    expect(asMember.status).toBe(403);
  });
});

describe("the public list and detail", () => {
  let pub: { id: string };
  let hidden: { id: string };

  beforeAll(async () => {
    pub = await createEvent({ name: "Harbour Outreach", location: "Pier 4, Manila", ...ZOOM });
    hidden = await createEvent({ name: "Board Retreat", visibility: "PRIVATE", ...ZOOM });
  });

  it("lists PUBLIC events only, without meeting ids and passwords, cacheable", async () => {
    const response = await app.http().get(`${BASE}/public?limit=100`);
    expect(response.status).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=60");
    const ids = response.body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(pub.id);
    expect(ids).not.toContain(hidden.id);
    for (const event of response.body.data) {
      expect(event.visibility).toBe("PUBLIC");
      expect(event).not.toHaveProperty("meetingId");
      expect(event).not.toHaveProperty("meetingPassword");
    }
    expect(response.text).not.toContain(ZOOM.meetingPassword);
  });

  it("searches name, description and location, case-insensitively", async () => {
    for (const term of ["harbour", "PIER 4"]) {
      const response = await app.http().get(`${BASE}/public`).query({ search: term });
      expect(response.body.data.map((e: { id: string }) => e.id)).toEqual([pub.id]);
      expect(response.body.pagination.totalCount).toBe(1);
    }
    const privateName = await app.http().get(`${BASE}/public`).query({ search: "retreat" });
    expect(privateName.body.data).toEqual([]);
  });

  it("shows one PUBLIC event without its meeting fields; a PRIVATE one is 404", async () => {
    const one = await app.http().get(`${BASE}/public/${pub.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: pub.id, name: "Harbour Outreach" });
    expect(one.body.data).not.toHaveProperty("meetingPassword");
    expect(one.headers.etag).toBeDefined();
    const notPublic = await app.http().get(`${BASE}/public/${hidden.id}`);
    expect(notPublic.status).toBe(404);
    expect((await app.http().get(`${BASE}/public/not-a-uuid`)).status).toBe(400);
  });

  it("gives signed-in members any event with how to join; not anonymous callers", async () => {
    const asMember = await app.http().get(`${BASE}/${hidden.id}`).set(bearer(member));
    expect(asMember.status).toBe(200);
    expect(asMember.body.data).toMatchObject({
      meetingId: ZOOM.meetingId,
      meetingPassword: ZOOM.meetingPassword,
      visibility: "PRIVATE",
    });
    expect(asMember.headers["cache-control"]).toBe("no-store");
    expect((await app.http().get(`${BASE}/${hidden.id}`)).status).toBe(401);
  });

  it("lists every event for administrators only", async () => {
    const all = await app.http().get(`${BASE}?limit=100`).set(bearer(admin));
    expect(all.status).toBe(200);
    const ids = all.body.data.map((e: { id: string }) => e.id);
    expect(ids).toEqual(expect.arrayContaining([pub.id, hidden.id]));
    expect((await app.http().get(BASE).set(bearer(member))).status).toBe(403);
  });
});

describe("sorting and paging the public list", () => {
  const names = ["Charlie Prayer", "alpha Prayer", "Bravo Prayer"];
  const starts = ["2028-05-03", "2028-05-01", "2028-05-02"];
  let ids: string[] = [];

  beforeAll(async () => {
    ids = [];
    for (const [i, name] of names.entries())
      ids.push((await createEvent({ name, startsAt: starts[i], category: "PRAYER" })).id);
  });

  const list = async (query: Record<string, string | number>) => {
    const response = await app
      .http()
      .get(`${BASE}/public`)
      .query({ search: "prayer", ...query });
    expect(response.status).toBe(200);
    return response.body as { data: { name: string }[]; pagination: Record<string, unknown> };
  };

  it("sorts by startsAt, name (case-insensitive) and createdAt, newest first by default", async () => {
    const byStart = await list({ sortBy: "startsAt", sortOrder: "asc" });
    expect(byStart.data.map((e) => e.name)).toEqual([
      "alpha Prayer",
      "Bravo Prayer",
      "Charlie Prayer",
    ]);
    const byStartDesc = await list({ sortBy: "startsAt", sortOrder: "desc" });
    expect(byStartDesc.data.map((e) => e.name)).toEqual([
      "Charlie Prayer",
      "Bravo Prayer",
      "alpha Prayer",
    ]);
    const byName = await list({ sortBy: "name", sortOrder: "asc" });
    expect(byName.data.map((e) => e.name)).toEqual([
      "alpha Prayer",
      "Bravo Prayer",
      "Charlie Prayer",
    ]);
    const newest = await list({});
    expect(newest.data.map((e) => e.name)).toEqual([...names].reverse());
    const oldest = await list({ sortBy: "createdAt", sortOrder: "asc" });
    expect(oldest.data.map((e) => e.name)).toEqual(names);
  });

  it("pages with the contract's pagination and refuses bad paging with 400", async () => {
    const second = await list({ sortBy: "startsAt", sortOrder: "asc", page: 2, limit: 2 });
    expect(second.data.map((e) => e.name)).toEqual(["Charlie Prayer"]);
    expect(second.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      totalCount: 3,
      limit: 2,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    for (const query of [
      { limit: 101 },
      { page: 0 },
      { sortBy: "location" },
      { sortOrder: "up" },
    ]) {
      const refused = await app.http().get(`${BASE}/public`).query(query);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("PUT and DELETE /events/{id}", () => {
  it("updates part of an event, cancels it, and the public answer changes with it", async () => {
    const event = await createEvent({ name: "Fellowship Night", endsAt: "2027-01-10T05:00:00Z" });
    const before = await app.http().get(`${BASE}/public/${event.id}`);
    const response = await app
      .http()
      .put(`${BASE}/${event.id}`)
      .set(bearer(admin))
      .send({ status: "CANCELLED", location: "Online instead", organizer: null });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: "Fellowship Night",
      status: "CANCELLED",
      location: "Online instead",
      organizer: null,
    });
    const after = await app
      .http()
      .get(`${BASE}/public/${event.id}`)
      .set("if-none-match", before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data.status).toBe("CANCELLED");
    const found = await app.http().get(`${BASE}/public`).query({ search: "online instead" });
    expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([event.id]);
  });

  it("refuses an end before the (stored) start and clearing a required field", async () => {
    const event = await createEvent({ name: "Seminar", startsAt: "2027-06-01" });
    const backwards = await app
      .http()
      .put(`${BASE}/${event.id}`)
      .set(bearer(admin))
      .send({ endsAt: "2027-05-31" });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("endsAt");
    const cleared = await app
      .http()
      .put(`${BASE}/${event.id}`)
      .set(bearer(admin))
      .send({ name: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.errors[0].path).toBe("name");
    const unchanged = await app.http().get(`${BASE}/${event.id}`).set(bearer(member));
    expect(unchanged.body.data).toMatchObject({ name: "Seminar", endsAt: null });
  });

  it("deletes with 204, then answers 404; both writes are in the audit log", async () => {
    const event = await createEvent({ name: "Orientation" });
    const deleted = await app.http().delete(`${BASE}/${event.id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await app.http().delete(`${BASE}/${event.id}`).set(bearer(admin))).status).toBe(404);
    expect((await app.http().get(`${BASE}/public/${event.id}`)).status).toBe(404);
    const audit = await app
      .http()
      .get("/api/v1/audit-logs")
      .query({ targetId: event.id })
      .set(bearer(admin));
    const actions = audit.body.data.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(["event.delete", "event.create"]);
    const asMember = await app.http().delete(`${BASE}/${event.id}`).set(bearer(member));
    expect(asMember.status).toBe(403);
  });
});
