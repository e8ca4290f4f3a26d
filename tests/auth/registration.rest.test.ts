import { PUBLIC_USER_KEYS, UUID_V7 } from "../support/expectations";
import bcrypt from "bcryptjs";
import { BcryptPool } from "../../src/modules/auth/bcrypt-pool";
import jwt from "jsonwebtoken";
import {
  bearer,
  buildUser,
  login,
  loginBootstrapAdmin,
  refreshCookieOf,
  TEST_PASSWORD,
  uniqueEmail,
} from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import { startTestApp, TEST_JWT_SECRET, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const AUTH = "/api/v1/auth";
const CODE = /^[A-HJ-NP-Z2-9]{8}$/;
const SECRET_FIELDS = /passwordHash|verificationCode|resetToken|mfaSecret|mfaPendingSecret/;
const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const countUsers = () => rawDb(app).users.estimatedDocumentCount();
const storedUser = (email: string) => rawDb(app).users.findOne({ email }).lean();
const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.http().post(`${AUTH}/register`).set(headers).send(body);
const memberBody = (overrides: Record<string, unknown> = {}) => ({
  name: "New Member",
  email: uniqueEmail("member"),
  password: TEST_PASSWORD,
  ...overrides,
});
const pathsOf = (body: { errors?: { path: string }[] }) =>
  (body.errors ?? []).map((error) => error.path).sort();
const setCookies = (response: { headers: Record<string, unknown> }): string[] => {
  const header = response.headers["set-cookie"] as string[] | string | undefined;
  return Array.isArray(header) ? header : header ? [header] : [];
};
const refreshCookies = (response: { headers: Record<string, unknown> }) =>
  setCookies(response).filter((cookie) => cookie.startsWith("refreshToken="));

/** The refreshToken Set-Cookie header's attributes, names lower-cased. */
function cookieAttributes(cookie: string): Record<string, string | true> {
  const attributes: Record<string, string | true> = {};
  for (const part of cookie.split(";").slice(1)) {
    const [name, ...value] = part.trim().split("=");
    attributes[name.toLowerCase()] = value.length > 0 ? value.join("=") : true;
  }
  return attributes;
}

function expectRefreshCookie(response: { headers: Record<string, unknown> }): void {
  const cookies = refreshCookies(response);
  expect(cookies).toHaveLength(1);
  expect(refreshCookieOf(cookies).length).toBeGreaterThan("refreshToken=".length + 20);
  const attributes = cookieAttributes(cookies[0]);
  expect(attributes.httponly).toBe(true);
  expect(String(attributes.samesite).toLowerCase()).toBe("strict");
  expect(attributes.path).toBe("/api/v1/auth");
  expect(attributes).not.toHaveProperty("secure");
  const expires = new Date(String(attributes.expires)).getTime();
  expect(Math.abs(expires - (Date.now() + SEVEN_DAYS_MS))).toBeLessThan(5 * 60_000);
}

function expectNoSecrets(body: unknown): void {
  expect(JSON.stringify(body)).not.toMatch(SECRET_FIELDS);
  expect(JSON.stringify(body)).not.toContain(TEST_PASSWORD);
}

function expectValidationError(
  response: { status: number; body: { code?: string; message?: string; errors?: unknown } },
  path: string,
): void {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
  expect(response.body.errors).toEqual(
    expect.arrayContaining([{ path, message: expect.any(String) }]),
  );
}

describe("POST /auth/register", () => {
  it("creates a MEMBER, signs it in and answers the auth success body", async () => {
    const email = uniqueEmail("Fresh").toUpperCase();
    const mailsBefore = app.mail.messages.length;
    const response = await register({
      name: "Fresh Member",
      email: `  ${email} `,
      password: TEST_PASSWORD,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.any(Object),
      accessToken: expect.any(String),
      mfaRequired: false,
    });
    const { user, accessToken } = response.body;
    expect(Object.keys(user).sort()).toEqual(PUBLIC_USER_KEYS);
    expect(user).toMatchObject({
      name: "Fresh Member",
      email: email.toLowerCase(),
      role: "MEMBER",
      isEmailVerified: false,
      mfaEnabled: false,
      avatar: null,
    });
    expect(user.id).toMatch(UUID_V7);
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expectNoSecrets(response.body);

    const claims = jwt.verify(accessToken, TEST_JWT_SECRET, { algorithms: ["HS256"] }) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      sub: user.id,
      role: "MEMBER",
      jti: expect.any(String),
      sid: expect.any(String),
    });
    const session = await rawDb(app).sessions.findById(claims.sid).lean();
    expect(session).toMatchObject({ userId: user.id, revokedAt: null });

    expectRefreshCookie(response);

    const mail = await app.mail.waitFor(email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    expect(mail.to).toEqual([email.toLowerCase()]);
    expect(verificationCodeIn(mail)).toMatch(CODE);

    const stored = await storedUser(email.toLowerCase());
    expect(stored).toMatchObject({ _id: user.id, role: "MEMBER", isEmailVerified: false });
    expect(stored!.passwordHash).not.toBe(TEST_PASSWORD);
    expect(await bcrypt.compare(TEST_PASSWORD, stored!.passwordHash)).toBe(true);
  });

  it("returns an access token that works on GET /users/current", async () => {
    const body = memberBody();
    const registered = await register(body);
    expect(registered.status).toBe(200);
    const current = await app
      .http()
      .get("/api/v1/users/current")
      .set(bearer({ token: registered.body.accessToken }));
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({
      code: "OK",
      user: { id: registered.body.user.id, email: body.email, role: "MEMBER" },
    });
    expectNoSecrets(current.body);
  });

  it("ignores unknown and server-owned body fields instead of storing them", async () => {
    const body = memberBody({
      _id: "attacker-chosen-id",
      id: "attacker-chosen-id",
      isEmailVerified: true,
      passwordHash: "not-a-hash",
      mfaEnabled: true,
      createdAt: "2000-01-01T00:00:00.000Z",
      isAdmin: true,
    });
    const response = await register(body);
    expect(response.status).toBe(200);
    expect(response.body.user.id).toMatch(UUID_V7);
    expect(response.body.user).toMatchObject({
      role: "MEMBER",
      isEmailVerified: false,
      mfaEnabled: false,
    });
    expect(response.body.user.createdAt).not.toBe("2000-01-01T00:00:00.000Z");
    const stored = await storedUser(body.email);
    expect(stored).toMatchObject({ _id: response.body.user.id, isEmailVerified: false });
    expect(stored!.passwordHash).not.toBe("not-a-hash");
    expect(stored).not.toHaveProperty("isAdmin");
    expect(await rawDb(app).users.countDocuments({ _id: "attacker-chosen-id" })).toBe(0);
    await expect(login(app, body.email, TEST_PASSWORD)).resolves.toBeDefined();
  });
});

