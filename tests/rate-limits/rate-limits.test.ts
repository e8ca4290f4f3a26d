import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import pino from "pino";
import type { RateLimitConfig } from "../../src/config";
import { TooManyRequestsError } from "../../src/errors/app-errors";
import { RateLimits, type RateLimitsOptions } from "../../src/rate-limits/rate-limits";

const REDIS_URL = "redis://127.0.0.1:6379";
const DEAD_REDIS_URL = "redis://127.0.0.1:1";

const LIMITS: RateLimitConfig = {
  perMinute: 5,
  accountPerHour: 3,
  publicReadsPerMinute: 4,
  loginFailures: 4,
  loginLockoutSeconds: 900,
};

const silent = pino({ level: "silent" });

/** Awaits the call and returns what it threw, or undefined. */
async function caught(call: Promise<void>): Promise<unknown> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return error;
  }
}

async function expect429(
  call: Promise<void>,
  maxRetryAfter: number,
): Promise<TooManyRequestsError> {
  const error = await caught(call);
  expect(error).toBeInstanceOf(TooManyRequestsError);
  const tooMany = error as TooManyRequestsError;
  expect(tooMany.status).toBe(429);
  expect(tooMany.code).toBe("TOO_MANY_REQUESTS");
  const retryAfter = Number(tooMany.headers?.["Retry-After"]);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  expect(tooMany.message).toContain(`try again in ${retryAfter} second`);
  return tooMany;
}

async function times(count: number, call: () => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i += 1) await call();
}

/** A wrong password as the services go through it: the attempt is reserved, then fails. */
async function failLogin(limits: RateLimits, key: string): Promise<void> {
  await limits.reserveLoginAttempt(key);
  await limits.recordLoginFailure(key);
}

describe("RateLimits in memory", () => {
  let limits: RateLimits;

  beforeEach(() => {
    limits = RateLimits.create({ limits: LIMITS, keyPrefix: "memory-test", log: silent });
  });

  afterEach(() => limits.close());

  it("allows exactly perMinute requests per IP, then answers 429 with Retry-After", async () => {
    await times(LIMITS.perMinute, () => limits.consumeRequest("10.0.0.1"));
    const error = await expect429(limits.consumeRequest("10.0.0.1"), 60);
    expect(error.message).toMatch(/^Too many requests, try again in \d+ seconds?$/);
    await expect(limits.consumeRequest("10.0.0.2")).resolves.toBeUndefined();
  });

  it("keeps every account bucket independent of the others and of the request bucket", async () => {
    await times(LIMITS.accountPerHour, () => limits.consumeAccount("register", "10.0.0.1"));
    await expect429(limits.consumeAccount("register", "10.0.0.1"), 3600);

    await times(LIMITS.accountPerHour, () => limits.consumeAccount("forgotPassword", "10.0.0.1"));
    await expect429(limits.consumeAccount("forgotPassword", "10.0.0.1"), 3600);
    await times(LIMITS.accountPerHour, () =>
      limits.consumeAccount("resendEmailVerification", "10.0.0.1"),
    );
    await times(LIMITS.accountPerHour, () => limits.consumeAccount("verifyEmail", "10.0.0.1"));
    await times(LIMITS.perMinute, () => limits.consumeRequest("10.0.0.1"));
    await expect(limits.consumeAccount("register", "10.0.0.2")).resolves.toBeUndefined();
  });

  it("locks a login key after loginFailures failures until a success resets it", async () => {
    const key = "10.0.0.1|ada@example.org";
    await times(LIMITS.loginFailures - 1, () => failLogin(limits, key));
    await expect(limits.reserveLoginAttempt(key)).resolves.toBeUndefined();

    await limits.recordLoginFailure(key);
    const error = await expect429(limits.reserveLoginAttempt(key), LIMITS.loginLockoutSeconds);
    expect(error.message).toMatch(
      /^Too many failed logins for this account from your address; try again in \d+ seconds?$/,
    );
    expect(Number(error.headers?.["Retry-After"])).toBeGreaterThan(LIMITS.loginLockoutSeconds - 5);

    await limits.resetLoginFailures(key);
    await expect(limits.reserveLoginAttempt(key)).resolves.toBeUndefined();
  });

  it("reserves at most loginFailures attempts of a key however many arrive at once", async () => {
    const key = "10.0.0.1|burst@example.org";
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => limits.reserveLoginAttempt(key)),
    );
    const reserved = outcomes.filter((outcome) => outcome.status === "fulfilled");
    expect(reserved).toHaveLength(LIMITS.loginFailures);
  });

  it("does not count failures of another key", async () => {
    await times(LIMITS.loginFailures, () => failLogin(limits, "10.0.0.1|ada@example.org"));
    await expect(limits.reserveLoginAttempt("10.0.0.1|bob@example.org")).resolves.toBeUndefined();
    await expect(limits.reserveLoginAttempt("10.0.0.2|ada@example.org")).resolves.toBeUndefined();
  });

  it("does not reject logins on the request or account buckets", async () => {
    await times(LIMITS.perMinute, () => limits.consumeRequest("10.0.0.1"));
    await expect(limits.reserveLoginAttempt("10.0.0.1|ada@example.org")).resolves.toBeUndefined();
  });
});

