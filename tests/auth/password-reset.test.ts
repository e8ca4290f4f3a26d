import bcrypt from "bcryptjs";
import { ForgotPasswordDocument, LoginDocument, ResetPasswordDocument } from "../graphql/generated";
import { bearer, buildUser, login, uniqueEmail, type TestUser } from "../support/factories";
import { resetTokenIn } from "../support/mailbox";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const AUTH = "/api/v1/auth";
const NEW_PASSWORD = "Fresh#Pass456";
const RESET_SUBJECT = /reset your password/i;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const forgot = (email: string) => app.http().post(`${AUTH}/forgot-password`).send({ email });

/** Asks for a reset and returns the token from the mail it produces. */
async function resetTokenFor(email: string): Promise<string> {
  const after = app.mail.messages.length;
  const response = await forgot(email);
  expect(response.status).toBe(200);
  return resetTokenIn(await app.mail.waitFor(email, { subject: RESET_SUBJECT, after }));
}

const reset = (token: string | undefined, body: Record<string, unknown>) => {
  const path =
    token === undefined
      ? `${AUTH}/reset-password`
      : `${AUTH}/reset-password?token=${encodeURIComponent(token)}`;
  return app.http().post(path).send(body);
};
const resetTo = (token: string | undefined, password: string) =>
  reset(token, { password, confirmPassword: password });

const loginStatus = async (email: string, password: string) =>
  (await app.http().post(`${AUTH}/login`).send({ email, password })).status;
const storedUser = (user: TestUser) => rawDb(app).users.findById(user.id).lean();

function expectInvalidToken(response: { status: number; body: Record<string, unknown> }) {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
}

function expectValidationError(
  response: { status: number; body: { code?: string; errors?: { path: string }[] } },
  path: string,
) {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
  expect(response.body.errors).toEqual(
    expect.arrayContaining([{ path, message: expect.any(String) }]),
  );
}

describe("POST /auth/forgot-password", () => {
  it("answers the same for a known, a differently cased known and an unknown address", async () => {
    const user = await buildUser(app);
    const unknown = uniqueEmail("nobody");
    const mailsBefore = app.mail.messages.length;

    const forUnknown = await forgot(unknown);
    const forKnown = await forgot(user.email);
    const forUpperCase = await forgot(`  ${user.email.toUpperCase()} `);

    for (const response of [forUnknown, forKnown, forUpperCase]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: "OK", message: expect.any(String) });
    }
    expect(forKnown.body).toEqual(forUnknown.body);
    expect(forUpperCase.body).toEqual(forUnknown.body);

    // Both requests for the known account are mailed to it; the unknown address gets nothing.
    const first = await app.mail.waitFor(user.email, {
      subject: RESET_SUBJECT,
      after: mailsBefore,
    });
    const firstIndex = app.mail.messages.indexOf(first);
    const second = await app.mail.waitFor(user.email, {
      subject: RESET_SUBJECT,
      after: firstIndex + 1,
    });
    expect(app.mail.to(unknown)).toHaveLength(0);

    for (const mail of [first, second]) {
      const token = resetTokenIn(mail);
      for (const response of [forUnknown, forKnown, forUpperCase]) {
        expect(JSON.stringify(response.body)).not.toContain(token);
        expect(JSON.stringify(response.headers)).not.toContain(token);
      }
    }
  });

  it("stores only a hash of the mailed token, expiring in about 30 minutes", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    const stored = await storedUser(user);
    expect(stored!.resetTokenHash).toEqual(expect.any(String));
    expect(JSON.stringify(stored)).not.toContain(token);
    const expiresIn = stored!.resetExpiresAt!.getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(28 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000);
  });
});

