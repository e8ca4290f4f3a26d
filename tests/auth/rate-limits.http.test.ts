import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import type { Response } from "supertest";
import { ForgotPasswordDocument, LoginDocument } from "../graphql/generated";
import { bearer, buildUser, uniqueEmail } from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import { BOOTSTRAP_ADMIN, startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

/*
 * The rate limits (src/rate-limits/) seen from outside, over HTTP on real apps whose limits are set
 * low through the environment (startTestApp relaxes them by default). Every request comes
 * from 127.0.0.1, so "per IP" means "per app" here, or per Redis key prefix when shared.
 */

const AUTH = "/api/v1/auth";
const REDIS_URL = "redis://127.0.0.1:6379";
const LOCKOUT_SECONDS = 600;
const WRONG_PASSWORD = "Wrong#Pass1";

/** 429 in the REST error envelope with an integer Retry-After of at most maxSeconds. */
function expectTooManyRequests(response: Response, maxSeconds: number): void {
  expect(response.status).toBe(429);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({
    code: "TOO_MANY_REQUESTS",
    message: expect.stringMatching(/try again in \d+ seconds?/),
  });
  const retryAfter = response.headers["retry-after"] as string | undefined;
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxSeconds);
}

function expectInvalidCredentials(response: Response): void {
  expect(response.status).toBe(401);
  expect(response.body).toMatchObject({ code: "INVALID_CREDENTIALS" });
}

const login = (app: TestApp, email: string, password: string) =>
  app.http().post(`${AUTH}/login`).send({ email, password });

const forgotPassword = (app: TestApp, email = uniqueEmail("forgot")) =>
  app.http().post(`${AUTH}/forgot-password`).send({ email });

const resendVerification = (app: TestApp, email = uniqueEmail("resend")) =>
  app.http().post(`${AUTH}/resend-email-verification`).send({ email });

const register = (app: TestApp, email = uniqueEmail("register")) =>
  app.http().post(`${AUTH}/register`).send({ name: "Rate Limited", email, password: "Secret#123" });

const verifyEmail = (app: TestApp, code: string) =>
  app.http().post(`${AUTH}/verify-email`).send({ code });

async function failLogins(app: TestApp, email: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1)
    expectInvalidCredentials(await login(app, email, WRONG_PASSWORD));
}

async function expectStatusTimes(
  count: number,
  request: () => Promise<Response>,
  status: number,
): Promise<void> {
  for (let i = 0; i < count; i += 1) expect((await request()).status).toBe(status);
}

describe("login lockout (LOGIN_MAX_FAILURES=3)", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      LOGIN_MAX_FAILURES: "3",
      LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
    });
  });
  afterAll(() => app?.close());

  it("answers 429 with Retry-After to the 4th attempt, even with the right password", async () => {
    const user = await buildUser(app);
    const sessionsBefore = await rawDb(app).sessions.countDocuments({ userId: user.id });

    await failLogins(app, user.email, 3);
    const locked = await login(app, user.email, user.password);
    expectTooManyRequests(locked, LOCKOUT_SECONDS);
    expect(locked.body).not.toHaveProperty("accessToken");
    expect(locked.headers["set-cookie"]).toBeUndefined();
    expect(await rawDb(app).sessions.countDocuments({ userId: user.id })).toBe(sessionsBefore);

    const overGraphql = await app.graphql(LoginDocument, {
      email: user.email,
      password: user.password,
    });
    expect(overGraphql.status).toBe(200);
    expect(overGraphql.errors?.[0].extensions).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      status: 429,
    });
  });

  it("locks one email only: another account from the same IP still signs in", async () => {
    const locked = await buildUser(app);
    const other = await buildUser(app);
    await failLogins(app, locked.email, 3);
    expectTooManyRequests(await login(app, locked.email, locked.password), LOCKOUT_SECONDS);

    const response = await login(app, other.email, other.password);
    expect(response.status).toBe(200);
    expect(response.body.accessToken).toEqual(expect.any(String));
  });

  it("forgets the failures after a success below the limit", async () => {
    const user = await buildUser(app);
    await failLogins(app, user.email, 2);
    expect((await login(app, user.email, user.password)).status).toBe(200);
    await failLogins(app, user.email, 2);
    const response = await login(app, user.email, user.password);
    expect(response.status).toBe(200);
    expect(response.body.accessToken).toEqual(expect.any(String));
  });

  it("counts failures for an unknown email the same way", async () => {
    const unknown = uniqueEmail("nobody");
    await failLogins(app, unknown, 3);
    expectTooManyRequests(await login(app, unknown, WRONG_PASSWORD), LOCKOUT_SECONDS);
  });
});

