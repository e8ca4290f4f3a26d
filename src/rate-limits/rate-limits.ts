// Past the usual size on purpose: every bucket (per address, public reads, account actions,
// logins, uploads) shares one Redis client and one refusal shape, kept together here.
import { createHash } from "node:crypto";
import Redis from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { RateLimitConfig } from "../config";
import { TooManyRequestsError } from "../errors/app-errors";
import type { Logger } from "../logger";

export type AccountBucket =
  "register" | "forgotPassword" | "resendEmailVerification" | "verifyEmail";

export interface RateLimitsOptions {
  limits: RateLimitConfig;
  redisUrl?: string;
  /** namespaces keys, e.g. the database name, so instances of one deployment share and others don't */
  keyPrefix: string;
  log: Logger;
}

type Bucket = "request" | "publicRead" | "login" | "upload" | AccountBucket;

const ACCOUNT_BUCKETS: readonly AccountBucket[] = [
  "register",
  "forgotPassword",
  "resendEmailVerification",
  "verifyEmail",
];

/** A hung Redis must not hold every request hostage; past this the insurance limiter answers. */
const REDIS_COMMAND_TIMEOUT_MS = 1000;
/** See connectRedis: bounds how long close() takes on a broken connection. */
const DISCONNECT_TIMEOUT_MS = 200;
/** A dead Redis fails every reconnect attempt; one line per interval is enough to notice. */
const WARN_INTERVAL_MS = 60_000;

/**
 * The rate limits (README.md, "Configuration"). In memory by default; with a Redis URL the
 * counters are shared by every instance using the same keyPrefix, and each limiter falls back to
 * an in-memory twin while Redis is unreachable, so an outage loosens limits to per-instance
 * instead of failing requests.
 */
export class RateLimits {
  private readonly storeFailures: ThrottledWarning;

  private constructor(
    private readonly limits: RateLimitConfig,
    private readonly limiters: Record<Bucket, RateLimiterAbstract>,
    private readonly client: Redis | undefined,
    log: Logger,
  ) {
    this.storeFailures = new ThrottledWarning(log);
  }

  static create(options: RateLimitsOptions): RateLimits {
    const { limits, keyPrefix, log } = options;
    const client = options.redisUrl === undefined ? undefined : connectRedis(options.redisUrl, log);
    const limiter = (bucket: Bucket, points: number, duration: number): RateLimiterAbstract =>
      createLimiter({ keyPrefix: `${keyPrefix}:rl:${bucket}`, points, duration }, client);
    const account = Object.fromEntries(
      ACCOUNT_BUCKETS.map((bucket) => [bucket, limiter(bucket, limits.accountPerHour, 3600)]),
    ) as Record<AccountBucket, RateLimiterAbstract>;
    const limiters = {
      ...account,
      request: limiter("request", limits.perMinute, 60),
      publicRead: limiter("publicRead", limits.publicReadsPerMinute, 60),
      login: limiter("login", limits.loginFailures, limits.loginLockoutSeconds),
      upload: limiter("upload", limits.uploadsPerHour ?? 120, 3600),
    };
    return new RateLimits(limits, limiters, client, log);
  }

  /** Every request: limits.perMinute per IP per 60 s. */
  async consumeRequest(ip: string): Promise<void> {
    await this.consume(this.limiters.request, ip);
  }

  /**
   * A public cached read (`@Rest(…, { publicCache: true })`): limits.publicReadsPerMinute per
   * IP per 60 s, one bucket for every such route, counted besides the per-request limit.
   */
  async consumePublicRead(ip: string): Promise<void> {
    await this.consume(this.limiters.publicRead, ip);
  }

  /** `count` public reads at once from the same bucket: a /graphql document's public root fields. */
  async consumePublicReads(ip: string, count: number): Promise<void> {
    await this.consume(this.limiters.publicRead, ip, count);
  }

  /** register / forgot-password / resend / verify-email: limits.accountPerHour per IP per hour, each bucket its own counter. */
  async consumeAccount(bucket: AccountBucket, ip: string): Promise<void> {
    await this.consume(this.limiters[bucket], ip);
  }

  /** POST /files: limits.uploadsPerHour per account per hour. */
  async consumeUpload(accountId: string): Promise<void> {
    await this.consume(this.limiters.upload, accountId);
  }

  /**
   * Takes one of the key's limits.loginFailures attempts before the password is compared, in
   * one atomic step of the store, so however many arrive at once no more than the limit are
   * ever compared in a window. Throws once they are all taken, even for the right password.
   * The attempt stays counted unless it succeeds (resetLoginFailures).
   */
  async reserveLoginAttempt(key: string): Promise<void> {
    try {
      await this.limiters.login.consume(hashLoginKey(key));
    } catch (error) {
      if (error instanceof RateLimiterRes) throw tooManyLoginFailures(error.msBeforeNext);
      this.storeFailed(error);
    }
  }

  /**
   * Runs the comparison of a reserved attempt; when it is refused before comparing (the
   * hashing queue is full, a TooManyRequestsError), the attempt is given back, as no password
   * was tried.
   */
  async releasedIfRefused<T>(key: string, compare: () => Promise<T>): Promise<T> {
    try {
      return await compare();
    } catch (error) {
      if (error instanceof TooManyRequestsError) {
        await this.failOpen(() => this.limiters.login.reward(hashLoginKey(key), 1), null);
      }
      throw error;
    }
  }