describe("POST /auth/reset-password?token=", () => {
  it("sets the new password: the old one fails, the new one signs in", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);

    const response = await resetTo(token, NEW_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: "OK", message: expect.any(String) });

    const oldLogin = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: user.password });
    expect(oldLogin.status).toBe(401);
    expect(oldLogin.body).toMatchObject({ code: "INVALID_CREDENTIALS" });
    const signedIn = await login(app, user.email, NEW_PASSWORD);
    const current = await app.http().get("/api/v1/users/current").set(bearer(signedIn));
    expect(current.status).toBe(200);
    expect(current.body.user.id).toBe(user.id);

    const stored = await storedUser(user);
    expect(stored).toMatchObject({ resetTokenHash: null, resetExpiresAt: null });
  });

  it("mails the account's address that its password was reset", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    const after = app.mail.messages.length;
    expect((await resetTo(token, NEW_PASSWORD)).status).toBe(200);
    const mail = await app.mail.waitFor(user.email, { subject: /password .*was changed/i, after });
    expect(mail.text).toMatch(/reset through a link/);
    expect(mail.text).not.toContain(NEW_PASSWORD);
  });

  it("ends every earlier session of the user: access tokens and refresh cookies", async () => {
    const user = await buildUser(app);
    const first = await login(app, user.email, user.password);
    const second = await login(app, user.email, user.password);
    const token = await resetTokenFor(user.email);

    expect((await resetTo(token, NEW_PASSWORD)).status).toBe(200);

    for (const session of [first, second, user]) {
      const current = await app.http().get("/api/v1/users/current").set(bearer(session));
      expect(current.status).toBe(401);
      expect(current.body).toMatchObject({ code: "UNAUTHENTICATED" });
    }
    for (const session of [first, second]) {
      const refreshed = await app
        .http()
        .get(`${AUTH}/refresh-token`)
        .set("cookie", session.refreshCookie);
      expect(refreshed.status).toBe(401);
      expect(refreshed.body).toMatchObject({ code: "UNAUTHENTICATED" });
    }
    const live = await rawDb(app).sessions.countDocuments({
      userId: user.id,
      revokedAt: null,
    });
    expect(live).toBe(0);
  });

  it("accepts a token only once (a second use is 400 INVALID_TOKEN)", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    expect((await resetTo(token, NEW_PASSWORD)).status).toBe(200);

    const again = await resetTo(token, "Another#Pass789");
    expectInvalidToken(again);
    expect(await loginStatus(user.email, "Another#Pass789")).toBe(401);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);
  });

  it("refuses a made-up token with 400 INVALID_TOKEN", async () => {
    const response = await resetTo("made-up-token-0123456789abcdefghijklmnopq", NEW_PASSWORD);
    expectInvalidToken(response);
  });

  it("refuses a missing token with 400 VALIDATION_ERROR on path token", async () => {
    const response = await resetTo(undefined, NEW_PASSWORD);
    expectValidationError(response, "token");
  });

  it("replaces an older token with the one a new request mails", async () => {
    const user = await buildUser(app);
    const older = await resetTokenFor(user.email);
    const newer = await resetTokenFor(user.email);
    expect(newer).not.toBe(older);

    expectInvalidToken(await resetTo(older, NEW_PASSWORD));
    expect(await loginStatus(user.email, user.password)).toBe(200);
    expect((await resetTo(newer, NEW_PASSWORD)).status).toBe(200);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);
  });

  it("refuses an expired token with 400 INVALID_TOKEN and keeps the password", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    // Fixture: let the token's 30 minutes run out.
    await rawDb(app).users.updateOne(
      { _id: user.id },
      { $set: { resetExpiresAt: new Date(Date.now() - 60_000) } },
    );
    const before = await storedUser(user);

    expectInvalidToken(await resetTo(token, NEW_PASSWORD));
    expect((await storedUser(user))!.passwordHash).toBe(before!.passwordHash);
    expect(await loginStatus(user.email, user.password)).toBe(200);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(401);
  });

  it("refuses a confirmPassword that differs (VALIDATION_ERROR) and changes nothing; the token stays usable", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    const before = await storedUser(user);

    const response = await reset(token, {
      password: NEW_PASSWORD,
      confirmPassword: "Fresh#Pass457",
    });
    expectValidationError(response, "confirmPassword");

    const after = await storedUser(user);
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(after!.resetTokenHash).toBe(before!.resetTokenHash);
    const current = await app.http().get("/api/v1/users/current").set(bearer(user));
    expect(current.status).toBe(200);
    expect(await loginStatus(user.email, user.password)).toBe(200);

    expect((await resetTo(token, NEW_PASSWORD)).status).toBe(200);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);
  });

  it("refuses a weak password (VALIDATION_ERROR on password) and changes nothing", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    const before = await storedUser(user);
    const liveSessions = () =>
      rawDb(app).sessions.countDocuments({ userId: user.id, revokedAt: null });
    const liveBefore = await liveSessions();

    for (const weak of ["short1!", "alllowercase1!", "NoDigitsHere!", "NoSpecial123"]) {
      expectValidationError(await resetTo(token, weak), "password");
    }

    const after = await storedUser(user);
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(after!.resetTokenHash).toBe(before!.resetTokenHash);
    expect(await liveSessions()).toBe(liveBefore);
    expect(await loginStatus(user.email, user.password)).toBe(200);
  });

  it("marks an unverified account's email verified", async () => {
    const user = await buildUser(app, { verified: false });
    expect((await storedUser(user))!.isEmailVerified).toBe(false);
    const token = await resetTokenFor(user.email);

    expect((await resetTo(token, NEW_PASSWORD)).status).toBe(200);

    const stored = await storedUser(user);
    expect(stored!.isEmailVerified).toBe(true);
    expect(await bcrypt.compare(NEW_PASSWORD, stored!.passwordHash)).toBe(true);
    const signedIn = await login(app, user.email, NEW_PASSWORD);
    const current = await app.http().get("/api/v1/users/current").set(bearer(signedIn));
    expect(current.body.user).toMatchObject({ id: user.id, isEmailVerified: true });
  });
});