describe("POST /auth/register password policy", () => {
  it.each([
    ["no uppercase letter", "secret#123"],
    ["no digit", "Secret#abc"],
    ["no special character", "Secret1234"],
    ["fewer than 8 bytes", "Se#1abc"],
    ["73 ASCII bytes", `Aa1!${"x".repeat(69)}`],
    ["38 characters but 76 bytes (two-byte letters)", `${"Ä".repeat(36)}1!`],
  ])(
    "refuses a password with %s: 400 on path password, nothing stored",
    async (_case, password) => {
      const before = await countUsers();
      const body = memberBody({ password });
      const response = await register(body);
      expectValidationError(response, "password");
      expect(pathsOf(response.body)).toEqual(["password"]);
      expect(refreshCookies(response)).toHaveLength(0);
      expect(await countUsers()).toBe(before);
      expect(await storedUser(body.email)).toBeNull();
    },
  );

  it("counts bytes, not characters: 38 characters of 72 bytes and 7 characters of 11 bytes pass", async () => {
    const longMultibyte = `${"Ä".repeat(34)}1!ab`;
    expect(longMultibyte).toHaveLength(38);
    expect(Buffer.byteLength(longMultibyte)).toBe(72);
    const shortMultibyte = "Ää1!Ää1";
    expect(shortMultibyte).toHaveLength(7);
    expect(Buffer.byteLength(shortMultibyte)).toBe(11);

    for (const password of [longMultibyte, shortMultibyte]) {
      const body = memberBody({ password });
      const response = await register(body);
      expect(response.status).toBe(200);
      await expect(login(app, body.email, password)).resolves.toBeDefined();
    }
  });

  const password72 = `Aa1!${"x".repeat(68)}`;

  it("accepts a password of exactly 72 bytes, which then signs in", async () => {
    expect(Buffer.byteLength(password72)).toBe(72);
    const body = memberBody({ password: password72 });
    expect((await register(body)).status).toBe(200);
    await expect(login(app, body.email, password72)).resolves.toBeDefined();
  });

  it("does not sign in with a 73-byte password whose first 72 bytes are the real one (no truncation)", async () => {
    const body = memberBody({ password: password72 });
    expect((await register(body)).status).toBe(200);
    const sessionsBefore = await rawDb(app).sessions.estimatedDocumentCount();
    const longer = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: body.email, password: `${password72}x` });
    expect(longer.status).toBe(401);
    expect(longer.body).toMatchObject({ code: "INVALID_CREDENTIALS" });
    expect(refreshCookies(longer)).toHaveLength(0);
    expect(await rawDb(app).sessions.estimatedDocumentCount()).toBe(sessionsBefore);
  });
});

