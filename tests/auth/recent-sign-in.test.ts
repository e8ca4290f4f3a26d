import { generate } from "otplib";
import {
  DeleteCurrentUserDocument,
  DisableMfaDocument,
  EnableMfaDocument,
  ReauthenticateDocument,
  UpdateCurrentUserDocument,
} from "../graphql/generated";
import {
  bearer,
  buildUser,
  login,
  TEST_PASSWORD,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

/*
 * Issue 35's takeover sequence: an access token stolen from a session that signed in a while
 * ago must not change the email (the recovery channel), turn MFA on or off, or delete the
 * account. The app here counts a sign-in as recent for REAUTH_MAX_AGE_SECONDS=60, so a session
 * becomes "a while ago" when the test moves the app's clock a little over that.
 */
const MAX_AGE_SECONDS = 60;
const AUTH = "/api/v1/auth";
const CURRENT = "/api/v1/users/current";

const PERIOD_SECONDS = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD_SECONDS });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ REAUTH_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) });
});
afterAll(() => app?.close());

/** Moves the app's clock on until every session signed in so far is no longer recent. */
const letSignInsAge = () => app.internals.clock.advance(MAX_AGE_SECONDS + 1);

const reauthenticate = (token: string, body: Record<string, unknown>) =>
  app.http().post(`${AUTH}/reauthenticate`).set(bearer({ token })).send(body);
const updateCurrent = (token: string, body: Record<string, unknown>) =>
  app.http().put(CURRENT).set(bearer({ token })).send(body);
const storedUser = (user: TestUser) => rawDb(app).users.findById(user.id).lean();

function expectReauthenticationRequired(response: { status: number; body: unknown }): void {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({
    code: "REAUTHENTICATION_REQUIRED",
    message: expect.stringMatching(/reauthenticate/),
  });
}

/** TOTP on for `user` with a code of the step before now; the steps now and next stay unused. */
async function enableMfaFor(user: TestUser): Promise<{ secret: string; step: number }> {
  // Not in the last seconds of a step, so the previous step is still accepted when it arrives.
  // TOTP steps follow the real time (otplib here and in the service), which no test clock moves.
  const leftMs = PERIOD_SECONDS * 1000 - (Date.now() % (PERIOD_SECONDS * 1000));
  if (leftMs < 3000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
  const setup = await app.http().post(`${AUTH}/mfa/setup`).set(bearer(user)).send({});
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  // The wait above, or a slow machine, may outlast MAX_AGE_SECONDS since the user signed in.
  expect((await reauthenticate(user.token, { password: TEST_PASSWORD })).status).toBe(200);
  const step = currentStep();
  const enabled = await app
    .http()
    .post(`${AUTH}/mfa/enable`)
    .set(bearer(user))
    .send({ code: await codeAt(secret, step - 1) });
  expect(enabled.status).toBe(200);
  return { secret, step };
}

describe("changing the email with an access token whose sign-in is not recent", () => {
  it("REST: 401 REAUTHENTICATION_REQUIRED until POST /auth/reauthenticate; then the old address is told", async () => {
    const user = await buildUser(app);
    letSignInsAge();
    const newEmail = uniqueEmail("taken-over");

    // The takeover's first step fails, and changes nothing.
    expectReauthenticationRequired(await updateCurrent(user.token, { email: newEmail }));
    expect(await storedUser(user)).toMatchObject({ email: user.email, isEmailVerified: true });

    // Name and avatar are not takeover paths.
    const renamed = await updateCurrent(user.token, { name: "Renamed Without Password" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.name).toBe("Renamed Without Password");

    // A wrong password does not renew the sign-in.
    const wrong = await reauthenticate(user.token, { password: "Wrong#Pass1" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: "INVALID_CREDENTIALS", message: expect.any(String) });
    expectReauthenticationRequired(await updateCurrent(user.token, { email: newEmail }));

    const confirmed = await reauthenticate(user.token, { password: TEST_PASSWORD });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ code: "OK", message: expect.any(String) });

    const before = app.mail.messages.length;
    const changed = await updateCurrent(user.token, { email: newEmail });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toMatchObject({ email: newEmail, isEmailVerified: false });
    const notice = await app.mail.waitFor(user.email, { subject: /email address/i, after: before });
    expect(notice.text).toMatch(/changed from this address/);
    expect(notice.text).not.toContain(newEmail);
    await app.mail.waitFor(newEmail, { subject: /verification code/i, after: before });
  });

  it("GraphQL: the same rule through updateCurrentUser and reauthenticate", async () => {
    const user = await buildUser(app);
    letSignInsAge();
    const newEmail = uniqueEmail("graphql-takeover");

    const refused = await app.graphql(UpdateCurrentUserDocument, { email: newEmail }, user.token);
    expect(refused.data?.updateCurrentUser ?? null).toBeNull();
    expect(refused.errors?.[0].extensions).toMatchObject({
      code: "REAUTHENTICATION_REQUIRED",
      status: 401,
    });

    const wrong = await app.graphql(ReauthenticateDocument, { password: "Wrong#1x" }, user.token);
    expect(wrong.errors?.[0].extensions.code).toBe("INVALID_CREDENTIALS");

    const confirmed = await app.graphql(
      ReauthenticateDocument,
      { password: TEST_PASSWORD },
      user.token,
    );
    expect(confirmed.errors).toBeUndefined();
    expect(confirmed.data?.reauthenticate).toEqual({ code: "OK", message: expect.any(String) });

    const before = app.mail.messages.length;
    const changed = await app.graphql(UpdateCurrentUserDocument, { email: newEmail }, user.token);
    expect(changed.errors).toBeUndefined();
    expect(changed.data?.updateCurrentUser.user.email).toBe(newEmail);
    await app.mail.waitFor(user.email, { subject: /email address/i, after: before });
  });

  it("a refreshed access token does not renew the sign-in", async () => {
    const user = await buildUser(app);
    const session = await login(app, user.email, user.password);
    letSignInsAge();
    const refreshed = await app
      .http()
      .get(`${AUTH}/refresh-token`)
      .set("cookie", session.refreshCookie);
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.accessToken as string;
    expectReauthenticationRequired(await updateCurrent(token, { email: uniqueEmail("fresh") }));
  });

  it("a fresh login is recent: the email changes at once", async () => {
    const user = await buildUser(app);
    const response = await updateCurrent(user.token, { email: uniqueEmail("fresh-login") });
    expect(response.status).toBe(200);
  });

  it("asks for a token and a password: 401 without a token, 400 without a password", async () => {
    const anonymous = await app.http().post(`${AUTH}/reauthenticate`).send({ password: "x" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHENTICATED");
    const user = await buildUser(app);
    const missing = await reauthenticate(user.token, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "password" }],
    });
  });
});

