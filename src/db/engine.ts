import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { MongoClient } from "mongodb";
import { findExecutable } from "./executables";
import { findFerretdb, installFerretdb } from "./ferretdb-install";

export type EngineKind = "external" | "mongod" | "ferretdb" | "memory-server";

export interface Engine {
  readonly kind: EngineKind;
  /** Connection string without a database name. */
  readonly uri: string;
  stop(): Promise<void>;
  /** Starts a stopped embedded engine again on the same port (used by fault tests). */
  restart(): Promise<void>;
}

export interface EngineOptions {
  mongodbUri?: string;
  dataDir: string;
  log: (message: string) => void;
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

function ferretdbArgs(binary: string, dataDir: string): ArgsForPort {
  const sqliteDir = ensureDir(path.join(dataDir, "ferretdb", "sqlite"));
  const stateDir = ensureDir(path.join(dataDir, "ferretdb", "state"));
  return (port, debugPort) => ({
    command: binary,
    args: [
      "--handler=sqlite",
      `--sqlite-url=file:${sqliteDir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${stateDir}`,
      "--telemetry=disable",
      // Each instance needs its own debug port, or two engines on one machine collide.
      `--debug-addr=127.0.0.1:${debugPort}`,
      "--log-level=warn",
    ],
    // Go's default (GOGC=100) spent a third of FerretDB's CPU on garbage collection when
    // serving member pages; 400 cut its CPU per page by a third (its RSS stayed near 100 MB).
    env: { GOGC: process.env.GOGC ?? "400" },
  });
}

async function startProcessEngine(
  kind: "mongod" | "ferretdb",
  argsFor: ArgsForPort,
  options: EngineOptions,
): Promise<Engine> {
  let port = await freePort();
  let debugPort = await freePort();
  let uri = `mongodb://127.0.0.1:${port}`;
  const logFile = path.join(ensureDir(options.dataDir), `${kind}.log`);
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const { command, args, env } = argsFor(port, debugPort);
    const out = fs.openSync(logFile, "a");
    child = spawn(command, args, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
    fs.closeSync(out);
    const exited = new Promise<never>((_, reject) =>
      child?.once("exit", (code) =>
        reject(new Error(`${kind} exited with ${code}; see ${logFile}`)),
      ),
    );
    await Promise.race([waitForPing(uri, 30_000), exited]);
    options.log(`${kind} listening on ${uri} (data in ${options.dataDir})`);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running) await terminate(running);
  };

  // A port found free can be taken by another process before the engine binds it: try others.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await launch();
      break;
    } catch (error) {
      await stop();
      if (attempt === 3) throw error;
      port = await freePort();
      debugPort = await freePort();
      uri = `mongodb://127.0.0.1:${port}`;
    }
  }
  const killOnExit = () => child?.kill("SIGKILL");
  process.once("exit", killOnExit);
  return {
    kind,
    uri,
    stop: async () => {
      process.removeListener("exit", killOnExit);
      await stop();
    },
    restart: async () => {
      await stop();
      await launch();
    },
  };
}

async function startMemoryServer(options: EngineOptions): Promise<Engine> {
  options.log("no mongod, FerretDB or Go found: falling back to mongodb-memory-server");
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
  };
}

async function waitForPing(uri: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
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

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
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

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