describe("POST /auth/register input validation", () => {
  it("names every missing field and stores nothing", async () => {
    const before = await countUsers();
    const response = await register({});
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(pathsOf(response.body)).toEqual(["email", "name", "password"]);
    expect(await countUsers()).toBe(before);
  });

  it.each(["name", "email", "password"])(
    "answers 400 on path %s when only that field is missing",
    async (field) => {
      const before = await countUsers();
      const body: Record<string, unknown> = memberBody();
      delete body[field];
      const response = await register(body);
      expectValidationError(response, field);
      expect(pathsOf(response.body)).toEqual([field]);
      expect(await countUsers()).toBe(before);
    },
  );

  it.each(["not-an-email", "someone@localhost", "two@@example.org", "sp ace@example.org"])(
    "refuses the malformed email %j on path email",
    async (email) => {
      const before = await countUsers();
      const response = await register(memberBody({ email }));
      expectValidationError(response, "email");
      expect(await countUsers()).toBe(before);
    },
  );
});

describe("POST /auth/register roles", () => {
  it.each(["OFFICER", "ADMIN"])(
    "refuses an anonymous caller asking for %s (403) and creates nothing",
    async (role) => {
      const before = await countUsers();
      const body = memberBody({ role });
      const response = await register(body);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) });
      expect(refreshCookies(response)).toHaveLength(0);
      expect(await countUsers()).toBe(before);
      expect(await storedUser(body.email)).toBeNull();
    },
  );

  it("refuses a MEMBER's token asking for ADMIN (403)", async () => {
    const member = await buildUser(app);
    const before = await countUsers();
    const body = memberBody({ role: "ADMIN" });
    const response = await register(body, bearer(member));
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("FORBIDDEN");
    expect(await countUsers()).toBe(before);
  });

  it("answers 401 to an invalid bearer token asking for ADMIN", async () => {
    const before = await countUsers();
    const response = await register(memberBody({ role: "ADMIN" }), {
      authorization: "Bearer not-a-real-token",
    });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
    expect(await countUsers()).toBe(before);
  });

  it("lets an admin create an OFFICER: user only, no token or cookie, unverified and mailed a code", async () => {
    const admin = await loginBootstrapAdmin(app);
    const body = memberBody({
      name: "New Officer",
      email: uniqueEmail("officer"),
      role: "OFFICER",
    });
    const mailsBefore = app.mail.messages.length;
    const response = await register(body, bearer(admin));

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect(response.body).not.toHaveProperty("accessToken");
    expect(response.body).not.toHaveProperty("mfaToken");
    expect(response.body.user).toMatchObject({
      email: body.email,
      role: "OFFICER",
      isEmailVerified: false,
    });
    expect(response.body.user.id).toMatch(UUID_V7);
    expectNoSecrets(response.body);
    expect(refreshCookies(response)).toHaveLength(0);
    expect(await rawDb(app).sessions.countDocuments({ userId: response.body.user.id })).toBe(0);

    const mail = await app.mail.waitFor(body.email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    expect(verificationCodeIn(mail)).toMatch(CODE);

    const adminStillSignedIn = await app.http().get("/api/v1/users/current").set(bearer(admin));
    expect(adminStillSignedIn.status).toBe(200);
    expect(adminStillSignedIn.body.user).toMatchObject({ role: "ADMIN" });
    await expect(login(app, body.email, TEST_PASSWORD)).resolves.toMatchObject({
      body: { user: { role: "OFFICER" } },
    });
  });
});