describe("login lockout under a burst (LOGIN_MAX_FAILURES=3, a production-like hash)", () => {
  let app: TestApp;

  // The race is as wide as one comparison: with the tests' cheap hash it closes before the
  // next request of a burst is read, with a production cost the whole burst arrives inside it.
  beforeAll(async () => {
    app = await startTestApp({
      LOGIN_MAX_FAILURES: "3",
      LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
      BCRYPT_COST: "12",
    });
  });
  afterAll(() => app?.close());

  it("compares no more than the limit of a burst of 30 wrong passwords; the right one after is refused", async () => {
    const user = await buildUser(app);
    // Started here (supertest sends on then), so the right password is part of the burst.
    const send = (password: string) => login(app, user.email, password).then((answer) => answer);
    const burst = Array.from({ length: 30 }, () => send(WRONG_PASSWORD));
    const right = send(user.password);
    const answers = await Promise.all(burst);
    const compared = answers.filter((answer) => answer.status === 401);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(compared.length).toBeLessThanOrEqual(3);
    expect(compared.length + refused.length).toBe(30);
    expectTooManyRequests(await right, LOCKOUT_SECONDS);
    expectTooManyRequests(await login(app, user.email, user.password), LOCKOUT_SECONDS);
  });
});

describe("account endpoint buckets (RATE_LIMIT_ACCOUNT_PER_HOUR=3)", () => {
  let app: TestApp;

  // Every test exhausts a bucket of 127.0.0.1, so each gets a fresh app (fresh counters).
  beforeEach(async () => {
    app = await startTestApp({ RATE_LIMIT_ACCOUNT_PER_HOUR: "3" });
  });
  afterEach(() => app.close());

  it("forgot-password answers 200 three times, then 429; the other buckets are untouched", async () => {
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await forgotPassword(app));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0].body);
    }
    expectTooManyRequests(await forgotPassword(app), 3600);
    expectTooManyRequests(await forgotPassword(app, BOOTSTRAP_ADMIN.email), 3600);

    expect((await resendVerification(app)).status).toBe(200);
    expect((await register(app)).status).toBe(200);
    const verify = await verifyEmail(app, "ZZZZZZZZ");
    expect(verify.status).toBe(400);
    expect(verify.body.code).toBe("INVALID_TOKEN");
  });

  it("register answers 200 three times, then 429 and creates no account", async () => {
    await expectStatusTimes(3, () => register(app), 200);
    const email = uniqueEmail("fourth");
    const refused = await register(app, email);
    expectTooManyRequests(refused, 3600);
    expect(refused.body).not.toHaveProperty("user");
    expect(await rawDb(app).users.countDocuments({ email })).toBe(0);

    expect((await forgotPassword(app)).status).toBe(200);
    expect((await resendVerification(app)).status).toBe(200);
  });

  it("resend-email-verification answers 200 three times, then 429", async () => {
    await expectStatusTimes(3, () => resendVerification(app), 200);
    expectTooManyRequests(await resendVerification(app), 3600);
    expect((await forgotPassword(app)).status).toBe(200);
  });

  it("verify-email counts every attempt; the 4th is refused even with the right code", async () => {
    const email = uniqueEmail("verify");
    const mailsBefore = app.mail.messages.length;
    expect((await register(app, email)).status).toBe(200);
    const mail = await app.mail.waitFor(email, {
      subject: /verification code/i,
      after: mailsBefore,
    });
    const code = verificationCodeIn(mail);

    for (let i = 0; i < 3; i += 1) {
      const wrong = await verifyEmail(app, "ZZZZZZZZ");
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe("INVALID_TOKEN");
    }
    expectTooManyRequests(await verifyEmail(app, code), 3600);
    const stored = await rawDb(app).users.findOne({ email }).lean();
    expect(stored?.isEmailVerified).toBeFalsy();

    expect((await resendVerification(app)).status).toBe(200);
  });

  it("shares a bucket between REST and /graphql", async () => {
    await expectStatusTimes(2, () => forgotPassword(app), 200);
    const third = await app.graphql(ForgotPasswordDocument, { email: uniqueEmail("gql") });
    expect(third.errors).toBeUndefined();
    expect(third.data?.forgotPassword.code).toEqual(expect.any(String));

    const fourth = await app.graphql(ForgotPasswordDocument, { email: uniqueEmail("gql") });
    expect(fourth.status).toBe(200);
    expect(fourth.data ?? null).toBeNull();
    expect(fourth.errors?.[0].extensions).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      status: 429,
    });
    expect(fourth.errors?.[0].message).toMatch(/try again in \d+ seconds?/);
    expectTooManyRequests(await forgotPassword(app), 3600);
  });
});

