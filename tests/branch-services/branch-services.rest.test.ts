import { oneOf } from "../../src/db/operators";
import { UUID_V7 } from "../support/expectations";
import { buildBranchService, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const BASE = "/api/v1/branch-service";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const countBranches = () => rawDb(app).branchServices.estimatedDocumentCount();

describe("POST /branch-service/create", () => {
  it("creates a branch with sections and answers 201 in the single-record envelope", async () => {
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(auth(admin))
      .send({
        title: "  Military Chaplaincy  ",
        description: "Chaplains serving the armed forces",
        sections: [
          {
            title: "Duties",
            type: "list",
            items: [{ content: "Pastoral care" }, { content: "Counselling" }],
          },
          { type: "richtext", items: [{ content: "<p>History</p>" }] },
        ],
      });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: "CREATED", message: expect.any(String) });
    const data = response.body.data;
    expect(data.id).toMatch(UUID_V7);
    expect(data.title).toBe("Military Chaplaincy");
    expect(data.memberId).toBeNull();
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(data.sections).toHaveLength(2);
    expect(data.sections[0]).toMatchObject({
      title: "Duties",
      type: "list",
      items: [{ content: "Pastoral care" }, { content: "Counselling" }],
    });
    expect(data.sections[1]).toMatchObject({ title: null, type: "richtext" });
    for (const section of data.sections) expect(section.id).toMatch(UUID_V7);
  });

  it("ignores unknown and server-owned fields instead of storing them", async () => {
    const response = await app.http().post(`${BASE}/create`).set(auth(admin)).send({
      title: "Hospital Ministry",
      description: "Care for the sick",
      _id: "attacker",
      memberId: "x",
      createdAt: "2000-01-01T00:00:00.000Z",
      isAdmin: true,
    });
    expect(response.status).toBe(201);
    expect(response.body.data.id).toMatch(UUID_V7);
    expect(response.body.data.memberId).toBeNull();
    expect(response.body.data.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    const stored = await rawDb(app).branchServices.findById(response.body.data.id).lean();
    expect(stored).not.toHaveProperty("isAdmin");
    expect(stored).not.toHaveProperty("memberId");
  });

  it("refuses a title that differs from an existing one only in case (409) and stores nothing", async () => {
    await buildBranchService(app, admin, { title: "Prison Ministry" });
    const before = await countBranches();
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(auth(admin))
      .send({ title: "PRISON ministry", description: "dup" });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      code: "CONFLICT",
      message: expect.stringContaining("PRISON ministry"),
    });
    expect(await countBranches()).toBe(before);
  });

  it("names every missing required field", async () => {
    const response = await app.http().post(`${BASE}/create`).set(auth(admin)).send({});
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "description",
      "title",
    ]);
  });

  it.each([
    ["a blank title", { title: "   ", description: "d" }, "title"],
    ["a number for the title", { title: 42, description: "d" }, "title"],
    ["an operator object for the title", { title: { $gt: "" }, description: "d" }, "title"],
    ["a title over 200 characters", { title: "x".repeat(201), description: "d" }, "title"],
    [
      "an unknown section type",
      {
        title: "t",
        description: "d",
        sections: [
          { type: "list", items: [] },
          { type: "table", items: [] },
        ],
      },
      "sections.1.type",
    ],
    [
      "a section item without content",
      { title: "t", description: "d", sections: [{ type: "list", items: [{}] }] },
      "sections.0.items.0.content",
    ],
    [
      "sections that are not a list of objects",
      { title: "t", description: "d", sections: "oops" },
      "sections",
    ],
  ])("answers 400 with the field path for %s, storing nothing", async (_case, body, path) => {
    const before = await countBranches();
    const response = await app.http().post(`${BASE}/create`).set(auth(admin)).send(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors).toEqual(
      expect.arrayContaining([{ path, message: expect.any(String) }]),
    );
    expect(await countBranches()).toBe(before);
  });

  it("requires a signed-in caller (401) with the ADMIN role (403)", async () => {
    const body = { title: "Campus Ministry", description: "Students" };
    const anonymous = await app.http().post(`${BASE}/create`).send(body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHENTICATED");
    const forbidden = await app.http().post(`${BASE}/create`).set(auth(member)).send(body);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("FORBIDDEN");
    const officer = await buildUser(app, { role: "OFFICER" as never });
    expect((await app.http().post(`${BASE}/create`).set(auth(officer)).send(body)).status).toBe(
      403,
    );
    expect(await rawDb(app).branchServices.exists({ titleKey: "campus ministry" })).toBeNull();
  });
});