  /** The reserved attempt failed: the one that uses up the window locks the key. */
  async recordLoginFailure(key: string): Promise<void> {
    const hashed = hashLoginKey(key);
    const state = await this.failOpen(() => this.limiters.login.get(hashed), null);
    if (state !== null && state.consumedPoints >= this.limits.loginFailures) {
      // The lockout lasts a full loginLockoutSeconds from the failure that triggered it, not
      // whatever is left of the window opened by the first failure.
      await this.failOpen(
        () => this.limiters.login.block(hashed, this.limits.loginLockoutSeconds),
        null,
      );
    }
  }

  /** A success: forget the key's failures. */
  async resetLoginFailures(key: string): Promise<void> {
    await this.failOpen(() => this.limiters.login.delete(hashLoginKey(key)), false);
  }

  /**
   * Resolves true once the shared store is usable (at once in memory mode), false if Redis
   * did not become ready within timeoutMs; until then the in-memory insurance answers.
   */
  async whenReady(timeoutMs = 5000): Promise<boolean> {
    const client = this.client;
    if (client === undefined || client.status === "ready") return true;
    return new Promise<boolean>((resolve) => {
      const onReady = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        client.off("ready", onReady);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      client.once("ready", onReady);
    });
  }

  /** Quits the Redis client if any; safe to call twice. */
  async close(): Promise<void> {
    const client = this.client;
    if (client === undefined || client.status === "end") return;
    if (client.status === "ready") {
      try {
        await client.quit();
        return;
      } catch {
        // The connection broke while quitting; dropping it is all that is left to do.
      }
    }
    await disconnect(client);
  }

  private async consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<void> {
    try {
      await limiter.consume(key, points);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext);
      this.storeFailed(error);
    }
  }

  /**
   * rate-limiter-flexible rejects with a RateLimiterRes when a limit is hit and with an Error
   * when the store fails. Store errors normally never get here (the insurance limiter takes
   * over); if one does, letting the request through beats answering 429 or 500 for a fault
   * that is ours, not the client's.
   */
  private async failOpen<T>(operation: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.storeFailed(error);
      return fallback;
    }
  }

  private storeFailed(error: unknown): void {
    this.storeFailures.warn(error, "Rate-limit store failed; the request was let through");
  }
}

function createLimiter(
  settings: { keyPrefix: string; points: number; duration: number },
  client: Redis | undefined,
): RateLimiterAbstract {
  const memory = new RateLimiterMemory(settings);
  if (client === undefined) return memory;
  return new RateLimiterRedis({
    ...settings,
    storeClient: client,
    // Skip the round trip to a client known to be down and go straight to the insurance.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

function connectRedis(url: string, log: Logger): Redis {
  const client = new Redis(url, {
    // Fail commands at once while disconnected so the insurance limiter answers instead of
    // requests queueing behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // close() only disconnects (rather than quits) a connection that is already broken, and
    // ioredis then keeps a timer this long for a socket that will never close again.
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
  });
  const warnings = new ThrottledWarning(log);
  let failing = false;
  // Without a listener ioredis prints every failed reconnect; the URL is never logged as it
  // may carry a password.
  client.on("error", (error: Error) => {
    failing = true;
    warnings.warn(error, "Rate-limit Redis unreachable; limits are per instance until it is back");
  });
  client.on("ready", () => {
    if (failing) log.info("Rate-limit Redis reachable again; limits are shared again");
    failing = false;
  });
  return client;
}

/**
 * Resolves once ioredis has let go of the connection: at "end", or, for a socket that had
 * already failed (ioredis never emits "end" then), once its disconnectTimeout timer is over,
 * so that nothing is left running after close().
 */
function disconnect(client: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      client.off("end", done);
      resolve();
    };
    const timer = setTimeout(done, DISCONNECT_TIMEOUT_MS + 50);
    client.once("end", done);
    client.disconnect();
  });
}

/** Redis must never hold email addresses in clear; a prefix of the digest is unique enough. */
function hashLoginKey(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 32);
}

function secondsUntil(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

function inSeconds(seconds: number): string {
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

function tooManyRequests(msBeforeNext: number): TooManyRequestsError {
  const seconds = secondsUntil(msBeforeNext);
  return new TooManyRequestsError(`Too many requests, try again in ${inSeconds(seconds)}`, seconds);
}

function tooManyLoginFailures(msBeforeNext: number): TooManyRequestsError {
  const seconds = secondsUntil(msBeforeNext);
  return new TooManyRequestsError(
    `Too many failed logins for this account from your address; try again in ${inSeconds(seconds)}`,
    seconds,
  );
}

class ThrottledWarning {
  private lastAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(private readonly log: Logger) {}

  warn(error: unknown, message: string): void {
    const now = Date.now();
    if (now - this.lastAt < WARN_INTERVAL_MS) {
      this.suppressed += 1;
      return;
    }
    this.log.warn({ err: error, suppressedSinceLast: this.suppressed }, message);
    this.lastAt = now;
    this.suppressed = 0;
  }
}