describe("RateLimits on Redis", () => {
  let admin: Redis;
  const opened: RateLimits[] = [];
  const prefixes: string[] = [];

  beforeAll(() => {
    admin = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((limits) => limits.close()));
    for (const prefix of prefixes.splice(0)) {
      const keys = await keysUnder(prefix);
      if (keys.length > 0) await admin.del(...keys);
    }
  });

  afterAll(() => admin.quit());

  function newPrefix(): string {
    const prefix = `rate-limits-test-${randomUUID()}`;
    prefixes.push(prefix);
    return prefix;
  }

  function open(options: Partial<RateLimitsOptions> & { keyPrefix: string }): RateLimits {
    const limits = RateLimits.create({
      limits: LIMITS,
      redisUrl: REDIS_URL,
      log: silent,
      ...options,
    });
    opened.push(limits);
    return limits;
  }

  async function openReady(keyPrefix: string): Promise<RateLimits> {
    const limits = open({ keyPrefix });
    expect(await limits.whenReady()).toBe(true);
    return limits;
  }

  async function keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await admin.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== "0");
    return keys;
  }

  it("shares counts between instances with the same keyPrefix", async () => {
    const prefix = newPrefix();
    const a = await openReady(prefix);
    const b = await openReady(prefix);

    await times(LIMITS.perMinute, () => a.consumeRequest("10.0.0.1"));
    await expect429(b.consumeRequest("10.0.0.1"), 60);

    await times(LIMITS.accountPerHour, () => a.consumeAccount("register", "10.0.0.1"));
    await expect429(b.consumeAccount("register", "10.0.0.1"), 3600);
    await expect(b.consumeAccount("verifyEmail", "10.0.0.1")).resolves.toBeUndefined();
  });

  it("shares the login lockout and its reset between instances", async () => {
    const prefix = newPrefix();
    const a = await openReady(prefix);
    const b = await openReady(prefix);
    const key = "10.0.0.1|ada@example.org";

    await times(LIMITS.loginFailures, () => failLogin(a, key));
    await expect429(b.reserveLoginAttempt(key), LIMITS.loginLockoutSeconds);
    await expect(b.reserveLoginAttempt("10.0.0.1|bob@example.org")).resolves.toBeUndefined();

    await b.resetLoginFailures(key);
    await expect(a.reserveLoginAttempt(key)).resolves.toBeUndefined();
  });

  it("keeps instances with different keyPrefixes apart", async () => {
    const a = await openReady(newPrefix());
    const b = await openReady(newPrefix());

    await times(LIMITS.perMinute, () => a.consumeRequest("10.0.0.1"));
    await expect429(a.consumeRequest("10.0.0.1"), 60);
    await expect(b.consumeRequest("10.0.0.1")).resolves.toBeUndefined();

    await times(LIMITS.loginFailures, () => failLogin(a, "10.0.0.1|ada@example.org"));
    await expect(b.reserveLoginAttempt("10.0.0.1|ada@example.org")).resolves.toBeUndefined();
  });

  it("stores login keys hashed, never the email address", async () => {
    const prefix = newPrefix();
    const limits = await openReady(prefix);

    await failLogin(limits, "10.0.0.1|ada@example.org");
    await limits.consumeRequest("10.0.0.1");

    const keys = await keysUnder(prefix);
    expect(keys).toHaveLength(2);
    expect(keys).toContain(`${prefix}:rl:request:10.0.0.1`);
    expect(keys.some((key) => /^.+:rl:login:[0-9a-f]{32}$/.test(key))).toBe(true);
    for (const key of keys) {
      expect(key).not.toContain("@");
      expect(key).not.toContain("ada");
    }
  });

  it("answers from the insurance limiter while Redis is unreachable, logging once", async () => {
    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const limits = open({ keyPrefix: newPrefix(), redisUrl: DEAD_REDIS_URL, log });

    await times(LIMITS.perMinute, () => limits.consumeRequest("10.0.0.1"));
    await expect429(limits.consumeRequest("10.0.0.1"), 60);

    await times(LIMITS.accountPerHour, () => limits.consumeAccount("register", "10.0.0.1"));
    await expect429(limits.consumeAccount("register", "10.0.0.1"), 3600);

    const key = "10.0.0.1|ada@example.org";
    await times(LIMITS.loginFailures, () => failLogin(limits, key));
    await expect429(limits.reserveLoginAttempt(key), LIMITS.loginLockoutSeconds);
    await limits.resetLoginFailures(key);
    await expect(limits.reserveLoginAttempt(key)).resolves.toBeUndefined();

    // Several reconnects fail during this second; the throttle keeps them to one warning.
    expect(await limits.whenReady(1000)).toBe(false);
    const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/Redis unreachable/);
  });
});
