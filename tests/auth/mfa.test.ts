import jwt from "jsonwebtoken";
import { generate } from "otplib";
import { MFA_ISSUER } from "../../src/modules/auth/mfa.service";
import { MFA_SECRET_FIELD } from "../../src/modules/users/user.model";
import {
  CurrentUserDocument,
  EnableMfaDocument,
  LoginDocument,
  SetupMfaDocument,
  VerifyMfaDocument,
} from "../graphql/generated";
import {
  bearer,
  buildUser,
  login,
  loginBootstrapAdmin,
  TEST_PASSWORD,
  type TestUser,
} from "../support/factories";
import { startTestApp, TEST_JWT_SECRET, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const AUTH = "/api/v1/auth";
const MFA = `${AUTH}/mfa`;
const BASE32 = /^[A-Z2-7]+=*$/;

/*
 * TOTP time steps. The server accepts the codes of the current 30-second step and of one step
 * either side, and each code only once: a step must be later than the last one accepted.
 * Enabling consumes the step it was confirmed with, so every test that uses a code again
 * generates it for an explicit later step (enabled step + 1) rather than waiting for the
 * clock. Step S+1 is accepted whether the server's clock is in S, S+1 or S+2, so no test
 * depends on where in a 30-second window it happens to run.
 */
const PERIOD_SECONDS = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD_SECONDS });

/** A 6-digit code that matches none of the steps the server could accept around now. */
async function wrongCode(secret: string): Promise<string> {
  const now = currentStep();
  const valid = new Set<string>();
  for (let step = now - 3; step <= now + 3; step += 1) valid.add(await codeAt(secret, step));
  let candidate = 123456;
  while (valid.has(String(candidate).padStart(6, "0"))) candidate = (candidate + 1) % 1_000_000;
  return String(candidate).padStart(6, "0");
}

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** The stored account, its TOTP secrets opened (they are stored sealed). */
async function storedUser(user: TestUser) {
  const record = await rawDb(app).users.findById(user.id).lean();
  if (!record) return record;
  const open = (stored: string | null) =>
    stored === null ? null : app.internals.cipher.open(stored, MFA_SECRET_FIELD);
  return {
    ...record,
    mfaSecret: open(record.mfaSecret),
    mfaPendingSecret: open(record.mfaPendingSecret),
  };
}

async function setupMfa(user: TestUser): Promise<string> {
  const response = await app.http().post(`${MFA}/setup`).set(bearer(user)).send({});
  expect(response.status).toBe(200);
  return response.body.secret as string;
}

/** A signed-in user with MFA on; `step` is the time step whose code enabled it (now used up). */
async function buildMfaUser(): Promise<{ user: TestUser; secret: string; step: number }> {
  const user = await buildUser(app);
  const secret = await setupMfa(user);
  const step = currentStep();
  const response = await app
    .http()
    .post(`${MFA}/enable`)
    .set(bearer(user))
    .send({ code: await codeAt(secret, step) });
  expect(response.status).toBe(200);
  expect(response.body.user.mfaEnabled).toBe(true);
  return { user, secret, step };
}

/** The password step of a login for a user with MFA on: the mfaToken. */
async function passwordStep(user: TestUser): Promise<string> {
  const response = await app
    .http()
    .post(`${AUTH}/login`)
    .send({ email: user.email, password: user.password });
  expect(response.status).toBe(200);
  expect(response.body.mfaRequired).toBe(true);
  return response.body.mfaToken as string;
}

function cookiesOf(setCookie: string[] | string | undefined): string[] {
  return Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
}

const hasRefreshCookie = (setCookie: string[] | string | undefined) =>
  cookiesOf(setCookie).some((cookie) => cookie.startsWith("refreshToken="));

function expectNoSecretIn(body: unknown, secret: string): void {
  const json = JSON.stringify(body);
  expect(json).not.toContain(secret);
  expect(json).not.toMatch(/mfaSecret|mfaPendingSecret|mfaLastStep/);
}

