/**
 * Issue 8, subject access: GET /users/current/export gives the caller everything the service
 * holds about them as one JSON document; an administrator gets the same for an account.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  approvedMemberOf,
  bearer,
  login,
  TEST_PASSWORD,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

const API = "/api/v1";
let app: TestApp;
let admin: TestUser;
let person: { user: TestUser; id: string; name: string };
let holderId: string;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
  person = await approvedMemberOf(app, admin, { sssNumber: "34-2222222-2", tinNumber: null });
  await login(app, person.user.email, TEST_PASSWORD);
  const office = await app
    .http()
    .post(`${API}/offices/create`)
    .set(bearer(admin))
    .send({ name: "Export Chaplain", level: "CITY_CHAPLAIN" });
  const appointed = await app
    .http()
    .post(`${API}/offices/${office.body.data.id}/holders`)
    .set(bearer(admin))
    .send({ memberId: person.id, startDate: "2024-01-01T00:00:00.000Z" });
  holderId = appointed.body.data.id as string;
});
afterAll(() => app?.close());

function expectCompleteExport(body: Record<string, unknown>) {
  expect(body).toMatchObject({ code: "OK", data: { exportedAt: expect.any(String) } });
  type Listed = { id: string; action: string; to: string };
  const data = (
    body as {
      data: {
        account: unknown;
        sessions: unknown[];
        memberships: (Record<string, unknown> & { statusHistory: Listed[] })[];
        appointments: unknown[];
        auditEntries: Listed[];
      };
    }
  ).data;
  expect(data.account).toMatchObject({ id: person.user.id, email: person.user.email });
  // Registration, the factory's sign-in and ours: every session, none with a token.
  expect(data.sessions.length).toBeGreaterThanOrEqual(2);
  expect(data.sessions[0]).toEqual({
    id: expect.any(String),
    // What the sign-in sent: supertest sends no User-Agent.
    userAgent: null,
    ip: expect.any(String),
    createdAt: expect.any(String),
    lastUsedAt: expect.any(String),
    expiresAt: expect.any(String),
    revokedAt: null,
    revokedReason: null,
  });
  expect(data.memberships).toHaveLength(1);
  expect(data.memberships[0]).toMatchObject({
    id: person.id,
    status: "APPROVED",
    sssNumber: "34-2222222-2",
  });
  expect(data.memberships[0].statusHistory.map((change) => change.to)).toEqual([
    "PENDING",
    "APPROVED",
  ]);
  expect(data.appointments).toEqual([
    expect.objectContaining({
      id: holderId,
      office: expect.objectContaining({ name: "Export Chaplain" }),
    }),
  ]);
  const actions = data.auditEntries.map((entry) => entry.action);
  expect(actions).toEqual(
    expect.arrayContaining(["member.apply", "member.status", "office.appoint"]),
  );
  const text = JSON.stringify(body);
  for (const secret of [
    "passwordHash",
    "refreshTokenHash",
    "retiredTokenHashes",
    "mfaSecret",
    "$2a$",
    "$2b$",
    "enc:1:",
  ]) {
    expect(text).not.toContain(secret);
  }
}

it("gives the caller their account, sessions, applications with history, appointments and audit entries", async () => {
  const response = await app.http().get(`${API}/users/current/export`).set(bearer(person.user));
  expect(response.status).toBe(200);
  expectCompleteExport(response.body);
});

it("gives an administrator the same document for the account, and 404 for an unknown one", async () => {
  const response = await app.http().get(`${API}/users/${person.user.id}/export`).set(bearer(admin));
  expect(response.status).toBe(200);
  expectCompleteExport(response.body);
  const unknown = await app.http().get(`${API}/users/${randomUUID()}/export`).set(bearer(admin));
  expect(unknown.status).toBe(404);
  const other = await app.http().get(`${API}/users/${admin.id}/export`).set(bearer(person.user));
  expect(other.status).toBe(403);
});

it("lists the addresses the account had before, while the service keeps mail to them", async () => {
  // No SMTP: mail is kept in DATA_DIR/outbox, and with it the account's former addresses.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "export-former-"));
  const own = await startTestApp({ SMTP_URL: "", DATA_DIR: dataDir });
  try {
    const first = `first-${randomUUID()}@example.org`;
    const second = `second-${randomUUID()}@example.org`;
    const registered = await own
      .http()
      .post(`${API}/auth/register`)
      .send({ name: "Former Addresses", email: first, password: TEST_PASSWORD });
    expect(registered.status).toBe(200);
    const token = registered.body.accessToken as string;
    const changed = await own
      .http()
      .put(`${API}/users/current`)
      .set(bearer({ token }))
      .send({ email: second });
    expect(changed.status).toBe(200);

    const exported = await own.http().get(`${API}/users/current/export`).set(bearer({ token }));
    expect(exported.status).toBe(200);
    expect(exported.body.data.account.email).toBe(second);
    expect(exported.body.data.formerEmails).toEqual([first]);
  } finally {
    await own.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it("is the same through /graphql", async () => {
  const response = await app.http().post("/graphql").set(bearer(person.user)).send({
    query:
      "{ currentUserExport { data { account { id } memberships { id sssNumber } appointments { id } } } }",
  });
  expect(response.status).toBe(200);
  expect(response.body.data.currentUserExport.data).toEqual({
    account: { id: person.user.id },
    memberships: [{ id: person.id, sssNumber: "34-2222222-2" }],
    appointments: [{ id: holderId }],
  });
});
