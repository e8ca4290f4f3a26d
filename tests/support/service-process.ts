import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { MongoClient } from "mongodb";
import supertest from "supertest";
import { freePort } from "./free-port";
import { COMPILED, ensureServiceBuilt } from "./service-build";
import type { TestMailbox } from "./mailbox";
import { BOOTSTRAP_ADMIN, RELAXED_LIMITS, TEST_JWT_SECRET, type TestApp } from "./test-app";

/*
 * The service as operators run it: `src/main.ts` compiled (dist/src/main.js, as the Dockerfile
 * runs it) in a process of its own, configured only through its environment; or as `npm start`
 * runs it, through the compiled development launcher (tools/dev-db/start.ts), which starts a
 * database in DATA_DIR when MONGODB_URI is empty. dist/ is built once per run
 * (tests/support/service-build.ts).
 */

/** Which entry point a test spawns. */
export type Entry = keyof typeof COMPILED;

const root = path.join(__dirname, "..", "..");
/** Generous: a small, busy machine can be slow to load the service and reach its database. */
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 10_000;

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves when the process exits, with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  hasExited: () => boolean;
  /** SIGTERM, then SIGKILL if it is still there after 10 s; resolves once it is gone. */
  stop: () => Promise<void>;
}

/**
 * The environment every spawned service gets: relaxed limits (a test passes its own back in),
 * a fixed JWT secret, the bootstrap administrator of tests/support/factories.ts, cheap bcrypt.
 */
export function serviceEnv(overrides: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: "development",
    HOST: "127.0.0.1",
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: process.env.TEST_DATA_DIR ?? path.join(root, "data"),
    ADMIN_EMAIL: BOOTSTRAP_ADMIN.email,
    ADMIN_PASSWORD: BOOTSTRAP_ADMIN.password,
    BCRYPT_COST: "4",
    LOG_LEVEL: "warn",
    ...RELAXED_LIMITS,
    ...overrides,
  };
}

/**
 * Spawns the compiled service with `env` (on top of this process's environment) on a free port
 * and waits until /api/v1/health answers 200; dist/ is compiled first if a source changed.
 * Rejects, with what the process printed, if it exits or is not healthy within 180 s; the
 * process is killed in that case.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  entry: Entry = "service",
): Promise<ServiceProcess> {
  await ensureServiceBuilt();
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return await startServiceProcessOn(port, env, entry);
    } catch (error) {
      // The port was free when chosen, but another process (a parallel test's) may take it
      // before the service binds it: choose another.
      const taken = String(error).includes(`EADDRINUSE 127.0.0.1:${port}`);
      if (!taken || attempt === 3) throw error;
    }
  }
}

async function startServiceProcessOn(
  port: number,
  env: Record<string, string>,
  entry: Entry,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [COMPILED[entry]], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let exitedYet = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exitedYet = true;
      resolve(code);
    }),
  );
  const service: ServiceProcess = {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    exited,
    hasExited: () => exitedYet,
    stop: async () => {
      if (exitedYet) return;
      const force = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(force);
    },
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!exitedYet && Date.now() < deadline) {
    if ((await probe(`${service.url}/api/v1/health`, 1_000)).status === 200) return service;
    await sleep(200);
  }
  await service.stop();
  throw new Error(
    `the service on port ${port} did not become healthy (exit ${String(child.exitCode)}):\n${output}`,
  );
}

/** The process's JSON log lines whose message is `msg` (a string) or matches it (a pattern). */
export function logLines(service: ServiceProcess, msg: RegExp | string): Record<string, unknown>[] {
  const matches = (text: string) => (typeof msg === "string" ? text === msg : msg.test(text));
  return service
    .output()
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    })
    .filter((entry) => typeof entry.msg === "string" && matches(entry.msg));
}

/** The pid of the engine a launcher started last, from its "<kind> started|restarted (pid N)". */
export function enginePid(service: ServiceProcess): number {
  const lines = logLines(service, /^(mongod|ferretdb) (started|restarted) \(pid \d+\)$/);
  const pid = lines.at(-1)?.enginePid;
  if (typeof pid !== "number") throw new Error(`no engine pid logged:\n${service.output()}`);
  return pid;
}

/** Stops every process given, in parallel, whatever state each is in. */
export async function stopAll(services: (ServiceProcess | undefined)[]): Promise<void> {
  await Promise.all(services.map((service) => service?.stop() ?? Promise.resolve()));
}

/**
 * The shape tests/support/factories.ts builds fixtures through (HTTP and the mailbox), on a
 * spawned process. The factories use nothing else of a TestApp.
 */
export function factoryApp(service: ServiceProcess, mail: TestMailbox): TestApp {
  const app: Pick<TestApp, "url" | "http" | "mail"> = {
    url: service.url,
    http: () => supertest.agent(service.url),
    mail,
  };
  return app as TestApp;
}

export interface Probe {
  /** The HTTP status; 0 when no response came (see `error`). */
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
  /** The network error code (ECONNREFUSED, ECONNRESET, TIMEOUT...) when there was no response. */
  error?: string;
  startedAt: number;
  ms: number;
}

/**
 * One request, by default on a connection of its own (no keep-alive pool), so whether the
 * server accepts new connections is what is observed; `agent` sends it on that agent's pool.
 * Never rejects: a network failure or a response slower than `timeoutMs` is reported in `error`.
 */
export function probe(
  url: string,
  timeoutMs: number,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    agent?: http.Agent;
  } = {},
): Promise<Probe> {
  const startedAt = Date.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const done = (result: Omit<Probe, "startedAt" | "ms">) =>
      resolve({ ...result, startedAt, ms: Date.now() - startedAt });
    const request = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent: options.agent ?? false,
        headers: {
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", (error: NodeJS.ErrnoException) =>
          done({ status: 0, body: null, headers: {}, error: error.code ?? error.message }),
        );
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = text === "" ? null : JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          done({ status: response.statusCode ?? 0, body, headers: response.headers });
        });
      },
    );
    request.setTimeout(timeoutMs, () =>
      request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })),
    );
    request.on("error", (error: NodeJS.ErrnoException) =>
      done({ status: 0, body: null, headers: {}, error: error.code ?? error.message }),
    );
    request.end(payload);
  });
}

/** Drops a database the spawned processes used (they never drop it themselves). */
export async function dropDatabase(uri: string, dbName: string): Promise<void> {
  const client = new MongoClient(uri, { directConnection: true, serverSelectionTimeoutMS: 5_000 });
  try {
    await client.connect();
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
