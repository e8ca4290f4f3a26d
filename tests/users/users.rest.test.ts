import { PUBLIC_USER_KEYS, SECRET_MARKERS, UNKNOWN_ID } from "../support/expectations";
import type supertest from "supertest";
import { Role } from "../../src/modules/users/role";
import {
  TEST_PASSWORD,
  bearer,
  buildAdmin,
  buildUser,
  login,
  loginBootstrapAdmin,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import { BOOTSTRAP_ADMIN, startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CURRENT = "/api/v1/users/current";
const USERS = "/api/v1/users";

let app: TestApp;
let admin: TestUser;
let member: TestUser;
let officer: TestUser;

/** Every response body this file received, checked for secrets at the end. */
const bodies: string[] = [];

/** A request whose response body is recorded for the final secrets check. */
function api(target: TestApp = app) {
  const track = (test: supertest.Test) =>
    test.on("response", (response: { text?: string }) => bodies.push(response.text ?? ""));
  return {
    get: (path: string) => track(target.http().get(path)),
    put: (path: string) => track(target.http().put(path)),
    delete: (path: string) => track(target.http().delete(path)),
    post: (path: string) => track(target.http().post(path)),
  };
}

const storedUser = (id: string, target: TestApp = app) => rawDb(target).users.findById(id).lean();
const sessionCount = (userId: string, target: TestApp = app) =>
  rawDb(target).sessions.countDocuments({ userId });

beforeAll(async () => {
  ({ app, admin, member, officer } = await startScenario({
    users: { member: { name: "Mary Member" }, officer: { role: Role.OFFICER } },
  }));
});
afterAll(() => app?.close());

/** A separate app whose only administrator is the bootstrap one. */
async function withLoneAdminApp(run: (lone: TestApp) => Promise<void>): Promise<void> {
  const lone = await startTestApp();
  try {
    await run(lone);
  } finally {
    await lone.close();
  }
}

function expectValidationError(response: supertest.Response, path: string) {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({
    code: "VALIDATION_ERROR",
    message: expect.any(String),
  });
  expect(response.body.errors).toEqual(
    expect.arrayContaining([{ path, message: expect.any(String) }]),
  );
}

describe("GET /users/current", () => {
  it("answers 200 {code, message, user} with the caller's public fields only", async () => {
    const response = await api().get(CURRENT).set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.any(Object),
    });
    const user = response.body.user;
    expect(Object.keys(user).sort()).toEqual(PUBLIC_USER_KEYS);
    expect(user).toMatchObject({
      id: member.id,
      name: "Mary Member",
      email: member.email,
      avatar: null,
      role: "MEMBER",
      isEmailVerified: true,
      mfaEnabled: false,
    });
    expect(user.id).toMatch(UUID);
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(new Date(user.updatedAt).toISOString()).toBe(user.updatedAt);
  });

  it("answers 401 UNAUTHENTICATED without a token", async () => {
    const response = await api().get(CURRENT);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  });

  it("answers 401 UNAUTHENTICATED with a garbage token", async () => {
    const response = await api().get(CURRENT).set({ authorization: "Bearer not.a.jwt" });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  });
});

