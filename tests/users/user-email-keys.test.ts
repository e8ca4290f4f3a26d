/**
 * Accounts are found by email through key documents (src/modules/users/user-email-keys.ts).
 * Every path that changes an email or an account keeps them right, and accounts written before
 * keys existed get theirs at start.
 */
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { connectDatabase } from "../../src/db/connection";
import { createUserModel } from "../../src/modules/users/user.model";
import { bearer, buildUser, login, TEST_PASSWORD, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

const DB_NAME = `t_email_keys_${randomBytes(3).toString("hex")}`;
const LEGACY_EMAIL = "legacy.account@example.org";
let app: TestApp;

beforeAll(async () => {
  // An account stored by a version without keys, then the service starts on that database.
  const connection = await connectDatabase({ uri: process.env.TEST_MONGODB_URI!, dbName: DB_NAME });
  await createUserModel(connection).create({
    name: "Legacy Account",
    email: LEGACY_EMAIL,
    passwordHash: await bcrypt.hash(TEST_PASSWORD, 4),
    isEmailVerified: true,
  });
  await connection.close();
  app = await startTestApp({ DB_NAME });
});
afterAll(() => app.close());

const keys = () => app.services.connection.collection("user_email_keys");
const loginStatus = async (email: string) =>
  (await app.http().post("/api/v1/auth/login").send({ email, password: TEST_PASSWORD })).status;
const register = (email: string) =>
  app
    .http()
    .post("/api/v1/auth/register")
    .send({ name: "Someone", email, password: TEST_PASSWORD });

it("an account from before keys existed signs in after the start wrote its key", async () => {
  expect(await loginStatus(LEGACY_EMAIL)).toBe(200);
  const stored = await app.services.models.users.findOne({ email: LEGACY_EMAIL }).lean();
  expect(await keys().findOne({ _id: LEGACY_EMAIL as never })).toMatchObject({
    userId: stored!._id,
  });
});

it("sign-in and forgot-password find a registered account by its normalised email", async () => {
  const user = await buildUser(app);
  expect(await loginStatus(`  ${user.email.toUpperCase()} `)).toBe(200);
  const before = app.mail.messages.length;
  const forgot = await app.http().post("/api/v1/auth/forgot-password").send({ email: user.email });
  expect(forgot.status).toBe(200);
  const mail = await app.mail.waitFor(user.email, { subject: /reset/i, after: before });
  expect(mail.to).toContain(user.email);
});

it("an email change moves the key: the old address no longer signs in and is free again", async () => {
  const user = await buildUser(app);
  const newEmail = uniqueEmail("moved");
  const changed = await app
    .http()
    .put("/api/v1/users/current")
    .set(bearer(user))
    .send({ email: newEmail });
  expect(changed.status).toBe(200);
  expect(await loginStatus(user.email)).toBe(401);
  expect(await loginStatus(newEmail)).toBe(200);
  expect((await register(user.email)).status).toBe(200);
});

it("an email another account has is refused with 409 and moves nothing", async () => {
  const owner = await buildUser(app);
  const other = await buildUser(app);
  const refused = await app
    .http()
    .put("/api/v1/users/current")
    .set(bearer(other))
    .send({ email: owner.email });
  expect(refused.status).toBe(409);
  expect(await loginStatus(owner.email)).toBe(200);
  expect(await loginStatus(other.email)).toBe(200);
  expect((await register(owner.email)).status).toBe(409);
});

it("a deleted account's email can be registered again", async () => {
  const user = await buildUser(app);
  const deleted = await app.http().delete("/api/v1/users/current").set(bearer(user));
  expect(deleted.status).toBe(204);
  expect(await loginStatus(user.email)).toBe(401);
  expect((await register(user.email)).status).toBe(200);
  expect((await login(app, user.email, TEST_PASSWORD)).token).toEqual(expect.any(String));
});

it("a key a crash left behind blocks the address only while its account could still be on its way", async () => {
  const old = uniqueEmail("stale");
  const fresh = uniqueEmail("in-progress");
  await keys().insertMany([
    { _id: old, userId: "gone-long-ago", at: new Date(Date.now() - 3_600_000) },
    { _id: fresh, userId: "being-created", at: new Date() },
  ] as never);
  expect((await register(old)).status).toBe(200);
  expect(await loginStatus(old)).toBe(200);
  expect((await register(fresh)).status).toBe(409);
  expect(await loginStatus(fresh)).toBe(401);
});