describe("GET /branch-service", () => {
  let titles: string[];
  beforeAll(async () => {
    // A clean slate, cleared by id as production would (see tests/support/index-coverage.ts).
    const branches = rawDb(app).branchServices;
    const stored = await branches.find({}, { _id: 1 }).sort({ createdAt: -1, _id: -1 }).lean();
    await branches.deleteMany({ _id: oneOf(stored.map((branch) => branch._id)) });
    titles = [];
    for (const [title, description] of [
      ["Police Chaplaincy", "Serving officers of the law"],
      ["Fire Service", "Firefighters and rescue (BFP)"],
      ["Disaster Response", "Relief work after typhoons"],
    ]) {
      titles.push((await buildBranchService(app, admin, { title, description })).title);
    }
  });

  it("is public and lists newest first in the paged envelope", async () => {
    const response = await app.http().get(BASE);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: "OK",
      pagination: {
        currentPage: 1,
        totalPages: 1,
        totalCount: 3,
        limit: 10,
        hasNextPage: false,
        hasPreviousPage: false,
      },
    });
    expect(response.body.data.map((b: { title: string }) => b.title)).toEqual(
      [...titles].reverse(),
    );
  });

  it("pages with page and limit", async () => {
    const response = await app.http().get(`${BASE}?page=2&limit=2`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((b: { title: string }) => b.title)).toEqual([titles[0]]);
    expect(response.body.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      totalCount: 3,
      limit: 2,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it("answers an empty page past the end with 200", async () => {
    const response = await app.http().get(`${BASE}?page=9&limit=2`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({
      currentPage: 9,
      totalPages: 2,
      hasNextPage: false,
    });
  });

  it.each([
    ["limit=101", "limit"],
    ["limit=0", "limit"],
    ["limit=abc", "limit"],
    ["page=0", "page"],
    ["page=1.5", "page"],
  ])("refuses %s with 400 naming the parameter", async (query, path) => {
    const response = await app.http().get(`${BASE}?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors).toEqual([{ path, message: expect.any(String) }]);
  });

  it("searches title and description case-insensitively as a substring", async () => {
    const byTitle = await app.http().get(`${BASE}?search=CHAPLAIN`);
    expect(byTitle.body.data.map((b: { title: string }) => b.title)).toEqual(["Police Chaplaincy"]);
    const byDescription = await app.http().get(`${BASE}?search=typhoon`);
    expect(byDescription.body.data.map((b: { title: string }) => b.title)).toEqual([
      "Disaster Response",
    ]);
    expect(byDescription.body.pagination.totalCount).toBe(1);
  });

  it("treats regular-expression characters in search as plain text", async () => {
    const response = await app.http().get(`${BASE}?search=${encodeURIComponent("(BFP)")}`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((b: { title: string }) => b.title)).toEqual(["Fire Service"]);
    const unmatched = await app.http().get(`${BASE}?search=${encodeURIComponent(".*[")}`);
    expect(unmatched.status).toBe(200);
    expect(unmatched.body.data).toEqual([]);
  });
});

describe("GET /branch-service/{id}", () => {
  it("is public and returns the record", async () => {
    const branch = await buildBranchService(app, admin);
    const response = await app.http().get(`${BASE}/${branch.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: "OK",
      data: { id: branch.id, title: branch.title },
    });
  });

  it("answers 404 for an unknown id and 400 for an id that is not a UUID", async () => {
    const missing = await app.http().get(`${BASE}/0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    const malformed = await app.http().get(`${BASE}/not-a-uuid`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ path: "id", message: expect.any(String) }]);
  });
});

describe("PUT /branch-service/{id}", () => {
  it("changes only the fields given", async () => {
    const branch = await buildBranchService(app, admin, { description: "Original description" });
    const response = await app
      .http()
      .put(`${BASE}/${branch.id}`)
      .set(auth(admin))
      .send({ title: "Renamed branch" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: "OK",
      data: { id: branch.id, title: "Renamed branch", description: "Original description" },
    });
    expect(new Date(response.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(response.body.data.createdAt).getTime(),
    );
  });

  it("replaces sections: updates by id, adds those without id, removes those left out", async () => {
    const branch = await buildBranchService(app, admin, {
      sections: [
        { title: "Keep", type: "list", items: [{ content: "old" }] },
        { title: "Drop", type: "list", items: [{ content: "gone" }] },
      ],
    });
    const [keep, drop] = branch.sections;
    const response = await app
      .http()
      .put(`${BASE}/${branch.id}`)
      .set(auth(admin))
      .send({
        sections: [
          { type: "richtext", title: "New", items: [{ content: "added" }] },
          { id: keep.id, title: "Kept", type: "list", items: [{ content: "new" }] },
        ],
      });
    expect(response.status).toBe(200);
    const sections = response.body.data.sections;
    expect(sections).toHaveLength(2);
    expect(sections[1]).toEqual({
      id: keep.id,
      title: "Kept",
      type: "list",
      items: [{ content: "new" }],
    });
    expect(sections[0]).toMatchObject({
      title: "New",
      type: "richtext",
      items: [{ content: "added" }],
    });
    expect(sections[0].id).toMatch(UUID_V7);
    expect(sections.map((s: { id: string }) => s.id)).not.toContain(drop.id);
  });

  it("refuses a section id that the branch does not have, changing nothing", async () => {
    const branch = await buildBranchService(app, admin, {
      sections: [{ type: "list", items: [] }],
    });
    const response = await app
      .http()
      .put(`${BASE}/${branch.id}`)
      .set(auth(admin))
      .send({
        title: "Should not apply",
        sections: [{ id: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b", type: "list", items: [] }],
      });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "sections.0.id", message: expect.any(String) }]);
    const stored = await app.http().get(`${BASE}/${branch.id}`);
    expect(stored.body.data.title).toBe(branch.title);
    expect(stored.body.data.sections.map((s: { id: string }) => s.id)).toEqual(
      branch.sections.map((s) => s.id),
    );
  });

  it("answers 409 when the new title is taken, 404 for an unknown id, 403 for a member", async () => {
    const first = await buildBranchService(app, admin);
    const second = await buildBranchService(app, admin);
    const taken = await app
      .http()
      .put(`${BASE}/${second.id}`)
      .set(auth(admin))
      .send({ title: first.title.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("CONFLICT");
    const missing = await app
      .http()
      .put(`${BASE}/0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b`)
      .set(auth(admin))
      .send({ title: "x" });
    expect(missing.status).toBe(404);
    const forbidden = await app
      .http()
      .put(`${BASE}/${first.id}`)
      .set(auth(member))
      .send({ title: "hijacked" });
    expect(forbidden.status).toBe(403);
    expect((await app.http().get(`${BASE}/${first.id}`)).body.data.title).toBe(first.title);
  });

  it("answers 400 with the field path for a bad section in an update", async () => {
    const branch = await buildBranchService(app, admin);
    const response = await app
      .http()
      .put(`${BASE}/${branch.id}`)
      .set(auth(admin))
      .send({ sections: [{ type: "list", items: [{ content: 7 }] }] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "sections.0.items.0.content", message: expect.any(String) },
    ]);
  });
});

describe("DELETE /branch-service/{id}", () => {
  it("deletes with 204 and no body; the branch is gone afterwards", async () => {
    const branch = await buildBranchService(app, admin);
    const response = await app.http().delete(`${BASE}/${branch.id}`).set(auth(admin));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.headers["content-type"]).toBeUndefined();
    expect((await app.http().get(`${BASE}/${branch.id}`)).status).toBe(404);
  });

  it("answers 404 for an unknown id, 401 anonymously and 403 for a member", async () => {
    const branch = await buildBranchService(app, admin);
    expect(
      (await app.http().delete(`${BASE}/0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b`).set(auth(admin)))
        .status,
    ).toBe(404);
    expect((await app.http().delete(`${BASE}/${branch.id}`)).status).toBe(401);
    expect((await app.http().delete(`${BASE}/${branch.id}`).set(auth(member))).status).toBe(403);
    expect((await app.http().get(`${BASE}/${branch.id}`)).status).toBe(200);
  });
});