describe("PUT /users/current", () => {
  let user: TestUser;
  beforeEach(async () => {
    user = await buildUser(app, { name: "Editable User" });
  });

  it("changes the name and answers {code, message, user}", async () => {
    const response = await api().put(CURRENT).set(bearer(user)).send({ name: "  Renamed User " });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.any(Object),
    });
    expect(Object.keys(response.body.user).sort()).toEqual(PUBLIC_USER_KEYS);
    expect(response.body.user).toMatchObject({
      id: user.id,
      name: "Renamed User",
      email: user.email,
    });
    expect((await storedUser(user.id))!.name).toBe("Renamed User");
  });

  it("sets an https avatar and clears it again with avatar: null", async () => {
    const url = "https://cdn.example.org/avatars/me.png";
    const set = await api().put(CURRENT).set(bearer(user)).send({ avatar: url });
    expect(set.status).toBe(200);
    expect(set.body.user.avatar).toBe(url);
    expect((await api().get(CURRENT).set(bearer(user))).body.user.avatar).toBe(url);

    const cleared = await api().put(CURRENT).set(bearer(user)).send({ avatar: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.avatar).toBeNull();
    expect((await api().get(CURRENT).set(bearer(user))).body.user.avatar).toBeNull();
    expect((await storedUser(user.id))!.avatar).toBeNull();
  });

  it("leaves the avatar alone when the field is not sent", async () => {
    const url = "https://cdn.example.org/avatars/keep.png";
    await api().put(CURRENT).set(bearer(user)).send({ avatar: url });
    const response = await api().put(CURRENT).set(bearer(user)).send({ name: "Still Has Avatar" });
    expect(response.status).toBe(200);
    expect(response.body.user.avatar).toBe(url);
  });

  it.each([
    ["an avatar that is not a URL", { avatar: "not a url" }, "avatar"],
    ["an avatar with another protocol", { avatar: "ftp://example.org/a.png" }, "avatar"],
    ["a blank name", { name: "   " }, "name"],
    ["an empty name", { name: "" }, "name"],
    ["a malformed email", { email: "not-an-email" }, "email"],
  ])("answers 400 VALIDATION_ERROR on %s and changes nothing", async (_case, body, path) => {
    const before = await storedUser(user.id);
    const response = await api().put(CURRENT).set(bearer(user)).send(body);
    expectValidationError(response, path);
    expect(await storedUser(user.id)).toEqual(before);
  });

  it("stores a new email normalised, unverified, and mails a code to the new address that verifies it", async () => {
    const local = `moved-${user.id.slice(-8)}`;
    const mailsBefore = app.mail.messages.length;
    const response = await api()
      .put(CURRENT)
      .set(bearer(user))
      .send({ email: `  ${local.toUpperCase()}@Example.ORG ` });
    expect(response.status).toBe(200);
    const newEmail = `${local}@example.org`;
    expect(response.body.user).toMatchObject({ email: newEmail, isEmailVerified: false });
    expect(await storedUser(user.id)).toMatchObject({ email: newEmail, isEmailVerified: false });

    const mail = await app.mail.waitFor(newEmail, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    const verified = await api()
      .post("/api/v1/auth/verify-email")
      .send({ code: verificationCodeIn(mail) });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({
      id: user.id,
      email: newEmail,
      isEmailVerified: true,
    });
    expect((await api().get(CURRENT).set(bearer(user))).body.user.isEmailVerified).toBe(true);

    // The account signs in with its new address.
    await login(app, newEmail, TEST_PASSWORD);
  });

  it("answers 409 CONFLICT for an email another account uses (any case) and changes nothing", async () => {
    const before = await storedUser(user.id);
    const response = await api()
      .put(CURRENT)
      .set(bearer(user))
      .send({ name: "Should Not Stick", email: ` ${member.email.toUpperCase()} ` });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
    expect(await storedUser(user.id)).toEqual(before);
    expect((await storedUser(member.id))!.email).toBe(member.email);
  });

  it("keeps the verification when the email sent is the caller's own", async () => {
    const response = await api()
      .put(CURRENT)
      .set(bearer(user))
      .send({ email: user.email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email: user.email, isEmailVerified: true });
    const stored = await storedUser(user.id);
    expect(stored).toMatchObject({ email: user.email, isEmailVerified: true });
    // No new verification code was issued.
    expect(stored!.verificationCodeHash).toBeNull();
  });

  it("ignores unknown and server-owned fields: no role escalation, no verification or hash injection", async () => {
    const unverified = await buildUser(app, { verified: false });
    const before = await storedUser(unverified.id);
    const response = await api().put(CURRENT).set(bearer(unverified)).send({
      name: "Sneaky",
      role: "ADMIN",
      isEmailVerified: true,
      passwordHash: "$2a$04$attackerattackerattackerattackerattackerattackerattac",
      mfaEnabled: true,
      id: UNKNOWN_ID,
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      id: unverified.id,
      name: "Sneaky",
      role: "MEMBER",
      isEmailVerified: false,
      mfaEnabled: false,
    });
    const stored = await storedUser(unverified.id);
    expect(stored).toMatchObject({ role: "MEMBER", isEmailVerified: false, mfaEnabled: false });
    expect(stored!.passwordHash).toBe(before!.passwordHash);
    expect(stored).not.toHaveProperty("id");
    // Still a member: an admin-only route stays closed.
    expect((await api().get(USERS).set(bearer(unverified))).status).toBe(403);
  });

  it("answers 401 without a token", async () => {
    const response = await api().put(CURRENT).send({ name: "Nobody" });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("DELETE /users/current", () => {
  it("answers 204 with no body, erases the account and its sessions, and refuses its token", async () => {
    const leaving = await buildUser(app);
    await login(app, leaving.email, TEST_PASSWORD); // a second session
    expect(await sessionCount(leaving.id)).toBeGreaterThanOrEqual(2);

    const response = await api().delete(CURRENT).set(bearer(leaving));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.body).toEqual({});

    expect(await storedUser(leaving.id)).toBeNull();
    expect(await sessionCount(leaving.id)).toBe(0);
    const again = await api().get(CURRENT).set(bearer(leaving));
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("UNAUTHENTICATED");
    const signIn = await api()
      .post("/api/v1/auth/login")
      .send({ email: leaving.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(401);
    expect(signIn.body.code).toBe("INVALID_CREDENTIALS");
  });

  it("lets an administrator delete itself while another administrator remains", async () => {
    const leavingAdmin = await buildAdmin(app);
    const response = await api().delete(CURRENT).set(bearer(leavingAdmin));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await storedUser(leavingAdmin.id)).toBeNull();
    expect(await sessionCount(leavingAdmin.id)).toBe(0);
  });

  it("answers 401 without a token", async () => {
    const response = await api().delete(CURRENT);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("the last administrator", () => {
  it("cannot delete itself through DELETE /users/current (409) and still exists", async () => {
    await withLoneAdminApp(async (lone) => {
      const root = await loginBootstrapAdmin(lone);
      const me = (await api(lone).get(CURRENT).set(bearer(root))).body.user;
      const response = await api(lone).delete(CURRENT).set(bearer(root));
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
      expect(await storedUser(me.id, lone)).toMatchObject({ role: "ADMIN", deletingSince: null });
      expect(await sessionCount(me.id, lone)).toBeGreaterThan(0);
      // Still fully usable: the token works and the account is listed.
      expect((await api(lone).get(CURRENT).set(bearer(root))).status).toBe(200);
      expect((await api(lone).get(`${USERS}/${me.id}`).set(bearer(root))).status).toBe(200);
      await login(lone, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    });
  });

  it("cannot delete itself through DELETE /users/{userId} (409) and still exists", async () => {
    await withLoneAdminApp(async (lone) => {
      const root = await loginBootstrapAdmin(lone);
      const me = (await api(lone).get(CURRENT).set(bearer(root))).body.user;
      const response = await api(lone).delete(`${USERS}/${me.id}`).set(bearer(root));
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
      expect(await storedUser(me.id, lone)).toMatchObject({ role: "ADMIN", deletingSince: null });
      expect((await api(lone).get(`${USERS}/${me.id}`).set(bearer(root))).status).toBe(200);
    });
  });

  it("may leave once a second administrator exists, who then becomes the last one", async () => {
    await withLoneAdminApp(async (lone) => {
      const root = await loginBootstrapAdmin(lone);
      const second = await buildAdmin(lone);
      const leaving = await api(lone).delete(CURRENT).set(bearer(root));
      expect(leaving.status).toBe(204);
      expect(
        await rawDb(lone).users.countDocuments({ deletingSince: null, role: Role.ADMIN }),
      ).toBe(1);

      const refused = await api(lone).delete(CURRENT).set(bearer(second));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("CONFLICT");
      expect(await storedUser(second.id, lone)).toMatchObject({ role: "ADMIN" });
    });
  });
});

describe("GET /users (admin)", () => {
  const registered: string[] = [];

  beforeAll(async () => {
    // Enough accounts for more than one default page (20), registered oldest to newest.
    for (let i = 0; i < 22; i += 1) {
      const response = await app
        .http()
        .post("/api/v1/auth/register")
        .send({ name: `Listed ${i}`, email: uniqueEmail("listed"), password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      registered.push(response.body.user.id as string);
    }
  });

  const totalUsers = () => rawDb(app).users.estimatedDocumentCount();

  it("answers the list envelope with defaults limit 20, offset 0, newest first", async () => {
    const total = await totalUsers();
    expect(total).toBeGreaterThan(20);
    const response = await api().get(USERS).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        "code",
        "currentPage",
        "hasMore",
        "limit",
        "message",
        "offset",
        "total",
        "totalPages",
        "users",
      ].sort(),
    );
    expect(response.body).toMatchObject({
      code: "OK",
      message: expect.any(String),
      total,
      limit: 20,
      offset: 0,
      totalPages: Math.ceil(total / 20),
      currentPage: 1,
      hasMore: true,
    });
    const users = response.body.users as { id: string; createdAt: string }[];
    expect(users).toHaveLength(20);
    for (const user of users) expect(Object.keys(user).sort()).toEqual(PUBLIC_USER_KEYS);
    // Newest first: the accounts registered last come first, in reverse order.
    expect(users.slice(0, 5).map((user) => user.id)).toEqual(registered.slice(-5).reverse());
    const times = users.map((user) => Date.parse(user.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages with limit and offset: currentPage, hasMore and totalPages follow", async () => {
    const total = await totalUsers();
    const all = (await api().get(`${USERS}?limit=100`).set(bearer(admin))).body.users as {
      id: string;
    }[];
    expect(all).toHaveLength(total);

    const page = await api().get(`${USERS}?limit=2&offset=2`).set(bearer(admin));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      total,
      limit: 2,
      offset: 2,
      currentPage: 2,
      totalPages: Math.ceil(total / 2),
      hasMore: true,
    });
    expect(page.body.users.map((user: { id: string }) => user.id)).toEqual(
      all.slice(2, 4).map((user) => user.id),
    );

    const unaligned = await api().get(`${USERS}?limit=2&offset=3`).set(bearer(admin));
    expect(unaligned.body).toMatchObject({ currentPage: 2, hasMore: true });

    const last = await api()
      .get(`${USERS}?limit=2&offset=${total - 1}`)
      .set(bearer(admin));
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({
      total,
      currentPage: Math.floor((total - 1) / 2) + 1,
      hasMore: false,
    });
    expect(last.body.users.map((user: { id: string }) => user.id)).toEqual([all[total - 1].id]);
  });

  it("answers 200 with no users for an offset past the end", async () => {
    const total = await totalUsers();
    const response = await api()
      .get(`${USERS}?limit=10&offset=${total + 5}`)
      .set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: "OK",
      total,
      limit: 10,
      offset: total + 5,
      totalPages: Math.ceil(total / 10),
      currentPage: Math.floor((total + 5) / 10) + 1,
      hasMore: false,
      users: [],
    });
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["offset=-1", "offset"],
    ["limit=abc", "limit"],
    ["offset=abc", "offset"],
  ])("answers 400 VALIDATION_ERROR for %s", async (query, path) => {
    const response = await api().get(`${USERS}?${query}`).set(bearer(admin));
    expectValidationError(response, path);
  });

  it("is for administrators: 401 anonymous, 403 for a MEMBER and an OFFICER", async () => {
    const anonymous = await api().get(USERS);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHENTICATED");
    for (const caller of [member, officer]) {
      const response = await api().get(USERS).set(bearer(caller));
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) });
    }
  });
});

describe("GET /users/{userId} (admin)", () => {
  it("answers 200 {code, message, user} with the account's public fields", async () => {
    const response = await api().get(`${USERS}/${member.id}`).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.any(Object),
    });
    expect(Object.keys(response.body.user).sort()).toEqual(PUBLIC_USER_KEYS);
    expect(response.body.user).toMatchObject({
      id: member.id,
      email: member.email,
      role: "MEMBER",
    });
  });

  it("answers 404 NOT_FOUND for an unknown id", async () => {
    const response = await api().get(`${USERS}/${UNKNOWN_ID}`).set(bearer(admin));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "NOT_FOUND", message: expect.any(String) });
  });

  it("answers 400 for an id that is not a UUID", async () => {
    const response = await api().get(`${USERS}/not-a-uuid`).set(bearer(admin));
    expectValidationError(response, "userId");
  });

  it("is for administrators: 401 anonymous, 403 for a MEMBER", async () => {
    expect((await api().get(`${USERS}/${member.id}`)).status).toBe(401);
    const response = await api().get(`${USERS}/${admin.id}`).set(bearer(member));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("FORBIDDEN");
  });
});

