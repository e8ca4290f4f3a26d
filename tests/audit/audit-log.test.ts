/**
 * Issue 8, audit log: every administrative act and every act on members' personal data appends
 * an entry (actor, action, target, time, request id; ids only), listed by GET /audit-logs for
 * administrators with paging and filters.
 */
import { randomBytes } from "node:crypto";
import { buildAppSchema } from "../../src/graphql/schema";
import {
  applyAs,
  approvedMemberOf,
  bearer,
  buildUser,
  minimalApplication,
  TEST_PASSWORD,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";
import type { AuditEntry } from "../support/audit-entries";

const API = "/api/v1";
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

const requestId = () => `audit-${randomBytes(6).toString("hex")}`;

/**
 * Sends `request` as `as` with a fresh x-request-id of the client's; returns the response and
 * the two ids: the service's own (its x-request-id answer) and the client's.
 */
async function act(
  method: "post" | "put" | "patch" | "delete",
  path: string,
  as: TestUser,
  body?: object,
) {
  const id = requestId();
  const response = await app
    .http()
    [method](`${API}${path}`)
    .set(bearer(as))
    .set("x-request-id", id)
    .send(body);
  return {
    response,
    requestId: { server: response.headers["x-request-id"], client: id },
  };
}

async function auditLogs(query: Record<string, string | number> = {}, as: TestUser = admin) {
  const response = await app.http().get(`${API}/audit-logs`).query(query).set(bearer(as));
  return response;
}

async function entriesFor(targetId: string): Promise<AuditEntry[]> {
  const response = await auditLogs({ targetId, limit: 100 });
  expect(response.status).toBe(200);
  return response.body.data as AuditEntry[];
}

interface RequestIds {
  server: string;
  client: string;
}

/** Exactly one entry for the target: this action, by `actor`, in the request `ids`. */
async function expectOneEntry(targetId: string, action: string, actor: TestUser, ids: RequestIds) {
  const entries = (await entriesFor(targetId)).filter((entry) => entry.action === action);
  expect(entries).toEqual([
    {
      id: expect.any(String),
      at: expect.any(String),
      actorId: actor.id,
      actorRole: actor.role,
      action,
      targetType: expect.any(String),
      targetId,
      requestId: ids.server,
      clientRequestId: ids.client,
    },
  ]);
}

it("has a decision (@Audit or @NotAudited, with its reason) on every root field", async () => {
  const schema = await buildAppSchema();
  const fields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
    Object.values(root.getFields()),
  );
  for (const field of fields) {
    const decision = field.extensions.audit as { action?: unknown; notAudited?: string };
    expect([field.name, Boolean(decision?.action ?? decision?.notAudited)]).toEqual([
      field.name,
      true,
    ]);
  }
});

it("records branch-of-service and office changes and appointments", async () => {
  const branch = await act("post", "/branch-service/create", admin, {
    title: `Audited branch ${randomBytes(3).toString("hex")}`,
    description: "Serves",
  });
  expect(branch.response.status).toBe(201);
  const branchId = branch.response.body.data.id as string;
  await expectOneEntry(branchId, "branch.create", admin, branch.requestId);
  const renamed = await act("put", `/branch-service/${branchId}`, admin, { description: "Again" });
  await expectOneEntry(branchId, "branch.update", admin, renamed.requestId);
  const removed = await act("delete", `/branch-service/${branchId}`, admin);
  expect(removed.response.status).toBe(204);
  await expectOneEntry(branchId, "branch.delete", admin, removed.requestId);

  const office = await act("post", "/offices/create", admin, {
    name: `Audited office ${randomBytes(3).toString("hex")}`,
    level: "CITY_CHAPLAIN",
  });
  const officeId = office.response.body.data.id as string;
  await expectOneEntry(officeId, "office.create", admin, office.requestId);
  const updated = await act("put", `/offices/${officeId}`, admin, { maxSlots: 2 });
  await expectOneEntry(officeId, "office.update", admin, updated.requestId);
  const member = await approvedMemberOf(app, admin);
  const appointed = await act("post", `/offices/${officeId}/holders`, admin, {
    memberId: member.id,
    startDate: "2024-01-01T00:00:00.000Z",
  });
  expect(appointed.response.status).toBe(201);
  const holderId = appointed.response.body.data.id as string;
  await expectOneEntry(holderId, "office.appoint", admin, appointed.requestId);
  const ended = await act("patch", `/offices/${officeId}/holders/${holderId}/end`, admin);
  await expectOneEntry(holderId, "office.end", admin, ended.requestId);
  const deleted = await act("delete", `/offices/${officeId}`, admin);
  expect(deleted.response.status).toBe(204);
  await expectOneEntry(officeId, "office.delete", admin, deleted.requestId);
});