describe("POST /auth/mfa/setup", () => {
  it("returns a base32 secret and an otpauth URI carrying that secret and the issuer", async () => {
    const user = await buildUser(app);
    const response = await app.http().post(`${MFA}/setup`).set(bearer(user)).send({});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      secret: expect.stringMatching(BASE32),
      otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\//),
      // The web client's shape of the same answer, with a QR code to scan.
      data: {
        secret: response.body.secret,
        otpauthUrl: response.body.otpauthUri,
        qrCodeDataUrl: expect.stringMatching(/^data:image\/png;base64,/),
      },
    });
    const { secret, otpauthUri } = response.body as { secret: string; otpauthUri: string };
    expect(secret.length).toBeGreaterThanOrEqual(16);
    const uri = new URL(otpauthUri);
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe(MFA_ISSUER);
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);

    // Pending until confirmed: login still signs in without a second step.
    const stored = await storedUser(user);
    expect(stored).toMatchObject({ mfaEnabled: false, mfaSecret: null, mfaPendingSecret: secret });
  });

  it("answers 403 to an account whose email is not verified, and stores no secret", async () => {
    const user = await buildUser(app, { verified: false });
    const response = await app.http().post(`${MFA}/setup`).set(bearer(user)).send({});
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: "FORBIDDEN", message: expect.any(String) });
    expect((await storedUser(user))?.mfaPendingSecret).toBeNull();
  });

  it("answers 401 without a bearer token", async () => {
    const response = await app.http().post(`${MFA}/setup`).send({});
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  });

  it("never shows the secret in a user response, pending or enabled", async () => {
    const user = await buildUser(app);
    const secret = await setupMfa(user);
    const admin = await loginBootstrapAdmin(app);

    const pending = await app.http().get("/api/v1/users/current").set(bearer(user));
    expect(pending.status).toBe(200);
    expectNoSecretIn(pending.body, secret);

    const enabled = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, currentStep()) });
    expect(enabled.status).toBe(200);
    expectNoSecretIn(enabled.body, secret);

    const responses = await Promise.all([
      app.http().get("/api/v1/users/current").set(bearer(user)),
      app.http().get("/api/v1/users?limit=100").set(bearer(admin)),
      app.http().get(`/api/v1/users/${user.id}`).set(bearer(admin)),
      app.http().post(`${AUTH}/login`).send({ email: user.email, password: user.password }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(200);
      expectNoSecretIn(response.body, secret);
    }
    const currentUser = await app.graphql(CurrentUserDocument, {}, user.token);
    expect(currentUser.errors).toBeUndefined();
    expectNoSecretIn(currentUser, secret);
  });

  it("replaces a pending secret when called again, so the old secret's codes no longer enable", async () => {
    const user = await buildUser(app);
    const first = await setupMfa(user);
    const second = await setupMfa(user);
    expect(second).not.toBe(first);

    const stale = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await codeAt(first, currentStep()) });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ code: "INVALID_TOKEN" });
    expect((await storedUser(user))?.mfaEnabled).toBe(false);
  });
});

describe("POST /auth/mfa/enable", () => {
  it("refuses a wrong code with 400 INVALID_TOKEN and leaves MFA off", async () => {
    const user = await buildUser(app);
    const secret = await setupMfa(user);
    const response = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await wrongCode(secret) });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
    expect(await storedUser(user)).toMatchObject({
      mfaEnabled: false,
      mfaSecret: null,
      mfaPendingSecret: secret,
    });
    const current = await app.http().get("/api/v1/users/current").set(bearer(user));
    expect(current.body.user.mfaEnabled).toBe(false);
  });

  it.each([["12345"], ["1234567"], ["abcdef"], [""]])(
    "refuses the malformed code %j with 400 VALIDATION_ERROR on path code",
    async (code) => {
      const user = await buildUser(app);
      await setupMfa(user);
      const response = await app.http().post(`${MFA}/enable`).set(bearer(user)).send({ code });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
      expect(response.body.errors).toEqual([{ path: "code", message: expect.any(String) }]);
      expect((await storedUser(user))?.mfaEnabled).toBe(false);
    },
  );

  it("ends the caller's other sessions, keeping the caller's own", async () => {
    const user = await buildUser(app);
    const other = await login(app, user.email, user.password);
    const code = await codeAt(await setupMfa(user), currentStep());
    expect((await app.http().post(`${MFA}/enable`).set(bearer(user)).send({ code })).status).toBe(
      200,
    );
    const current = (token: string) =>
      app.http().get("/api/v1/users/current").set(bearer({ token }));
    expect((await current(other.token)).status).toBe(401);
    expect((await current(user.token)).status).toBe(200);
  });

  it("answers 400 BAD_REQUEST without a setup first", async () => {
    const user = await buildUser(app);
    const response = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: "123456" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) });
    expect((await storedUser(user))?.mfaEnabled).toBe(false);
  });

  it("answers 401 without a bearer token", async () => {
    const response = await app.http().post(`${MFA}/enable`).send({ code: "123456" });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });

  it("turns MFA on with the current code and answers with the user", async () => {
    const user = await buildUser(app);
    const secret = await setupMfa(user);
    const response = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, currentStep()) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
      user: { id: user.id, email: user.email, mfaEnabled: true },
    });
    expect(await storedUser(user)).toMatchObject({
      mfaEnabled: true,
      mfaSecret: secret,
      mfaPendingSecret: null,
    });
  });

  it("answers 409 to setup and to enable once MFA is on, keeping the active secret", async () => {
    const { user, secret, step } = await buildMfaUser();
    const setup = await app.http().post(`${MFA}/setup`).set(bearer(user)).send({});
    expect(setup.status).toBe(409);
    expect(setup.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });

    const enable = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, step + 1) });
    expect(enable.status).toBe(409);
    expect(enable.body.code).toBe("CONFLICT");

    expect(await storedUser(user)).toMatchObject({
      mfaEnabled: true,
      mfaSecret: secret,
      mfaPendingSecret: null,
    });
  });
});