describe("forgot and reset password through /graphql", () => {
  it("mails a token with forgotPassword and sets the password with resetPassword", async () => {
    const user = await buildUser(app);
    const after = app.mail.messages.length;

    const forgotten = await app.graphql(ForgotPasswordDocument, { email: user.email });
    expect(forgotten.errors).toBeUndefined();
    expect(forgotten.data!.forgotPassword).toEqual({ code: "OK", message: expect.any(String) });
    const restBody = (await forgot(uniqueEmail("nobody"))).body;
    expect(forgotten.data!.forgotPassword).toEqual(restBody);

    const token = resetTokenIn(
      await app.mail.waitFor(user.email, { subject: RESET_SUBJECT, after }),
    );
    const variables = { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD };
    const result = await app.graphql(ResetPasswordDocument, variables);
    expect(result.errors).toBeUndefined();
    expect(result.data!.resetPassword).toEqual({ code: "OK", message: expect.any(String) });

    const oldLogin = await app.graphql(LoginDocument, {
      email: user.email,
      password: user.password,
    });
    expect(oldLogin.errors?.[0].extensions.code).toBe("INVALID_CREDENTIALS");
    const newLogin = await app.graphql(LoginDocument, {
      email: user.email,
      password: NEW_PASSWORD,
    });
    expect(newLogin.errors).toBeUndefined();
    expect(newLogin.data!.login.user!.id).toBe(user.id);

    const reused = await app.graphql(ResetPasswordDocument, variables);
    expect(reused.data?.resetPassword ?? null).toBeNull();
    expect(reused.errors?.[0].extensions).toMatchObject({ code: "INVALID_TOKEN", status: 400 });
  });

  it("answers INVALID_TOKEN for a made-up token and changes nothing", async () => {
    const user = await buildUser(app);
    const token = await resetTokenFor(user.email);
    const before = await storedUser(user);

    const result = await app.graphql(ResetPasswordDocument, {
      token: `${token}x`,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(result.data?.resetPassword ?? null).toBeNull();
    expect(result.errors?.[0].extensions).toMatchObject({ code: "INVALID_TOKEN", status: 400 });
    expect((await storedUser(user))!.passwordHash).toBe(before!.passwordHash);
    expect(await loginStatus(user.email, user.password)).toBe(200);
  });
});