it("records an application and each review act on it", async () => {
  const applicant = await buildUser(app);
  const applied = await act("post", "/members/apply", applicant, minimalApplication());
  expect(applied.response.status).toBe(201);
  const memberId = applied.response.body.data.id as string;
  await expectOneEntry(memberId, "member.apply", applicant, applied.requestId);
  const decided = await act("patch", `/members/${memberId}/status`, admin, { status: "REJECTED" });
  await expectOneEntry(memberId, "member.status", admin, decided.requestId);
  const archived = await act("patch", `/members/${memberId}/archive`, admin);
  await expectOneEntry(memberId, "member.archive", admin, archived.requestId);
  const retrieved = await act("patch", `/members/${memberId}/retrieve`, admin);
  await expectOneEntry(memberId, "member.retrieve", admin, retrieved.requestId);
});

it("records nothing for an act that failed", async () => {
  const applicant = await buildUser(app);
  const record = await applyAs(app, applicant);
  const refused = await act("patch", `/members/${record.id}/status`, admin, { status: "PENDING" });
  expect(refused.response.status).toBe(409);
  expect((await entriesFor(record.id)).map((entry) => entry.action)).toEqual(["member.apply"]);
});

it("records account deletions, by an administrator and by the person, and accounts an administrator creates", async () => {
  const erased = await buildUser(app);
  const byAdmin = await act("delete", `/users/${erased.id}`, admin);
  expect(byAdmin.response.status).toBe(204);
  await expectOneEntry(erased.id, "user.delete", admin, byAdmin.requestId);

  const leaving = await buildUser(app);
  const bySelf = await act("delete", "/users/current", leaving);
  expect(bySelf.response.status).toBe(204);
  await expectOneEntry(leaving.id, "user.delete", leaving, bySelf.requestId);

  const created = await act("post", "/auth/register", admin, {
    name: "New Officer",
    email: uniqueEmail("officer"),
    password: TEST_PASSWORD,
    role: "OFFICER",
  });
  expect(created.response.status).toBe(200);
  await expectOneEntry(
    created.response.body.user.id as string,
    "user.create",
    admin,
    created.requestId,
  );
});

it("records an administrator's export of one person's data, and not the person's own", async () => {
  const person = await buildUser(app);
  await applyAs(app, person);
  const id = requestId();
  const byAdmin = await app
    .http()
    .get(`${API}/users/${person.id}/export`)
    .set(bearer(admin))
    .set("x-request-id", id);
  expect(byAdmin.status).toBe(200);
  await expectOneEntry(person.id, "user.export", admin, {
    server: byAdmin.headers["x-request-id"],
    client: id,
  });
  const own = await app.http().get(`${API}/users/current/export`).set(bearer(person));
  expect(own.status).toBe(200);
  expect(
    (await entriesFor(person.id)).filter((entry) => entry.action === "user.export"),
  ).toHaveLength(1);
});

it("records no self-service steps and keeps no personal data in any entry", async () => {
  const name = `Private Person ${randomBytes(3).toString("hex")}`;
  const person = await buildUser(app, { name });
  const own = await auditLogs({ actorId: person.id });
  expect(own.body.pagination.totalCount).toBe(0);
  await applyAs(app, person, { lastName: "Confidential", sssNumber: "34-1111111-1" });

  const everything = await auditLogs({ limit: 100 });
  const text = JSON.stringify(everything.body.data);
  for (const secret of [name, person.email, "Confidential", "34-1111111-1", "Maria"]) {
    expect(text).not.toContain(secret);
  }
});

describe("GET /audit-logs", () => {
  it("lists newest first with paging, and filters by actor, action and time", async () => {
    const first = await auditLogs({ limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: "OK", pagination: { currentPage: 1, limit: 2 } });
    const [newer, older] = first.body.data as AuditEntry[];
    expect(Date.parse(newer.at)).toBeGreaterThanOrEqual(Date.parse(older.at));
    const second = await auditLogs({ limit: 2, page: 2 });
    expect((second.body.data as AuditEntry[]).map((e) => e.id)).not.toContain(newer.id);

    const byAdmin = (await auditLogs({ actorId: admin.id, limit: 100 })).body.data as AuditEntry[];
    expect(byAdmin.length).toBeGreaterThan(5);
    expect(byAdmin.every((entry) => entry.actorId === admin.id)).toBe(true);
    const deletions = (await auditLogs({ action: "user.delete", limit: 100 })).body
      .data as AuditEntry[];
    expect(deletions.length).toBe(2);

    const from = new Date(Date.now() - 60_000).toISOString();
    const recent = await auditLogs({ from, limit: 100 });
    expect(recent.body.pagination.totalCount).toBeGreaterThan(0);
    const future = await auditLogs({ from: new Date(Date.now() + 60_000).toISOString() });
    expect(future.body.pagination.totalCount).toBe(0);
    const before = await auditLogs({ to: from });
    expect(before.body.pagination.totalCount).toBe(0);
  });

  it("refuses bad filters with 400 and non-administrators with 403", async () => {
    const backwards = await auditLogs({
      from: new Date().toISOString(),
      to: new Date(Date.now() - 1000).toISOString(),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await auditLogs({ action: "drop table" })).status).toBe(400);
    expect((await auditLogs({ actorId: "not-a-uuid" })).status).toBe(400);
    const member = await buildUser(app);
    expect((await auditLogs({}, member)).status).toBe(403);
  });
});