describe("POST /auth/login with MFA on", () => {
  it("answers mfaRequired with an mfaToken, and no access token, user or refresh cookie", async () => {
    const { user } = await buildMfaUser();
    const sessionsBefore = await rawDb(app).sessions.countDocuments({ userId: user.id });
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: user.password });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      mfaRequired: true,
      mfaToken: expect.any(String),
    });
    expect(response.body).not.toHaveProperty("accessToken");
    expect(response.body).not.toHaveProperty("user");
    expect(hasRefreshCookie(response.headers["set-cookie"])).toBe(false);
    expect(await rawDb(app).sessions.countDocuments({ userId: user.id })).toBe(sessionsBefore);
  });

  it("still refuses a wrong password with 401 INVALID_CREDENTIALS", async () => {
    const { user } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: "Wrong#Pass1" });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("INVALID_CREDENTIALS");
    expect(response.body).not.toHaveProperty("mfaToken");
  });
});

describe("POST /auth/mfa/verify", () => {
  it("signs in with a code of a later step: access token, user and refresh cookie", async () => {
    const { user, secret, step } = await buildMfaUser();
    const mfaToken = await passwordStep(user);
    const sessionsBefore = await rawDb(app).sessions.countDocuments({ userId: user.id });

    const response = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken, code: await codeAt(secret, step + 1) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
      accessToken: expect.any(String),
      mfaRequired: false,
      user: { id: user.id, email: user.email, mfaEnabled: true },
    });
    expect(response.body).not.toHaveProperty("mfaToken");
    expect(hasRefreshCookie(response.headers["set-cookie"])).toBe(true);
    expect(await rawDb(app).sessions.countDocuments({ userId: user.id })).toBe(sessionsBefore + 1);

    const current = await app
      .http()
      .get("/api/v1/users/current")
      .set({ authorization: `Bearer ${response.body.accessToken}` });
    expect(current.status).toBe(200);
    expect(current.body.user.id).toBe(user.id);
  });

  it("refuses a wrong code with 401 INVALID_CREDENTIALS and keeps the mfaToken usable", async () => {
    const { user, secret, step } = await buildMfaUser();
    const mfaToken = await passwordStep(user);
    const sessionsBefore = await rawDb(app).sessions.countDocuments({ userId: user.id });

    const wrong = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken, code: await wrongCode(secret) });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "INVALID_CREDENTIALS", message: expect.any(String) });
    expect(wrong.body).not.toHaveProperty("accessToken");
    expect(hasRefreshCookie(wrong.headers["set-cookie"])).toBe(false);
    expect(await rawDb(app).sessions.countDocuments({ userId: user.id })).toBe(sessionsBefore);

    const right = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken, code: await codeAt(secret, step + 1) });
    expect(right.status).toBe(200);
    expect(right.body.accessToken).toEqual(expect.any(String));
  });

  it("accepts a code once: the code that enabled MFA and a code already used give 401", async () => {
    const { user, secret, step } = await buildMfaUser();

    const enablingCode = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: await passwordStep(user), code: await codeAt(secret, step) });
    expect(enablingCode.status).toBe(401);
    expect(enablingCode.body.code).toBe("INVALID_CREDENTIALS");

    const code = await codeAt(secret, step + 1);
    const first = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: await passwordStep(user), code });
    expect(first.status).toBe(200);

    const replay = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: await passwordStep(user), code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("INVALID_CREDENTIALS");
    expect(replay.body).not.toHaveProperty("accessToken");
    expect(hasRefreshCookie(replay.headers["set-cookie"])).toBe(false);
  });

  it("spends the mfaToken on the sign-in it gave: a second verify with it is refused", async () => {
    // Both verifies carry a code the server accepts, so only the spent token can refuse the
    // second: MFA is enabled with the previous step's code (within the one-step tolerance),
    // which leaves this step's and the next one's. Enabled early enough in a step that the
    // previous one is still in reach.
    const user = await buildUser(app);
    const secret = await setupMfa(user);
    while ((Date.now() / 1000) % PERIOD_SECONDS > PERIOD_SECONDS - 5) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const step = currentStep();
    const enabled = await app
      .http()
      .post(`${MFA}/enable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, step - 1) });
    expect(enabled.status).toBe(200);
    const mfaToken = await passwordStep(user);
    const first = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken, code: await codeAt(secret, step) });
    expect(first.status).toBe(200);
    const sessionsBefore = await rawDb(app).sessions.countDocuments({ userId: user.id });

    const again = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken, code: await codeAt(secret, step + 1) });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "INVALID_TOKEN" });
    expect(again.body).not.toHaveProperty("accessToken");
    expect(await rawDb(app).sessions.countDocuments({ userId: user.id })).toBe(sessionsBefore);
  });

  it("answers 400 INVALID_TOKEN to a garbage mfaToken", async () => {
    const response = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: "not-a-token", code: "123456" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
  });

  it("answers 400 INVALID_TOKEN to an expired mfaToken, even with the right code", async () => {
    const { user, secret, step } = await buildMfaUser();
    // The id of the token the password step issued: the only one the account will spend.
    const { jti } = jwt.decode(await passwordStep(user)) as { jti: string };
    const mfaTokenExpiringAt = (exp: number) =>
      jwt.sign({ typ: "mfa", ua: null, exp }, TEST_JWT_SECRET, {
        algorithm: "HS256",
        subject: user.id,
        jwtid: jti,
      });
    const nowSeconds = Math.floor(Date.now() / 1000);
    const response = await app
      .http()
      .post(`${MFA}/verify`)
      .send({
        mfaToken: mfaTokenExpiringAt(nowSeconds - 60),
        code: await codeAt(secret, step + 1),
      });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("INVALID_TOKEN");
    expect(response.body).not.toHaveProperty("accessToken");

    // The same token unexpired is accepted, and the code was not spent by the refused attempt.
    const unexpired = await app
      .http()
      .post(`${MFA}/verify`)
      .send({
        mfaToken: mfaTokenExpiringAt(nowSeconds + 60),
        code: await codeAt(secret, step + 1),
      });
    expect(unexpired.status).toBe(200);
    expect(unexpired.body.user.id).toBe(user.id);
  });

  it("answers 400 INVALID_TOKEN to an access token given as the mfaToken", async () => {
    const { user, secret, step } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: user.token, code: await codeAt(secret, step + 1) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("INVALID_TOKEN");
    expect(response.body).not.toHaveProperty("accessToken");
  });

  it("does not accept an mfaToken as a bearer access token (401)", async () => {
    const { user } = await buildMfaUser();
    const mfaToken = await passwordStep(user);
    const response = await app
      .http()
      .get("/api/v1/users/current")
      .set({ authorization: `Bearer ${mfaToken}` });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a malformed code with 400 VALIDATION_ERROR on path code", async () => {
    const { user } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${MFA}/verify`)
      .send({ mfaToken: await passwordStep(user), code: "12ab56" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors).toEqual([{ path: "code", message: expect.any(String) }]);
  });
});