describe("DELETE /users/{userId} (admin)", () => {
  it("answers 204 with no body, erases the account and its sessions, and refuses its token", async () => {
    const target = await buildUser(app);
    await login(app, target.email, TEST_PASSWORD);
    expect(await sessionCount(target.id)).toBeGreaterThanOrEqual(2);

    const response = await api().delete(`${USERS}/${target.id}`).set(bearer(admin));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.body).toEqual({});

    expect(await storedUser(target.id)).toBeNull();
    expect(await sessionCount(target.id)).toBe(0);
    const refused = await api().get(CURRENT).set(bearer(target));
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHENTICATED");
    expect((await api().get(`${USERS}/${target.id}`).set(bearer(admin))).status).toBe(404);
    // The deleting administrator's own session is untouched.
    expect((await api().get(CURRENT).set(bearer(admin))).status).toBe(200);
  });

  it("deletes another administrator while administrators remain", async () => {
    const other = await buildAdmin(app);
    const response = await api().delete(`${USERS}/${other.id}`).set(bearer(admin));
    expect(response.status).toBe(204);
    expect(await storedUser(other.id)).toBeNull();
  });

  it("answers 404 NOT_FOUND for an unknown id", async () => {
    const before = await rawDb(app).users.estimatedDocumentCount();
    const response = await api().delete(`${USERS}/${UNKNOWN_ID}`).set(bearer(admin));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "NOT_FOUND", message: expect.any(String) });
    expect(await rawDb(app).users.estimatedDocumentCount()).toBe(before);
  });

  it("answers 400 for an id that is not a UUID", async () => {
    const response = await api().delete(`${USERS}/not-a-uuid`).set(bearer(admin));
    expectValidationError(response, "userId");
  });

  it("is for administrators: 401 anonymous, 403 for a MEMBER, and the target survives", async () => {
    const target = await buildUser(app);
    expect((await api().delete(`${USERS}/${target.id}`)).status).toBe(401);
    const response = await api().delete(`${USERS}/${target.id}`).set(bearer(member));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("FORBIDDEN");
    expect(await storedUser(target.id)).not.toBeNull();
    expect(await sessionCount(target.id)).toBeGreaterThan(0);
  });
});

describe("secrets", () => {
  it("never appear in any response body of this file", () => {
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) {
      for (const marker of SECRET_MARKERS) expect(body).not.toContain(marker);
    }
  });
});
