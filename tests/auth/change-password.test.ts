import { ChangePasswordDocument, CurrentUserDocument } from "../graphql/generated";
import { bearer, buildUser, login, TEST_PASSWORD, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const AUTH = "/api/v1/auth";
const NEW_PASSWORD = "Changed#Pass2";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const changePassword = (token: string, body: Record<string, unknown>) =>
  app.http().post(`${AUTH}/change-password`).set(bearer({ token })).send(body);
const currentUser = (token: string) =>
  app.http().get("/api/v1/users/current").set(bearer({ token }));
const refresh = (cookie: string) => app.http().get(`${AUTH}/refresh-token`).set("cookie", cookie);
const storedHash = async (user: TestUser) =>
  (await rawDb(app).users.findById(user.id).lean())!.passwordHash;
const loginStatus = async (email: string, password: string) =>
  (await app.http().post(`${AUTH}/login`).send({ email, password })).status;

describe("POST /auth/change-password", () => {
  it("changes the password, ends every other session and keeps the caller's own", async () => {
    const user = await buildUser(app);
    const other = await login(app, user.email, TEST_PASSWORD);
    const current = await login(app, user.email, TEST_PASSWORD);

    const response = await changePassword(current.token, {
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: "OK", message: expect.any(String) });

    // The other sessions: access token and refresh cookie refused.
    expect((await currentUser(other.token)).status).toBe(401);
    expect((await currentUser(user.token)).status).toBe(401);
    expect((await refresh(other.refreshCookie)).status).toBe(401);
    // The caller's session goes on, refresh included.
    expect((await currentUser(current.token)).status).toBe(200);
    const refreshed = await refresh(current.refreshCookie);
    expect(refreshed.status).toBe(200);
    expect((await currentUser(refreshed.body.accessToken as string)).status).toBe(200);

    expect(await loginStatus(user.email, TEST_PASSWORD)).toBe(401);
    expect(await loginStatus(user.email, NEW_PASSWORD)).toBe(200);
  });

  it("mails the account's address that its password changed", async () => {
    const user = await buildUser(app);
    const after = app.mail.messages.length;
    const response = await changePassword(user.token, {
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    const mail = await app.mail.waitFor(user.email, { subject: /password .*was changed/i, after });
    expect(mail.text).toMatch(/If you did not do this/);
    expect(mail.text).not.toContain(NEW_PASSWORD);
  });

  it("answers 401 INVALID_CREDENTIALS for a wrong current password and changes nothing", async () => {
    const user = await buildUser(app);
    const other = await login(app, user.email, TEST_PASSWORD);
    const hash = await storedHash(user);
    const response = await changePassword(user.token, {
      currentPassword: "Wrong#Pass1",
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: "INVALID_CREDENTIALS", message: expect.any(String) });
    expect(await storedHash(user)).toBe(hash);
    expect((await currentUser(other.token)).status).toBe(200);
  });

  it("answers 400 VALIDATION_ERROR for a mismatch or a weak password and changes nothing", async () => {
    const user = await buildUser(app);
    const hash = await storedHash(user);
    const mismatch = await changePassword(user.token, {
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: "Other#Pass3",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "confirmPassword" }],
    });
    const weak = await changePassword(user.token, {
      currentPassword: TEST_PASSWORD,
      password: "weak",
      confirmPassword: "weak",
    });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(weak.body.errors).toContainEqual(expect.objectContaining({ path: "password" }));
    expect(await storedHash(user)).toBe(hash);
  });

  it("needs a token: 401 UNAUTHENTICATED without one", async () => {
    const response = await app.http().post(`${AUTH}/change-password`).send({
      currentPassword: TEST_PASSWORD,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });

  it("counts wrong current passwords toward the login lockout", async () => {
    const strict = await startTestApp({ LOGIN_MAX_FAILURES: "2" });
    try {
      const user = await buildUser(strict);
      const attempt = (currentPassword: string) =>
        strict
          .http()
          .post(`${AUTH}/change-password`)
          .set(bearer(user))
          .send({ currentPassword, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
      expect((await attempt("Wrong#Pass1")).status).toBe(401);
      expect((await attempt("Wrong#Pass1")).status).toBe(401);
      expect((await attempt(TEST_PASSWORD)).status).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe("GraphQL changePassword", () => {
  it("changes the password and ends the other sessions", async () => {
    const user = await buildUser(app);
    const current = await login(app, user.email, TEST_PASSWORD);
    const result = await app.graphql(
      ChangePasswordDocument,
      { currentPassword: TEST_PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      current.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.changePassword).toEqual({ code: "OK", message: expect.any(String) });
    const otherSession = await app.graphql(CurrentUserDocument, {}, user.token);
    expect(otherSession.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    const own = await app.graphql(CurrentUserDocument, {}, current.token);
    expect(own.errors).toBeUndefined();

    const wrong = await app.graphql(
      ChangePasswordDocument,
      { currentPassword: "Wrong#Pass1", password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      current.token,
    );
    expect(wrong.errors?.[0].extensions).toMatchObject({
      code: "INVALID_CREDENTIALS",
      status: 401,
    });
  });
});