describe("MFA on and off need a recent sign-in", () => {
  it("REST: enabling is refused with an old sign-in and allowed after reauthenticating", async () => {
    const user = await buildUser(app);
    letSignInsAge();
    const setup = await app.http().post(`${AUTH}/mfa/setup`).set(bearer(user)).send({});
    expect(setup.status).toBe(200);
    const code = await codeAt(setup.body.secret as string, currentStep());
    const enable = () => app.http().post(`${AUTH}/mfa/enable`).set(bearer(user)).send({ code });
    expectReauthenticationRequired(await enable());
    expect(await storedUser(user)).toMatchObject({ mfaEnabled: false });

    expect((await reauthenticate(user.token, { password: TEST_PASSWORD })).status).toBe(200);
    const enabled = await enable();
    expect(enabled.status).toBe(200);
    expect(enabled.body.user.mfaEnabled).toBe(true);
  });

  it("REST: with MFA on, reauthenticating needs a fresh code too; then disabling works", async () => {
    const user = await buildUser(app);
    const { secret, step } = await enableMfaFor(user);
    letSignInsAge();
    const disable = (code: string) =>
      app
        .http()
        .post(`${AUTH}/mfa/disable`)
        .set(bearer(user))
        .send({ code, password: TEST_PASSWORD });
    expectReauthenticationRequired(await disable(await codeAt(secret, step + 1)));

    const withoutCode = await reauthenticate(user.token, { password: TEST_PASSWORD });
    expect(withoutCode.status).toBe(400);
    expect(withoutCode.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "code" }],
    });
    const code = await codeAt(secret, step);
    expect((await reauthenticate(user.token, { password: TEST_PASSWORD, code })).status).toBe(200);
    // A code works once, as at login.
    const replayed = await reauthenticate(user.token, { password: TEST_PASSWORD, code });
    expect(replayed.status).toBe(401);
    expect(replayed.body.code).toBe("INVALID_CREDENTIALS");

    const disabled = await disable(await codeAt(secret, step + 1));
    expect(disabled.status).toBe(200);
    expect(disabled.body.user.mfaEnabled).toBe(false);
  });

  it("GraphQL: enableMfa and disableMfa answer REAUTHENTICATION_REQUIRED", async () => {
    const user = await buildUser(app);
    const { secret, step } = await enableMfaFor(user);
    const other = await buildUser(app);
    letSignInsAge();
    const code = await codeAt(secret, step + 1);
    const disabled = await app.graphql(
      DisableMfaDocument,
      { code, password: TEST_PASSWORD },
      user.token,
    );
    expect(disabled.errors?.[0].extensions).toMatchObject({
      code: "REAUTHENTICATION_REQUIRED",
      status: 401,
    });
    const enabled = await app.graphql(EnableMfaDocument, { code: "123456" }, other.token);
    expect(enabled.errors?.[0].extensions.code).toBe("REAUTHENTICATION_REQUIRED");
    expect(await storedUser(user)).toMatchObject({ mfaEnabled: true });
  });
});

describe("deleting one's own account needs a recent sign-in", () => {
  it("REST: 401 and the account stays; after reauthenticating, 204", async () => {
    const user = await buildUser(app);
    letSignInsAge();
    const remove = () => app.http().delete(CURRENT).set(bearer(user));
    expectReauthenticationRequired(await remove());
    expect(await storedUser(user)).not.toBeNull();

    expect((await reauthenticate(user.token, { password: TEST_PASSWORD })).status).toBe(200);
    expect((await remove()).status).toBe(204);
    expect(await storedUser(user)).toBeNull();
  });

  it("GraphQL: deleteCurrentUser answers REAUTHENTICATION_REQUIRED", async () => {
    const user = await buildUser(app);
    letSignInsAge();
    const refused = await app.graphql(DeleteCurrentUserDocument, {}, user.token);
    expect(refused.errors?.[0].extensions).toMatchObject({
      code: "REAUTHENTICATION_REQUIRED",
      status: 401,
    });
    expect(await storedUser(user)).not.toBeNull();
  });
});

describe("wrong passwords at reauthenticate count toward the login lockout", () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ LOGIN_MAX_FAILURES: "3" });
  });
  afterAll(() => strict.close());

  it("locks the account's login after the limit, even with the right password", async () => {
    const user = await buildUser(strict);
    const attempt = (password: string) =>
      strict.http().post(`${AUTH}/reauthenticate`).set(bearer(user)).send({ password });
    for (let i = 0; i < 3; i += 1) expect((await attempt("Wrong#Pass1")).status).toBe(401);
    const locked = await attempt(TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers["retry-after"]).toBeDefined();
    const loginNow = await strict
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(loginNow.status).toBe(429);
  });
});
