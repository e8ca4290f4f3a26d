import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import type { Response } from "supertest";
import { applyAs, bearer, buildUser, login, uniqueEmail } from "../support/factories";
import { TestMailbox } from "../support/mailbox";
import { BOOTSTRAP_ADMIN, type TestApp } from "../support/test-app";
import {
  dropDatabase,
  factoryApp,
  serviceEnv,
  startServiceProcess,
  stopAll,
  type ServiceProcess,
} from "../support/service-process";

/*
 * Issue 6: two separate service processes on one database and one Redis, as behind a load
 * balancer. What one process decides, the other must honour at once. The DB_NAME is this
 * run's own; rate-limit keys in Redis are prefixed with it and deleted afterwards.
 */

const REDIS_URL = "redis://127.0.0.1:6379";
const LOCKOUT_SECONDS = 600;
const ACCOUNT_PER_HOUR = 3;
const WRONG_PASSWORD = "Wrong#Pass1";

const dbName = `t_two_proc_${randomBytes(3).toString("hex")}`;
let redis: Redis;
let mail: TestMailbox;
let processA: ServiceProcess | undefined;
let processB: ServiceProcess | undefined;
let a: TestApp;
let b: TestApp;

async function deleteRateLimitKeys(): Promise<void> {
  const keys = await redis.keys(`${dbName}:rl:*`);
  if (keys.length > 0) await redis.del(...keys);
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  await deleteRateLimitKeys();
  mail = await TestMailbox.start();
  const env = serviceEnv({
    MONGODB_URI: process.env.TEST_MONGODB_URI!,
    DB_NAME: dbName,
    REDIS_URL,
    SMTP_URL: mail.url,
    LOGIN_MAX_FAILURES: "3",
    LOGIN_LOCKOUT_SECONDS: String(LOCKOUT_SECONDS),
    RATE_LIMIT_ACCOUNT_PER_HOUR: String(ACCOUNT_PER_HOUR),
  });
  // One after the other: both bootstrap the same administrator, the second finds it there.
  processA = await startServiceProcess(env);
  processB = await startServiceProcess(env);
  a = factoryApp(processA, mail);
  b = factoryApp(processB, mail);
}, 90_000);

afterAll(async () => {
  await stopAll([processA, processB]);
  await mail?.close();
  await deleteRateLimitKeys();
  await redis.quit();
  await dropDatabase(process.env.TEST_MONGODB_URI!, dbName);
}, 30_000);

/** 429 in the REST error envelope with an integer Retry-After of at most maxSeconds. */
function expectTooManyRequests(response: Response, maxSeconds: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  const retryAfter = response.headers["retry-after"] as string | undefined;
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxSeconds);
}

const signIn = (app: TestApp, email: string, password: string) =>
  app.http().post("/api/v1/auth/login").send({ email, password });

const forgotPassword = (app: TestApp) =>
  app
    .http()
    .post("/api/v1/auth/forgot-password")
    .send({ email: uniqueEmail("forgot") });

const adminToken = async (app: TestApp) =>
  (await login(app, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password)).token;

/** The ids GET /members lists for `query`, as `token` on `app`. */
async function memberIds(app: TestApp, token: string, query: Record<string, string>) {
  const response = await app.http().get("/api/v1/members").query(query).set(bearer({ token }));
  expect(response.status).toBe(200);
  return (response.body.data as { id: string }[]).map((record) => record.id);
}

describe("two service processes on one database and one Redis", () => {
  it("runs as two processes with their own ports and pids", () => {
    expect(processA!.port).not.toBe(processB!.port);
    expect(processA!.child.pid).not.toBe(processB!.child.pid);
    expect(processA!.hasExited() || processB!.hasExited()).toBe(false);
  });

  it("locks an account on B after the failed logins made on A (429 with Retry-After)", async () => {
    const user = await buildUser(a);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failed = await signIn(a, user.email, WRONG_PASSWORD);
      expect(failed.status).toBe(401);
      expect(failed.body).toMatchObject({ code: "INVALID_CREDENTIALS" });
    }
    const onB = await signIn(b, user.email, user.password);
    expectTooManyRequests(onB, LOCKOUT_SECONDS);
    expect(onB.body).not.toHaveProperty("accessToken");
    expectTooManyRequests(await signIn(a, user.email, user.password), LOCKOUT_SECONDS);
  }, 30_000);

  it("shares an account bucket: forgot-password calls split over A and B are refused on both once over", async () => {
    expect((await forgotPassword(a)).status).toBe(200);
    expect((await forgotPassword(b)).status).toBe(200);
    expect((await forgotPassword(a)).status).toBe(200);
    expectTooManyRequests(await forgotPassword(b), 3600);
    expectTooManyRequests(await forgotPassword(a), 3600);
  }, 30_000);

  it("refuses on B at once a token logged out on A", async () => {
    const token = await adminToken(b);
    expect((await a.http().get("/api/v1/users/current").set(bearer({ token }))).status).toBe(200);
    expect((await b.http().get("/api/v1/users/current").set(bearer({ token }))).status).toBe(200);

    expect((await a.http().delete("/api/v1/auth/logout").set(bearer({ token }))).status).toBe(200);
    const onB = await b.http().get("/api/v1/users/current").set(bearer({ token }));
    expect(onB.status).toBe(401);
    expect(onB.body).toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await a.http().get("/api/v1/users/current").set(bearer({ token }))).status).toBe(401);
  }, 30_000);

  it("lists on B at once an application made on A, and filters on A by a status set on B", async () => {
    const lastName = `Twoproc${randomBytes(4).toString("hex")}`;
    const tokenA = await adminToken(a);
    const tokenB = await adminToken(b);
    // Both directories are loaded (and now only follow changes) before the writes.
    expect(await memberIds(b, tokenB, { search: lastName })).toEqual([]);
    expect(await memberIds(a, tokenA, { status: "PENDING", search: lastName })).toEqual([]);

    const applicant = await buildUser(a);
    const record = await applyAs(a, applicant, { lastName });
    expect(record.status).toBe("PENDING");

    expect(await memberIds(b, tokenB, { search: lastName })).toEqual([record.id]);
    expect(await memberIds(b, tokenB, { status: "PENDING", search: lastName })).toEqual([
      record.id,
    ]);

    const approved = await b
      .http()
      .patch(`/api/v1/members/${record.id}/status`)
      .set(bearer({ token: tokenB }))
      .send({ status: "APPROVED" });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id: record.id, status: "APPROVED" });

    expect(await memberIds(a, tokenA, { status: "APPROVED", search: lastName })).toEqual([
      record.id,
    ]);
    expect(await memberIds(a, tokenA, { status: "PENDING", search: lastName })).toEqual([]);
  }, 30_000);
});