describe("POST /auth/mfa/disable", () => {
  it("refuses a wrong password with 400 VALIDATION_ERROR on path password and keeps MFA on", async () => {
    const { user, secret, step } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${MFA}/disable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, step + 1), password: "Wrong#Pass1" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors).toEqual([{ path: "password", message: expect.any(String) }]);
    expect(await storedUser(user)).toMatchObject({ mfaEnabled: true, mfaSecret: secret });
  });

  it("refuses a wrong code with 400 INVALID_TOKEN and keeps MFA on", async () => {
    const { user, secret } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${MFA}/disable`)
      .set(bearer(user))
      .send({ code: await wrongCode(secret), password: TEST_PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "INVALID_TOKEN", message: expect.any(String) });
    expect(await storedUser(user)).toMatchObject({ mfaEnabled: true, mfaSecret: secret });
  });

  it("turns MFA off with a fresh code and the password; login then signs in directly", async () => {
    const { user, secret, step } = await buildMfaUser();
    const response = await app
      .http()
      .post(`${MFA}/disable`)
      .set(bearer(user))
      .send({ code: await codeAt(secret, step + 1), password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
      user: { id: user.id, mfaEnabled: false },
    });
    expectNoSecretIn(response.body, secret);
    expect(await storedUser(user)).toMatchObject({
      mfaEnabled: false,
      mfaSecret: null,
      mfaPendingSecret: null,
    });

    const login = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ accessToken: expect.any(String), mfaRequired: false });
    expect(login.body).not.toHaveProperty("mfaToken");
    expect(hasRefreshCookie(login.headers["set-cookie"])).toBe(true);
  });

  it("answers 409 when MFA is not on", async () => {
    const user = await buildUser(app);
    const response = await app
      .http()
      .post(`${MFA}/disable`)
      .set(bearer(user))
      .send({ code: "123456", password: TEST_PASSWORD });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
  });

  it("answers 401 without a bearer token", async () => {
    const response = await app
      .http()
      .post(`${MFA}/disable`)
      .send({ code: "123456", password: TEST_PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("MFA through /graphql", () => {
  it("runs setupMfa, enableMfa, login (mfaRequired) and verifyMfa to an access token", async () => {
    const user = await buildUser(app);

    const setup = await app.graphql(SetupMfaDocument, {}, user.token);
    expect(setup.errors).toBeUndefined();
    const { secret, otpauthUri } = setup.data!.setupMfa;
    expect(secret).toMatch(BASE32);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(secret);

    const step = currentStep();
    const enable = await app.graphql(
      EnableMfaDocument,
      { code: await codeAt(secret, step) },
      user.token,
    );
    expect(enable.errors).toBeUndefined();
    expect(enable.data!.enableMfa.user).toMatchObject({ id: user.id, mfaEnabled: true });

    const login = await app.graphql(LoginDocument, {
      email: user.email,
      password: user.password,
    });
    expect(login.errors).toBeUndefined();
    expect(login.data!.login).toMatchObject({
      mfaRequired: true,
      accessToken: null,
      user: null,
      mfaToken: expect.any(String),
    });
    const mfaToken = login.data!.login.mfaToken!;

    const wrong = await app.graphql(VerifyMfaDocument, {
      mfaToken,
      code: await wrongCode(secret),
    });
    expect(wrong.status).toBe(200);
    expect(wrong.data ?? null).toBeNull();
    expect(wrong.errors?.[0].extensions).toMatchObject({
      code: "INVALID_CREDENTIALS",
      status: 401,
    });

    const verify = await app.graphql(VerifyMfaDocument, {
      mfaToken,
      code: await codeAt(secret, step + 1),
    });
    expect(verify.errors).toBeUndefined();
    expect(verify.data!.verifyMfa).toMatchObject({
      mfaRequired: false,
      accessToken: expect.any(String),
      mfaToken: null,
      user: { id: user.id, mfaEnabled: true },
    });

    const current = await app.graphql(CurrentUserDocument, {}, verify.data!.verifyMfa.accessToken!);
    expect(current.errors).toBeUndefined();
    expect(JSON.stringify(current.data)).toContain(user.id);
  });

  it("answers INVALID_TOKEN to an access token given to verifyMfa", async () => {
    const user = await buildUser(app);
    const response = await app.graphql(VerifyMfaDocument, {
      mfaToken: user.token,
      code: "123456",
    });
    expect(response.errors?.[0].extensions).toMatchObject({ code: "INVALID_TOKEN", status: 400 });
  });
});
