// One file on purpose, past the usual size: every setting is read and validated here once at
// start, so a reader finds each variable, its default and its refusal in one place.
import fs from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { parseDataKey } from "./db/field-cipher";
import { JSON_BODY_LIMIT_BYTES } from "./errors/byte-size";
import { isCommonPassword } from "./modules/auth/common-passwords";
import { passwordProblem } from "./modules/auth/password-policy";

export type NodeEnv = "development" | "production" | "test";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  /** The database the service connects to; src/main.ts refuses to start without it. */
  mongodbUri?: string;
  dbName: string;
  dataDir: string;
  /** Absent outside production: a secret is generated once and kept under dataDir. */
  jwtSecret?: string;
  accessTokenTtlSeconds: number;
  bcryptCost: number;
  /** Refresh-token (cookie) lifetime; each refresh starts a new one. */
  refreshTokenTtlSeconds: number;
  /** A rotated-out refresh token presented again within this many seconds gets the same answer. */
  refreshReuseGraceSeconds: number;
  /** Changing the email, MFA or deleting oneself needs a password proof at most this old. */
  reauthMaxAgeSeconds: number;
  /** How often appointments past their end date give their slots back, in the background. */
  lapsedSweepSeconds: number;
  /** How often the job scheduler looks for due work (reminders, deliveries) in the database. */
  jobsPollSeconds: number;
  /** Webhook deliveries: the first retry's delay, doubling after each failure. */
  webhookRetryBaseSeconds: number;
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints on private or loopback addresses (never in production). */
  webhooksAllowPrivate: boolean;
  smtpUrl?: string;
  /** Sender of every mail. */
  mailFrom: string;
  /** The client application's address: mails and the public member link point into it. */
  appUrl: string;
  /** PUBLIC_URL: where clients reach this service; https tells browsers to upgrade requests. */
  publicUrl?: string;
  /** True when PUBLIC_URL is https: the service is reached over TLS (itself or a proxy). */
  servedOverTls: boolean;
  redisUrl?: string;
  rateLimits: RateLimitConfig;
  admin?: { email: string; password: string; name: string };
  logLevel: LogLevel;
  /** CORS_ORIGINS: browser origins allowed to call the API (`none`: no browser, the empty list). */
  corsOrigins: string[];
  trustProxy: boolean | number | string;
  graphqlIntrospection: boolean;
  /** REQUIRE_PRIVACY_CONSENT: applications must carry privacyConsent (default false). */
  requirePrivacyConsent: boolean;
  /** MEMBERSHIP_FEE_PHP: the onboarding's membership fee in pesos (default 500). */
  membershipFeePhp: number;
  bodyLimitBytes: number;
  /** HQ_*: the headquarters the public directory's map shows. */
  headquarters: Headquarters;
  /** Processes serving HTTP; above 1, src/main.ts runs a node:cluster primary over them. */
  workers: number;
  /** Seals SSS and TIN numbers (AES-256-GCM). Absent outside production: generated under dataDir. */
  dataKey?: Buffer;
  /** Older keys, still accepted for reading until `npm run data-key:rotate` has re-sealed. */
  dataKeysPrevious: Buffer[];
  files: FileConfig;
  /** ORG_*: the organisation's identity until an administrator saves settings of its own. */
  organisation: OrganisationDefaults;
  /** MEMBERSHIP_TERM_MONTHS: how long a membership year runs from the oath (default 12). */
  membershipTermMonths: number;
  /**
   * TEST_CLOCK_OFFSET_SECONDS: moves the time the membership year, its renewals and reminders
   * see, so tests can stand days or months from now. Refused in production.
   */
  clockOffsetSeconds: number;
}

/** The organisation's identity as ORG_* give it (the seal is a file: settings only). */
export interface OrganisationDefaults {
  name: string;
  shortName: string;
  address: string;
  email: string;
  phone: string;
  website: string;
  signatoryName: string;
  signatoryTitle: string;
}

export const DEFAULT_ORGANISATION_NAME =
  "Pearl of the Orient International Auxiliary Chaplain Values Educators Inc.";

