/**
 * Accounts and sessions behind access tokens are cached per process
 * (src/modules/auth/access-cache.ts). Two instances on one database: whatever one of them
 * changes about an account or a session, the other honours on the very next request.
 */
import jwt from "jsonwebtoken";
import { generate } from "otplib";
import { AccessCache } from "../../src/modules/auth/access-cache";
import {
  applyAs,
  bearer,
  buildAdmin,
  buildUser,
  login,
  TEST_PASSWORD,
  verifyEmailOf,
} from "../support/factories";
import { resetTokenIn } from "../support/mailbox";
import { startTwoInstances, type TestApp } from "../support/test-app";

let first: TestApp;
let second: TestApp;
let closeBoth: () => Promise<void>;

beforeAll(async () => {
  ({ first, second, closeBoth } = await startTwoInstances());
});
afterAll(() => closeBoth());

const currentUser = (app: TestApp, user: { token: string }) =>
  app.http().get("/api/v1/users/current").set(bearer(user));

/** Signed in on both instances' caches: each has answered a request with the token. */
async function warmBoth(user: { token: string }): Promise<void> {
  expect((await currentUser(first, user)).status).toBe(200);
  expect((await currentUser(second, user)).status).toBe(200);
}

function expectRefused(response: { status: number; body: { code?: string } }): void {
  expect(response.status).toBe(401);
  expect(response.body.code).toBe("UNAUTHENTICATED");
}

test("a logout on one instance is refused on the other at once", async () => {
  const user = await buildUser(first);
  await warmBoth(user);
  expect((await first.http().delete("/api/v1/auth/logout").set(bearer(user))).status).toBe(200);
  expectRefused(await currentUser(second, user));
  expectRefused(await currentUser(first, user));
});

test("a profile change on one instance is what the other returns next", async () => {
  const user = await buildUser(first);
  await warmBoth(user);
  const renamed = await first
    .http()
    .put("/api/v1/users/current")
    .set(bearer(user))
    .send({ name: "Renamed Everywhere" });
  expect(renamed.status).toBe(200);
  expect((await currentUser(second, user)).body.user.name).toBe("Renamed Everywhere");
});

test("an email verified through one instance lets the other accept an application", async () => {
  const user = await buildUser(first, { verified: false });
  await warmBoth(user);
  expect((await currentUser(second, user)).body.user.isEmailVerified).toBe(false);
  await verifyEmailOf(first, user.email);
  expect((await currentUser(second, user)).body.user.isEmailVerified).toBe(true);
  expect((await applyAs(second, user)).status).toBe("PENDING");
});

test("MFA set up through one instance is enabled through the other", async () => {
  const user = await buildUser(first);
  await warmBoth(user);
  const setup = await first.http().post("/api/v1/auth/mfa/setup").set(bearer(user)).send({});
  expect(setup.status).toBe(200);
  const code = await generate({ secret: setup.body.secret as string });
  const enabled = await second
    .http()
    .post("/api/v1/auth/mfa/enable")
    .set(bearer(user))
    .send({ code });
  expect(enabled.status).toBe(200);
  expect((await currentUser(first, user)).body.user.mfaEnabled).toBe(true);
});

test("an account deleted through one instance is refused on the other", async () => {
  const admin = await buildAdmin(first);
  const user = await buildUser(first);
  await warmBoth(user);
  const deleted = await first.http().delete(`/api/v1/users/${user.id}`).set(bearer(admin));
  expect(deleted.status).toBe(204);
  expectRefused(await currentUser(second, user));
});

test("a password reset through one instance ends the sessions the other had cached", async () => {
  const user = await buildUser(first);
  const otherSession = await login(second, user.email, TEST_PASSWORD);
  await warmBoth(user);
  await warmBoth(otherSession);
  const after = first.mail.messages.length;
  await first.http().post("/api/v1/auth/forgot-password").send({ email: user.email });
  const token = resetTokenIn(
    await first.mail.waitFor(user.email, { subject: /reset your password/i, after }),
  );
  const password = "Another#Pass9";
  const reset = await first
    .http()
    .post(`/api/v1/auth/reset-password?token=${encodeURIComponent(token)}`)
    .send({ password, confirmPassword: password });
  expect(reset.status).toBe(200);
  expectRefused(await currentUser(second, user));
  expectRefused(await currentUser(second, otherSession));
  expect((await login(second, user.email, password)).token).toEqual(expect.any(String));
});

describe("changes made outside the service", () => {
  test("are seen once the cached copy is older than its time to live", async () => {
    const user = await buildUser(first);
    const cache = new AccessCache(
      first.services.connection,
      first.services.models.users,
      first.services.models.sessions,
      { ttlMs: 200 },
    );
    const { sid } = jwt.decode(user.token) as { sid: string };
    expect((await cache.lookup(user.id, sid)).user?.name).toBe("Test User");
    // An operator's edit straight in the database announces nothing on the feed.
    await first.services.models.users.updateOne({ _id: user.id }, { $set: { name: "Edited" } });
    expect((await cache.lookup(user.id, sid)).user?.name).toBe("Test User");
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await cache.lookup(user.id, sid)).user?.name).toBe("Edited");
    // The service's own write is seen at once, whatever the time to live.
    const renamed = await second
      .http()
      .put("/api/v1/users/current")
      .set(bearer(user))
      .send({ name: "Renamed" });
    expect(renamed.status).toBe(200);
    expect((await cache.lookup(user.id, sid)).user?.name).toBe("Renamed");
  });
});