describe("global per-IP limit (RATE_LIMIT_PER_MINUTE=5)", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_PER_MINUTE: "5" });
  });
  afterAll(() => app?.close());

  it("answers 429 to the 6th request of the minute on any endpoint, never to /health", async () => {
    // The health probe does not draw from the budget...
    await expectStatusTimes(8, () => app.http().get("/api/v1/health"), 200);

    await expectStatusTimes(5, () => app.http().get("/api/v1/branch-service"), 200);
    expectTooManyRequests(await app.http().get("/api/v1/branch-service"), 60);
    expectTooManyRequests(await login(app, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password), 60);
    expectTooManyRequests(
      await app
        .http()
        .post("/graphql")
        .set("content-type", "application/json")
        .send({ query: "{ __typename }" }),
      60,
    );
    expectTooManyRequests(await app.http().get("/api/v1/no-such-route"), 60);

    // ...and still answers once the budget is spent.
    const health = await app.http().get("/api/v1/health");
    expect(health.status).toBe(200);
  });
});

/** Deletes every rate-limit key of a deployment (prefix = its database name). */
async function deleteRateLimitKeys(redis: Redis, dbName: string): Promise<void> {
  const keys = await redis.keys(`${dbName}:rl:*`);
  if (keys.length > 0) await redis.del(...keys);
}

const sharedDbName = (label: string) => `t_rl_${label}_${randomBytes(3).toString("hex")}`;

describe("two instances sharing Redis (REDIS_URL, same database)", () => {
  const dbName = sharedDbName("shared");
  const env = {
    REDIS_URL,
    DB_NAME: dbName,
    LOGIN_MAX_FAILURES: "3",
    LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
    RATE_LIMIT_ACCOUNT_PER_HOUR: "3",
  };
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await deleteRateLimitKeys(redis, dbName);
    // Both bootstrap the same administrator; the second finds it already there.
    first = await startTestApp(env);
    second = await startTestApp(env);
  });
  afterAll(async () => {
    // close() drops the shared database; dropping it again from the second is a no-op.
    await first?.close();
    await second?.close();
    await deleteRateLimitKeys(redis, dbName);
    await redis.quit();
  });

  it("counts login failures on one instance toward the lockout on the other", async () => {
    await failLogins(first, BOOTSTRAP_ADMIN.email, 3);
    expect(await redis.keys(`${dbName}:rl:login:*`)).not.toHaveLength(0);

    expectTooManyRequests(
      await login(second, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password),
      LOCKOUT_SECONDS,
    );
    expectTooManyRequests(
      await login(first, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password),
      LOCKOUT_SECONDS,
    );
  });

  it("refuses on the other instance at once a token logged out on one", async () => {
    const user = await buildUser(first);
    expect((await second.http().get("/api/v1/users/current").set(bearer(user))).status).toBe(200);
    expect((await first.http().delete("/api/v1/auth/logout").set(bearer(user))).status).toBe(200);
    const refused = await second.http().get("/api/v1/users/current").set(bearer(user));
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHENTICATED");
  });

  it("shares an account bucket: 2 calls on one, 1 on the other, the 4th is refused on both", async () => {
    await expectStatusTimes(2, () => forgotPassword(first), 200);
    expect((await forgotPassword(second)).status).toBe(200);
    expectTooManyRequests(await forgotPassword(first), 3600);
    expectTooManyRequests(await forgotPassword(second), 3600);
  });
});

describe("two instances without Redis (control)", () => {
  const dbName = sharedDbName("apart");
  const env = {
    DB_NAME: dbName,
    LOGIN_MAX_FAILURES: "3",
    LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
    RATE_LIMIT_ACCOUNT_PER_HOUR: "3",
  };
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp(env);
    second = await startTestApp(env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("keeps each instance's login failures to itself", async () => {
    await failLogins(first, BOOTSTRAP_ADMIN.email, 3);
    expectTooManyRequests(
      await login(first, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password),
      LOCKOUT_SECONDS,
    );
    const other = await login(second, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    expect(other.status).toBe(200);
    expect(other.body.accessToken).toEqual(expect.any(String));
  });

  it("keeps each instance's account buckets to itself", async () => {
    await expectStatusTimes(3, () => forgotPassword(first), 200);
    expectTooManyRequests(await forgotPassword(first), 3600);
    expect((await forgotPassword(second)).status).toBe(200);
  });
});