/** Uploaded files, their storage and their links. */
export interface FileConfig {
  /** FILE_STORAGE_URL (or the contract's STORAGE_URL): `file://<dir>` or `s3://<bucket>`; absent: `<DATA_DIR>/files`. */
  storageUrl?: string;
  maxBytes: number;
  maxPerUser: number;
  linkTtlSeconds: number;
  /** Files no record names are deleted after this many hours. */
  orphanHours: number;
  /** How often the orphan sweep runs. */
  orphanSweepSeconds: number;
  s3: {
    endpoint?: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle: boolean;
  };
}

/** The organisation's headquarters as the directory shows it. */
export interface Headquarters {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
}

/** Where the organisation's headquarters stand unless HQ_* say otherwise (Quezon City). */
export const DEFAULT_HEADQUARTERS: Headquarters = {
  name: "Chaplaincy National Headquarters",
  address: "Quezon City, Metro Manila, Philippines",
  latitude: 14.676,
  longitude: 121.0437,
};

/** The request, sign-in and public-read limits; every one can be tuned per deployment. */
export interface RateLimitConfig {
  /** All requests per client IP per minute. */
  perMinute: number;
  /** Register, forgot-password, resend and verify-email: requests per IP per hour, per endpoint. */
  accountPerHour: number;
  /** Public cached reads (events, news, the directory…): requests per IP per minute, one bucket. */
  publicReadsPerMinute: number;
  /** Failed logins per IP+email before the lockout. */
  loginFailures: number;
  /** How long failures are remembered and the lockout lasts. */
  loginLockoutSeconds: number;
  /** Uploads (POST /files) per account per hour (120 when left out). */
  uploadsPerHour?: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const NODE_ENVS: NodeEnv[] = ["development", "production", "test"];

/** Where the organisation's web client runs in development: where `next dev` serves it. */
export const DEFAULT_APP_URL = "http://localhost:3000";

/**
 * The process's environment over the variables of `.env` in the working directory, when there
 * is one (`.env.example` invites copying it): a variable set in the real environment wins, so
 * a deployment's settings are never overridden by a file left in the image or the checkout.
 */
export function environment(env: Env = process.env, envFile = path.resolve(".env")): Env {
  let content: string;
  try {
    content = fs.readFileSync(envFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return env;
    throw error;
  }
  return { ...parseEnv(content), ...env };
}

/** NODE_ENV alone: a tool that refuses production says so before any other check. */
export function isProductionEnvironment(env: Env = environment()): boolean {
  return env.NODE_ENV?.trim() === "production";
}

/**
 * The only reader of process.env (and `.env`, see environment()). Collects every problem before
 * failing so that an operator fixes a bad deployment in one round trip instead of one variable at a
 * time.
 */
export function loadConfig(env: Env = environment()): Config {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === "" ? undefined : value;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (["true", "1", "yes"].includes(raw)) return true;
    if (["false", "0", "no"].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const oneOf = <T extends string>(name: string, allowed: T[], fallback: T): T => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw as T)) {
      problems.push(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      problems.push(`${name} must be a number between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error("protocol");
      return raw;
    } catch {
      problems.push(`${name} must be a ${protocols.join(" or ")} URL`);
      return undefined;
    }
  };

  const nodeEnv = oneOf("NODE_ENV", NODE_ENVS, "development");
  const jwtSecret = text("JWT_SECRET");
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    problems.push("JWT_SECRET must be at least 32 characters long");
  }
  if (jwtSecret === undefined && nodeEnv === "production") {
    problems.push("JWT_SECRET is required when NODE_ENV=production");
  }
  const dataKey = dataKeyOf(text("DATA_KEY"), "DATA_KEY", problems);
  if (dataKey === undefined && nodeEnv === "production" && text("DATA_KEY") === undefined) {
    problems.push("DATA_KEY is required when NODE_ENV=production");
  }
  if (text("MONGODB_URI") === undefined && nodeEnv === "production") {
    problems.push(
      "MONGODB_URI is required when NODE_ENV=production (the service starts no database)",
    );
  }
  const dataKeysPrevious = (text("DATA_KEYS_PREVIOUS") ?? "")
    .split(",")
    .filter((key) => key.trim() !== "")
    .flatMap((key) => dataKeyOf(key, "DATA_KEYS_PREVIOUS", problems) ?? []);

  const clockOffsetSeconds = int(
    "TEST_CLOCK_OFFSET_SECONDS",
    0,
    -100 * 366 * 86400,
    100 * 366 * 86400,
  );
  if (clockOffsetSeconds !== 0 && nodeEnv === "production") {
    problems.push(
      "TEST_CLOCK_OFFSET_SECONDS is for tests only and refused when NODE_ENV=production",
    );
  }
  const bounded = (name: string, fallback: string, max: number): string => {
    const value = text(name) ?? fallback;
    if (value.length > max) problems.push(`${name} must be at most ${max} characters`);
    return value;
  };
  const orgEmail = bounded("ORG_EMAIL", "", 254);
  if (orgEmail !== "" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(orgEmail)) {
    problems.push(`ORG_EMAIL must be an email address (got "${orgEmail}")`);
  }
  const orgWebsite = url("ORG_WEBSITE", ["http:", "https:"]) ?? "";

  const publicUrl = url("PUBLIC_URL", ["http:", "https:"])?.replace(/\/+$/, "");
  const corsOrigins = readCorsOrigins(text("CORS_ORIGINS"), problems);

  const config: Config = {
    nodeEnv,
    port: int("PORT", 4000, 0, 65535),
    host: text("HOST") ?? "0.0.0.0",
    mongodbUri: url("MONGODB_URI", ["mongodb:", "mongodb+srv:"]),
    dbName: text("DB_NAME") ?? "chaplaincy",
    dataDir: path.resolve(text("DATA_DIR") ?? "data"),
    jwtSecret,
    accessTokenTtlSeconds: int("ACCESS_TOKEN_TTL_SECONDS", 15 * 60, 60, 24 * 3600),
    bcryptCost: int("BCRYPT_COST", 12, 4, 15),
    refreshTokenTtlSeconds: int("REFRESH_TOKEN_TTL_SECONDS", 7 * 24 * 3600, 300, 90 * 24 * 3600),
    refreshReuseGraceSeconds: int("REFRESH_REUSE_GRACE_SECONDS", 10, 0, 60),
    reauthMaxAgeSeconds: int("REAUTH_MAX_AGE_SECONDS", 300, 1, 24 * 3600),
    lapsedSweepSeconds: int("LAPSED_SWEEP_SECONDS", 60, 1, 24 * 3600),
    jobsPollSeconds: int("JOBS_POLL_SECONDS", 60, 1, 3600),
    webhookRetryBaseSeconds: int("WEBHOOK_RETRY_BASE_SECONDS", 30, 1, 24 * 3600),
    webhooksAllowPrivate: bool("WEBHOOKS_ALLOW_PRIVATE", false),
    smtpUrl: url("SMTP_URL", ["smtp:", "smtps:"]),
    mailFrom: text("MAIL_FROM") ?? "Chaplaincy Membership <no-reply@localhost>",
    appUrl: (url("APP_URL", ["http:", "https:"]) ?? DEFAULT_APP_URL).replace(/\/+$/, ""),
    publicUrl,
    servedOverTls: publicUrl?.startsWith("https:") ?? false,
    redisUrl: url("REDIS_URL", ["redis:", "rediss:"]),
    rateLimits: {
      perMinute: int("RATE_LIMIT_PER_MINUTE", 600, 1, 1_000_000),
      accountPerHour: int("RATE_LIMIT_ACCOUNT_PER_HOUR", 30, 1, 1_000_000),
      publicReadsPerMinute: int("RATE_LIMIT_PUBLIC_READS_PER_MINUTE", 300, 1, 1_000_000),
      loginFailures: int("LOGIN_MAX_FAILURES", 10, 1, 1000),
      loginLockoutSeconds: int("LOGIN_LOCKOUT_SECONDS", 15 * 60, 1, 24 * 3600),
      uploadsPerHour: int("RATE_LIMIT_UPLOADS_PER_HOUR", 120, 1, 1_000_000),
    },
    admin: readAdmin(text, problems),
    logLevel: oneOf("LOG_LEVEL", LOG_LEVELS, nodeEnv === "test" ? "silent" : "info"),
    corsOrigins: corsOrigins ?? [],
    trustProxy: readTrustProxy(text("TRUST_PROXY")),
    graphqlIntrospection: bool("GRAPHQL_INTROSPECTION", nodeEnv !== "production"),
    requirePrivacyConsent: bool("REQUIRE_PRIVACY_CONSENT", false),
    membershipFeePhp: int("MEMBERSHIP_FEE_PHP", 500, 0, 1_000_000),
    bodyLimitBytes: JSON_BODY_LIMIT_BYTES,
    headquarters: {
      name: text("HQ_NAME") ?? DEFAULT_HEADQUARTERS.name,
      address: text("HQ_ADDRESS") ?? DEFAULT_HEADQUARTERS.address,
      latitude: decimal("HQ_LATITUDE", DEFAULT_HEADQUARTERS.latitude, -90, 90),
      longitude: decimal("HQ_LONGITUDE", DEFAULT_HEADQUARTERS.longitude, -180, 180),
    },
    dataKey,
    dataKeysPrevious,
    workers: int("WORKERS", 1, 1, 16),
    organisation: {
      name: bounded("ORG_NAME", DEFAULT_ORGANISATION_NAME, 200),
      shortName: bounded("ORG_SHORT_NAME", "POI-AVCE", 40),
      address: bounded("ORG_ADDRESS", "", 300),
      email: orgEmail,
      phone: bounded("ORG_PHONE", "", 60),
      website: orgWebsite,
      signatoryName: bounded("ORG_SIGNATORY_NAME", "", 120),
      signatoryTitle: bounded("ORG_SIGNATORY_TITLE", "President", 120),
    },
    membershipTermMonths: int("MEMBERSHIP_TERM_MONTHS", 12, 1, 120),
    clockOffsetSeconds,
    files: {
      storageUrl: url("FILE_STORAGE_URL", ["file:", "s3:"]) ?? url("STORAGE_URL", ["file:", "s3:"]),
      maxBytes: int("FILE_MAX_BYTES", 4 * 1024 * 1024, 1, 1024 * 1024 * 1024),
      maxPerUser: int("FILE_MAX_PER_USER", 100, 1, 1_000_000),
      linkTtlSeconds: int("FILE_LINK_TTL_SECONDS", 900, 1, 7 * 24 * 3600),
      orphanHours: int("FILE_ORPHAN_HOURS", 24, 1, 24 * 365),
      orphanSweepSeconds: int("FILE_ORPHAN_SWEEP_SECONDS", 3600, 1, 24 * 3600),
      s3: {
        endpoint: url("S3_ENDPOINT", ["http:", "https:"]),
        region: text("S3_REGION") ?? "us-east-1",
        accessKeyId: text("S3_ACCESS_KEY_ID"),
        secretAccessKey: text("S3_SECRET_ACCESS_KEY"),
        forcePathStyle: bool("S3_FORCE_PATH_STYLE", false),
      },
    },
  };
  if (
    config.files.storageUrl?.startsWith("s3://") &&
    !/^s3:\/\/[a-z0-9.-]{3,63}\/?$/.test(config.files.storageUrl)
  ) {
    problems.push("FILE_STORAGE_URL must name a bucket: s3://<bucket> (3-63 of a-z 0-9 . -)");
  }
  if (nodeEnv === "production" && config.webhooksAllowPrivate) {
    problems.push(
      "WEBHOOKS_ALLOW_PRIVATE must not be true when NODE_ENV=production: webhooks would reach " +
        "the deployment's own network",
    );
  }
  if (nodeEnv === "production") {
    // A variable already named as malformed is not named a second time as missing.
    const named = new Set(problems.map((problem) => problem.split(" ")[0]));
    problems.push(
      ...productionProblems(config, {
        allowInsecureHttp: bool("ALLOW_INSECURE_HTTP", false),
        appUrlGiven: text("APP_URL") !== undefined,
        corsOriginsGiven: corsOrigins !== undefined,
      }).filter((problem) => !named.has(problem.split(" ")[0])),
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * What a production deployment must not lack, one message each: each of these runs quietly
 * without it (mail into a folder nobody reads, a guessable administrator, a refresh cookie
 * that never comes back over plain http). A variable that is set but malformed was already
 * named above, so only its absence is reported here.
 */
function productionProblems(
  config: Config,
  given: { allowInsecureHttp: boolean; appUrlGiven: boolean; corsOriginsGiven: boolean },
): string[] {
  const problems: string[] = [];
  if (config.smtpUrl === undefined)
    problems.push(
      "SMTP_URL is required when NODE_ENV=production (smtp://user:pass@host:587): without it " +
        "mail goes to DATA_DIR/outbox and nobody can verify an account or reset a password",
    );
  const adminPassword = config.admin?.password;
  if (adminPassword !== undefined) {
    const weak = passwordProblem(adminPassword);
    if (weak) problems.push(`ADMIN_PASSWORD is refused in production: ${weak}`);
    else if (isCommonPassword(adminPassword))
      problems.push(
        "ADMIN_PASSWORD is refused in production: it is one of the most common passwords " +
          "(or one dressed up with case, digits or symbols); choose one nobody would guess",
      );
  }
  if (!config.servedOverTls && !given.allowInsecureHttp)
    problems.push(
      "PUBLIC_URL must be the https:// address clients use when NODE_ENV=production (the " +
        "refresh cookie is Secure and never comes back over plain http); for a lab without " +
        "TLS set ALLOW_INSECURE_HTTP=true",
    );
  // Every mail link and every QR code printed on an ID card or certificate points into APP_URL.
  const appUrl = new URL(config.appUrl);
  if (!given.appUrlGiven)
    problems.push(
      "APP_URL is required when NODE_ENV=production: the https:// address of the web client " +
        "(mail links and the QR code on every ID card and certificate point there)",
    );
  else if (appUrl.protocol !== "https:")
    problems.push(
      "APP_URL must be an https:// address when NODE_ENV=production: mail links and printed " +
        "QR codes point there",
    );
  else if (isLocalHost(appUrl.hostname))
    problems.push(
      "APP_URL must not be a local address when NODE_ENV=production: mail links and printed " +
        "QR codes would point to the reader's own machine",
    );
  if (!given.corsOriginsGiven)
    problems.push(
      "CORS_ORIGINS is required when NODE_ENV=production: the web client's origin(s), " +
        "comma-separated (https://www.example.org), or none when no browser calls the API",
    );
  return problems;
}

/** localhost, *.localhost, 127.0.0.0/8, ::1 and the unspecified addresses. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    ["::1", "0.0.0.0", "::"].includes(host)
  );
}

/**
 * CORS_ORIGINS: origins (`https://www.example.org`, no path), comma-separated, or `none`, which
 * says no browser calls the API (production wants one of the two said). Undefined when unset.
 */
function readCorsOrigins(raw: string | undefined, problems: string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  if (raw.toLowerCase() === "none") return [];
  const origins: string[] = [];
  for (const entry of raw
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean)) {
    let origin: string | undefined;
    try {
      const parsed = new URL(entry);
      if (
        ["http:", "https:"].includes(parsed.protocol) &&
        entry.replace(/\/$/, "") === parsed.origin
      )
        origin = parsed.origin;
    } catch {
      // named below
    }
    if (origin) origins.push(origin);
    else
      problems.push(
        `CORS_ORIGINS must list origins such as https://www.example.org (scheme, host and ` +
          `port, no path), or say none (got "${entry}")`,
      );
  }
  return origins;
}

function dataKeyOf(raw: string | undefined, name: string, problems: string[]): Buffer | undefined {
  if (raw === undefined) return undefined;
  const key = parseDataKey(raw);
  if (!key) problems.push(`${name} must be 32 bytes in base64 or hex (openssl rand -base64 32)`);
  return key;
}

function readAdmin(
  text: (name: string) => string | undefined,
  problems: string[],
): Config["admin"] {
  const email = text("ADMIN_EMAIL");
  const password = text("ADMIN_PASSWORD");
  if (email === undefined && password === undefined) return undefined;
  if (email === undefined || password === undefined) {
    problems.push("ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
    return undefined;
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    problems.push("ADMIN_EMAIL is not an email address");
  return { email: email.toLowerCase(), password, name: text("ADMIN_NAME") ?? "Administrator" };
}

/** Express's own syntax: a hop count, "true", or a list of trusted addresses/subnets. */
function readTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}