describe("POST /auth/register duplicate email", () => {
  it.each([
    ["the same address", (email: string) => email],
    ["a different case", (email: string) => email.toUpperCase()],
    ["surrounding spaces and a different case", (email: string) => `  ${email.toUpperCase()}  `],
  ])("answers 409 CONFLICT for %s and keeps a single record", async (_case, variant) => {
    const email = uniqueEmail("taken");
    expect((await register(memberBody({ email }))).status).toBe(200);
    const before = await countUsers();
    const response = await register(memberBody({ name: "Second", email: variant(email) }));
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
    expect(refreshCookies(response)).toHaveLength(0);
    expect(await countUsers()).toBe(before);
    expect(await rawDb(app).users.countDocuments({ email })).toBe(1);
  });
});

describe("POST /auth/login", () => {
  let account: { email: string; id: string };

  beforeAll(async () => {
    const user = await buildUser(app);
    account = { email: user.email, id: user.id };
  });

  it("signs in: auth success body, refresh cookie and a session holding the body's userAgent", async () => {
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .set("user-agent", "HeaderAgent/1.0")
      .send({ email: account.email, password: TEST_PASSWORD, userAgent: "BodyAgent/2.0" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.objectContaining({ id: account.id, email: account.email, role: "MEMBER" }),
      accessToken: expect.any(String),
      mfaRequired: false,
    });
    expect(Object.keys(response.body.user).sort()).toEqual(PUBLIC_USER_KEYS);
    expectNoSecrets(response.body);
    expectRefreshCookie(response);

    const claims = jwt.decode(response.body.accessToken) as Record<string, string>;
    expect(claims).toMatchObject({ sub: account.id, role: "MEMBER" });
    expect(claims.jti).toEqual(expect.any(String));
    const session = await rawDb(app).sessions.findById(claims.sid).lean();
    expect(session).toMatchObject({
      userId: account.id,
      userAgent: "BodyAgent/2.0",
      revokedAt: null,
    });
  });

  it("stores the User-Agent header on the session when the body has no userAgent", async () => {
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .set("user-agent", "HeaderAgent/1.0")
      .send({ email: account.email, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    const { sid } = jwt.decode(response.body.accessToken) as { sid: string };
    const session = await rawDb(app).sessions.findById(sid).lean();
    expect(session).toMatchObject({ userId: account.id, userAgent: "HeaderAgent/1.0" });
  });

  it("matches the email case-insensitively and ignoring surrounding spaces", async () => {
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: `  ${account.email.toUpperCase()} `, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(account.id);
  });

  it("lets an account with an unverified email sign in", async () => {
    const unverified = await buildUser(app, { verified: false });
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: unverified.email, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: unverified.id, isEmailVerified: false });
    expect(response.body.accessToken).toEqual(expect.any(String));
  });

  it("answers an unknown email and a wrong password with the same 401, creating no session", async () => {
    const sessionsBefore = await rawDb(app).sessions.estimatedDocumentCount();
    const unknown = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: uniqueEmail("nobody"), password: TEST_PASSWORD });
    const wrong = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: account.email, password: "Wrong#Pass1" });

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toMatchObject({
      code: "INVALID_CREDENTIALS",
      message: expect.any(String),
    });
    expect(wrong.body).toEqual(unknown.body);
    expect(refreshCookies(unknown)).toHaveLength(0);
    expect(refreshCookies(wrong)).toHaveLength(0);
    expect(await rawDb(app).sessions.estimatedDocumentCount()).toBe(sessionsBefore);
  });

  describe("bcrypt comparison", () => {
    let compare: jest.SpyInstance;
    beforeEach(() => {
      // Calls through: the comparison still runs, in the hashing threads.
      compare = jest.spyOn(BcryptPool.prototype, "compare");
    });
    afterEach(() => compare.mockRestore());

    it("compares a password once for an unknown email, as for a wrong password", async () => {
      const unknown = await app
        .http()
        .post(`${AUTH}/login`)
        .send({ email: uniqueEmail("nobody"), password: TEST_PASSWORD });
      expect(unknown.status).toBe(401);
      expect(compare).toHaveBeenCalledTimes(1);

      compare.mockClear();
      const wrong = await app
        .http()
        .post(`${AUTH}/login`)
        .send({ email: account.email, password: "Wrong#Pass1" });
      expect(wrong.status).toBe(401);
      expect(compare).toHaveBeenCalledTimes(1);
    });
  });
});

