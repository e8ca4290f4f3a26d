import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { MongoClient } from "mongodb";
import { ProcessSupervisor, type EngineLog } from "./engine-supervisor";
import { findExecutable } from "./executables";
import { findFerretdb, installFerretdb } from "./ferretdb-install";
import { ensurePrivateDir } from "./secret-file";

export { engineLogTo, type EngineLog } from "./engine-supervisor";

export type EngineKind = "external" | "mongod" | "ferretdb" | "memory-server";

export interface Engine {
  readonly kind: EngineKind;
  /** Connection string without a database name. */
  readonly uri: string;
  /** Stops the engine; an embedded one is not restarted after this. */
  stop(): Promise<void>;
  /** (Re)starts an embedded engine on the same port, supervised again (used by fault tests). */
  restart(): Promise<void>;
  /**
   * The service is shutting down: an embedded engine that exits from now on stays down. A
   * terminal's Ctrl-C reaches the engine too (one process group), and that exit is no crash.
   */
  stopSupervising(): void;
}

export interface EngineOptions {
  mongodbUri?: string;
  dataDir: string;
  log: EngineLog;
}

/**
 * Finds a database for the service: MONGODB_URI when given, else an engine of our own,
 * preferring a real mongod, then FerretDB v1 on SQLite (built on first use), then
 * mongodb-memory-server's downloaded mongod.
 */
export async function startEngine(options: EngineOptions): Promise<Engine> {
  if (options.mongodbUri) return externalEngine(options.mongodbUri);
  const mongod = findExecutable("mongod");
  if (mongod) return startProcessEngine("mongod", mongodArgs(mongod, options.dataDir), options);
  const ferretdb = await locateOrInstallFerretdb(options.log);
  if (ferretdb)
    return startProcessEngine("ferretdb", ferretdbArgs(ferretdb, options.dataDir), options);
  return startMemoryServer(options);
}

async function locateOrInstallFerretdb(log: (m: string) => void): Promise<string | undefined> {
  const existing = findFerretdb();
  if (existing) return existing;
  if (!findExecutable("go")) return undefined;
  return installFerretdb(log);
}

function externalEngine(uri: string): Engine {
  return {
    kind: "external",
    uri,
    stop: () => Promise.resolve(),
    restart: () => Promise.reject(new Error("an external database cannot be restarted from here")),
    stopSupervising: () => undefined,
  };
}

type ArgsForPort = (
  port: number,
  debugPort: number,
) => { command: string; args: string[]; env?: Record<string, string> };

function mongodArgs(binary: string, dataDir: string): ArgsForPort {
  const dbPath = ensureDir(path.join(dataDir, "mongod"));
  return (port) => ({
    command: binary,
    args: ["--dbpath", dbPath, "--bind_ip", "127.0.0.1", "--port", String(port), "--quiet"],
  });
}

/**
 * Deleted records must not live on in the files (erasure, issue 35): secure_delete zeroes
 * what a delete frees; a checkpoint after every commit, and a write-ahead log cut back to
 * nothing when it restarts, keep the log from holding the records' earlier versions for
 * long. FerretDB adds its own defaults (WAL mode, busy timeout) beside these.
 */
const SQLITE_PRAGMAS = [
  "_pragma=secure_delete(1)",
  "_pragma=wal_autocheckpoint(1)",
  "_pragma=journal_size_limit(0)",
].join("&");

function ferretdbArgs(binary: string, dataDir: string): ArgsForPort {
  const sqliteDir = ensureDir(path.join(dataDir, "ferretdb", "sqlite"));
  const stateDir = ensureDir(path.join(dataDir, "ferretdb", "state"));
  return (port, debugPort) => ({
    command: binary,
    args: [
      "--handler=sqlite",
      `--sqlite-url=file:${sqliteDir}/?${SQLITE_PRAGMAS}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${stateDir}`,
      "--telemetry=disable",
      // Each instance needs its own debug port, or two engines on one machine collide.
      `--debug-addr=127.0.0.1:${debugPort}`,
      "--log-level=warn",
    ],
    // FerretDB decodes whole collections for most filters, and with Go's default (GOGC=100)
    // much of its CPU went to collecting that garbage; a larger GOGC collects less often at
    // the cost of some memory. The environment's GOGC wins.
    env: { GOGC: process.env.GOGC ?? "400" },
  });
}

/**
 * A mongod or FerretDB child process, restarted on the same port whenever it exits without
 * stop() (see ProcessSupervisor): the driver reconnects by itself once it answers again.
 */
async function startProcessEngine(
  kind: "mongod" | "ferretdb",
  argsFor: ArgsForPort,
  options: EngineOptions,
): Promise<Engine> {
  let port = await freePort();
  let debugPort = await freePort();
  const uri = () => `mongodb://127.0.0.1:${port}`;
  const logFile = path.join(ensureDir(options.dataDir), `${kind}.log`);
  const supervisor = new ProcessSupervisor({
    name: kind,
    spawn: () => {
      const { command, args, env } = argsFor(port, debugPort);
      const out = fs.openSync(logFile, "a", 0o600);
      // The engine creates its data files with the umask it inherits: owner-only, like the
      // directory. spawn forks synchronously, so only the child sees this umask.
      const umask = process.umask(0o077);
      try {
        return spawn(command, args, {
          stdio: ["ignore", out, out],
          env: { ...process.env, ...env },
        });
      } finally {
        process.umask(umask);
        fs.closeSync(out);
      }
    },
    ready: (abort) => waitForPing(uri(), 30_000, abort),
    log: options.log,
  });

  // A port found free can be taken by another process before the engine binds it: try others.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await supervisor.start();
      break;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt === 3) throw new Error(`${reason}; see ${logFile}`);
      port = await freePort();
      debugPort = await freePort();
    }
  }
  options.log(`${kind} listening on ${uri()} (data in ${options.dataDir})`);
  const killOnExit = () => supervisor.killNow();
  process.once("exit", killOnExit);
  return {
    kind,
    uri: uri(),
    stop: async () => {
      process.removeListener("exit", killOnExit);
      await supervisor.stop();
    },
    restart: async () => {
      await supervisor.start();
      process.removeListener("exit", killOnExit);
      process.once("exit", killOnExit);
    },
    stopSupervising: () => supervisor.stopSupervising(),
  };
}

async function startMemoryServer(options: EngineOptions): Promise<Engine> {
  options.log("no mongod, FerretDB or Go found: falling back to mongodb-memory-server");
  ensurePrivateDir(options.dataDir);
  const { MongoMemoryServer } = await import("mongodb-memory-server-core");
  const server = await MongoMemoryServer.create({
    instance: {
      dbPath: ensureDir(path.join(options.dataDir, "memory-server")),
      storageEngine: "wiredTiger",
    },
  });
  return {
    kind: "memory-server",
    uri: server.getUri().replace(/\/$/, ""),
    stop: async () => {
      await server.stop({ doCleanup: false });
    },
    restart: async () => {
      await server.stop({ doCleanup: false });
      await server.start(true);
    },
    // Not supervised: the last-resort fallback, for a try-out without mongod or Go.
    stopSupervising: () => undefined,
  };
}

async function waitForPing(uri: string, timeoutMs: number, abort?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (abort?.aborted) throw new Error(`stopped waiting for ${uri}`);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, directConnection: true });
    try {
      await client.connect();
      await client.db("admin").command({ ping: 1 });
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`database at ${uri} did not answer ping: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The data directory and the engine's folders in it are private to the service's user. */
function ensureDir(dir: string): string {
  return ensurePrivateDir(dir);
}
