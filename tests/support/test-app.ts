import "reflect-metadata";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { print } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { Connection } from "mongoose";
import pino from "pino";
import supertest from "supertest";
import { loadConfig, type Config } from "../../src/config";
import { connectDatabase } from "../../src/db/connection";
import { createLogger } from "../../src/logger";
import { startServer, type RunningServer } from "../../src/server";
import { CommandRecorder, declaredIndexes } from "./command-recorder";
import { describeUnserved, unservedQueries, type UnservedQuery } from "./index-coverage";
import { saveRecorded } from "./recorded-queries";
import { TestMailbox } from "./mailbox";

/** The administrator every test app bootstraps (see startTestApp). */
export const BOOTSTRAP_ADMIN = { email: "root-admin@example.org", password: "Bootstrap#Admin1" };

export const TEST_JWT_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

export interface TestApp {
  url: string;
  config: Config;
  services: RunningServer["services"];
  /** The app's own connection, for tests/support/raw-db.ts. */
  connection: Connection;
  /** What requests do not see: token signing, the field cipher, the mail queue, migrations. */
  internals: RunningServer["internals"];
  /** The SMTP server this app mails to (SMTP_URL), inside the test process. */
  mail: TestMailbox;
  http: () => supertest.Agent;
  graphql: <R, V extends Record<string, unknown>>(
    document: TypedDocumentNode<R, V>,
    variables?: V,
    token?: string,
  ) => Promise<GraphqlResult<R>>;
  /** The queries sent so far that no declared index serves; `close` fails when there are any. */
  unservedQueries: () => UnservedQuery[];
  close: () => Promise<void>;
}

export interface GraphqlResult<R> {
  status: number;
  data?: R | null;
  errors?: {
    message: string;
    extensions: { code: string; status?: number; errors?: { path: string; message: string }[] };
  }[];
}

/**
 * Limits high enough that a test file's many registrations from 127.0.0.1 do not trip them;
 * the rate-limit tests pass the contract's defaults back in.
 */
/** What production refuses to start without, for tests of production behaviour. */
export const PRODUCTION_ENV = {
  NODE_ENV: "production",
  JWT_SECRET: TEST_JWT_SECRET,
  DATA_KEY: Buffer.alloc(32, 9).toString("base64"),
  // startTestApp sets SMTP_URL (its mailbox); the tests reach the app over plain http.
  ALLOW_INSECURE_HTTP: "true",
  APP_URL: "https://members.example.org",
  CORS_ORIGINS: "https://members.example.org",
};

export const RELAXED_LIMITS = {
  RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_ACCOUNT_PER_HOUR: "100000",
  RATE_LIMIT_PUBLIC_READS_PER_MINUTE: "100000",
  LOGIN_MAX_FAILURES: "1000",
};

/**
 * Every app of the run logs at debug level into its own file under TEST_LOG_DIR (set by the
 * global setup), so tests/logs/log-secrets.test.ts and the global teardown can scan the logs
 * of the whole suite for the secrets the tests used.
 */
function captureLogs(dbName: string): (pino.DestinationStream & { end(): void }) | undefined {
  const dir = process.env.TEST_LOG_DIR;
  if (!dir) return undefined;
  return pino.destination({ dest: path.join(dir, `${dbName}.log`), sync: true, mkdir: true });
}

/**
 * The real app on a real HTTP port against the run's engine, in a database of this test
 * file's own (dropped on close), so files run alone or together without seeing each other.
 * Mail goes to an SMTP server inside the test process.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  engineUri?: string,
  /** Leave the database on close: a later instance of the same DB_NAME goes on with it. */
  options: { keepDatabase?: boolean } = {},
): Promise<TestApp> {
  const uri = engineUri ?? process.env.TEST_MONGODB_URI;
  if (!uri)
    throw new Error("TEST_MONGODB_URI is not set: run the tests through jest (global setup)");
  const mail = await TestMailbox.start();
  const testFile = path.basename(expect.getState().testPath ?? "test", ".test.ts");
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    HOST: "127.0.0.1",
    JWT_SECRET: TEST_JWT_SECRET,
    MONGODB_URI: uri,
    DATA_DIR: process.env.TEST_DATA_DIR ?? "data",
    DB_NAME: `t_${testFile.replace(/\W/g, "_").slice(0, 40)}_${randomBytes(3).toString("hex")}`,
    BCRYPT_COST: "4",
    LOG_LEVEL: "silent",
    // Due work (reminders, deliveries) is found within seconds, as a test can wait for.
    JOBS_POLL_SECONDS: "2",
    SMTP_URL: mail.url,
    ADMIN_EMAIL: BOOTSTRAP_ADMIN.email,
    ADMIN_PASSWORD: BOOTSTRAP_ADMIN.password,
    ...RELAXED_LIMITS,
    ...env,
  });
  const connection = await connectDatabase({ uri, dbName: config.dbName, monitorCommands: true });
  const recorder = new CommandRecorder(connection.getClient());
  const unserved = () => unservedQueries(recorder.commands(), declaredIndexes(connection));
  const logFile = captureLogs(config.dbName);
  const log = logFile
    ? createLogger({ ...config, logLevel: "debug" }, logFile)
    : createLogger(config);
  const running = await startServer(config, log, connection);
  return {
    url: running.url,
    config,
    services: running.services,
    connection,
    internals: running.internals,
    mail,
    http: () => supertest.agent(running.url),
    graphql: async (document, variables, token) => {
      const request = supertest(running.url)
        .post("/graphql")
        .set("content-type", "application/json");
      if (token) request.set("authorization", `Bearer ${token}`);
      const response = await request.send({ query: print(document), variables: variables ?? {} });
      return { status: response.status, ...(response.body as object) };
    },
    unservedQueries: unserved,
    close: async () => {
      await running.close();
      await mail.close();
      // Judged before the database goes, and thrown once everything is closed: the test file
      // fails when production would scan a collection or sort in memory for one of its queries.
      const scans = unserved();
      recorder.stop();
      const testPath = expect.getState().testPath;
      if (testPath && scans.length === 0) saveRecorded(testPath, recorder.commands());
      if (!options.keepDatabase) await connection.dropDatabase();
      await connection.close();
      logFile?.end();
      if (scans.length > 0) throw new Error(describeUnserved(scans));
    },
  };
}

/**
 * Two instances of the service on one database, as behind a load balancer, each configured with
 * `env` as well (a shared bucket); close both with `closeBoth`.
 */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<{
  first: TestApp;
  second: TestApp;
  closeBoth: () => Promise<void>;
}> {
  const first = await startTestApp(env);
  const second = await startTestApp({ ...env, DB_NAME: first.config.dbName });
  return {
    first,
    second,
    // The second goes first: the first's close drops the shared database. Both close even
    // when the second's queries fail the index-coverage guard.
    closeBoth: async () => {
      const failures: unknown[] = [];
      for (const app of [second, first]) await app.close().catch((error) => failures.push(error));
      if (failures.length > 0) throw new Error(failures.map(String).join("\n"));
    },
  };
}