describe("POST /auth/verify-email", () => {
  async function registerAndReadCode(): Promise<{ email: string; id: string; code: string }> {
    const body = memberBody();
    const mailsBefore = app.mail.messages.length;
    const response = await register(body);
    expect(response.status).toBe(200);
    const mail = await app.mail.waitFor(body.email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    return { email: body.email, id: response.body.user.id, code: verificationCodeIn(mail) };
  }
  const verify = (body: Record<string, unknown>) =>
    app.http().post(`${AUTH}/verify-email`).send(body);

  it("verifies the account with the mailed code and answers {code, message, user}", async () => {
    const { email, id, code } = await registerAndReadCode();
    const response = await verify({ code });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      user: expect.objectContaining({ id, email, isEmailVerified: true }),
    });
    expect(Object.keys(response.body.user).sort()).toEqual(PUBLIC_USER_KEYS);
    expectNoSecrets(response.body);
    expect(refreshCookies(response)).toHaveLength(0);
    const stored = await storedUser(email);
    expect(stored).toMatchObject({ isEmailVerified: true, verificationCodeHash: null });
  });

  it("accepts the code in lower case", async () => {
    const { id, code } = await registerAndReadCode();
    const response = await verify({ code: code.toLowerCase() });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id, isEmailVerified: true });
  });

  it("accepts a code only once: the second use is 400 INVALID_TOKEN", async () => {
    const { code } = await registerAndReadCode();
    expect((await verify({ code })).status).toBe(200);
    const again = await verify({ code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
  });

  it("refuses a made-up code with 400 INVALID_TOKEN and verifies nobody", async () => {
    const { email } = await registerAndReadCode();
    const response = await verify({ code: "ZZZZ2222" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
    expect(await storedUser(email)).toMatchObject({ isEmailVerified: false });
  });

  it("answers 400 VALIDATION_ERROR on path code when the code is missing", async () => {
    const response = await verify({});
    expectValidationError(response, "code");
    expect(pathsOf(response.body)).toEqual(["code"]);
  });
});

describe("POST /auth/resend-email-verification", () => {
  const resend = (email: string) =>
    app.http().post(`${AUTH}/resend-email-verification`).send({ email });

  it("answers the same body for unverified, verified and unknown addresses and mails only the unverified one", async () => {
    const verified = await buildUser(app);
    const unverifiedBody = memberBody();
    const firstMails = app.mail.messages.length;
    expect((await register(unverifiedBody)).status).toBe(200);
    const firstMail = await app.mail.waitFor(unverifiedBody.email, {
      subject: /verification code/i,
      after: firstMails,
    });
    const oldCode = verificationCodeIn(firstMail);
    const unknownEmail = uniqueEmail("unknown");
    await app.internals.mailer.flush();

    const mailsBefore = app.mail.messages.length;
    const forVerified = await resend(verified.email);
    const forUnknown = await resend(unknownEmail);
    const forUnverified = await resend(unverifiedBody.email.toUpperCase());

    for (const response of [forVerified, forUnknown, forUnverified]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ code: "OK", message: expect.any(String) });
      expect(refreshCookies(response)).toHaveLength(0);
    }
    expect(forVerified.body).toEqual(forUnverified.body);
    expect(forUnknown.body).toEqual(forUnverified.body);

    const newMail = await app.mail.waitFor(unverifiedBody.email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    await app.internals.mailer.flush();
    const newMails = app.mail.messages.slice(mailsBefore);
    expect(newMails).toHaveLength(1);
    expect(newMails[0].to).toEqual([unverifiedBody.email]);
    expect(await storedUser(verified.email)).toMatchObject({
      isEmailVerified: true,
      verificationCodeHash: null,
    });
    expect(await storedUser(unknownEmail)).toBeNull();

    const newCode = verificationCodeIn(newMail);
    expect(newCode).toMatch(CODE);
    expect(newCode).not.toBe(oldCode);
    const withOld = await app.http().post(`${AUTH}/verify-email`).send({ code: oldCode });
    expect(withOld.status).toBe(400);
    expect(withOld.body.code).toBe("INVALID_TOKEN");
    const withNew = await app.http().post(`${AUTH}/verify-email`).send({ code: newCode });
    expect(withNew.status).toBe(200);
    expect(withNew.body.user).toMatchObject({
      email: unverifiedBody.email,
      isEmailVerified: true,
    });
  });

  it("answers 400 on path email for a malformed address", async () => {
    const response = await resend("not-an-email");
    expectValidationError(response, "email");
  });
});
