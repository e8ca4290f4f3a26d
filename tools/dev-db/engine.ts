import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MongoClient } from "mongodb";
import { findExecutable } from "./executables";
import { findFerretdb, installFerretdb } from "./ferretdb-build";
import { claimDataFolder, type Ownership } from "./ownership";
import { ProcessSupervisor, type EngineLog } from "./supervisor";

export { engineLogTo, type EngineLog } from "./supervisor";

export type EngineKind = "mongod" | "ferretdb";

/** A development database this process launched and supervises. */
export interface DevEngine {
  readonly kind: EngineKind;
  /** Connection string without a database name: the engine's Unix socket. */
  readonly uri: string;
  readonly socketPath: string;
  /** The running engine's pid, if one is up or starting. */
  readonly pid: number | undefined;
  /** Stops the engine and gives the data folder up; it is not restarted after this. */
  stop(): Promise<void>;
  /** Starts it again on the same socket, supervised again (used by fault tests). */
  restart(): Promise<void>;
}

export interface DevEngineOptions {
  /** The service's DATA_DIR: the engine's files go in folders of their own inside it. */
  dataDir: string;
  log: EngineLog;
  /** A FerretDB binary to run instead of the project's build (the benchmark's stock reader). */
  ferretdb?: string;
}

/** sun_path's size on Linux, terminating zero included. */
const MAX_SOCKET_PATH_BYTES = 107;

/**
 * Starts a development database in `dataDir`: a `mongod` on PATH, else FerretDB v1 on SQLite
 * (built into the machine's cache on first use). It listens on a Unix socket inside the
 * data folder and on no TCP port, so only processes that may enter that owner-only folder
 * reach it; the returned URI names the socket.
 */
export async function startEngine(options: DevEngineOptions): Promise<DevEngine> {
  assertWritable(options.dataDir);
  const mongod = findExecutable("mongod");
  if (mongod) return startProcessEngine("mongod", mongodArgs(mongod, options.dataDir), options);
  const ferretdb = options.ferretdb ?? findFerretdb() ?? (await buildFerretdb(options.log));
  return startProcessEngine("ferretdb", ferretdbArgs(ferretdb, options.dataDir), options);
}

async function buildFerretdb(log: EngineLog): Promise<string> {
  if (!findExecutable("go")) {
    throw new Error(
      "no development database: put a mongod or the Go toolchain (to build FerretDB) on PATH, " +
        "or set MONGODB_URI",
    );
  }
  return installFerretdb((message) => log(message));
}

type Command = (socketPath: string) => {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
};

function mongodArgs(binary: string, dataDir: string): Command {
  const dbPath = ensurePrivateDir(path.join(dataDir, "mongod"));
  // A socket path in --bind_ip, and no TCP address: mongod listens on that socket alone.
  return (socketPath) => ({
    command: binary,
    args: ["--dbpath", dbPath, "--bind_ip", socketPath, "--nounixsocket", "--quiet"],
  });
}

/**
 * Deleted records must not live on in the files (erasure): secure_delete zeroes what a delete
 * frees; a checkpoint after every commit, and a write-ahead log cut back to nothing when it
 * restarts, keep the log from holding the records' earlier versions for long. FerretDB adds
 * its own defaults (WAL mode, busy timeout) beside these.
 */
const SQLITE_PRAGMAS = [
  "_pragma=secure_delete(1)",
  "_pragma=wal_autocheckpoint(1)",
  "_pragma=journal_size_limit(0)",
].join("&");

/**
 * FerretDB is run in its own folder and named its SQLite and state folders relative to it: it
 * takes the SQLite folder as a URL and finds its databases with a glob, so an absolute DATA_DIR
 * with `[`, `#`, `?` or `%` in it made it open another path or see no database at all, and the
 * first write then "created" the database over the existing file, failed, and deleted the file
 * (FerretDB's Registry.databaseGetOrCreate): every record gone at the next start.
 */
function ferretdbArgs(binary: string, dataDir: string): Command {
  const home = ensurePrivateDir(path.join(dataDir, "ferretdb"));
  ensurePrivateDir(path.join(home, "sqlite"));
  ensurePrivateDir(path.join(home, "state"));
  return (socketPath) => ({
    command: binary,
    cwd: home,
    args: [
      "--handler=sqlite",
      `--sqlite-url=file:sqlite/?${SQLITE_PRAGMAS}`,
      // No TCP listener and no debug (metrics) listener: the socket is the only way in.
      "--listen-addr=",
      `--listen-unix=${socketPath}`,
      "--debug-addr=-",
      "--state-dir=state",
      "--telemetry=disable",
      "--log-level=warn",
    ],
    // FerretDB decodes whole collections for most filters, and with Go's default (GOGC=100)
    // much of its CPU went to collecting that garbage; a larger GOGC collects less often at
    // the cost of some memory. The environment's GOGC wins.
    env: { GOGC: process.env.GOGC ?? "400" },
  });
}

/**
 * A mongod or FerretDB child process, restarted on the same socket whenever it exits without
 * stop() (see ProcessSupervisor): the driver reconnects by itself once it answers again.
 */
async function startProcessEngine(
  kind: EngineKind,
  commandFor: Command,
  options: DevEngineOptions,
): Promise<DevEngine> {
  ensurePrivateDir(options.dataDir);
  const dir = ensurePrivateDir(path.join(options.dataDir, "dev-db"));
  const socketPath = socketPathOf(options.dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`DATA_DIR is too long for the engine's socket path: ${socketPath}`);
  }
  // The driver decodes a socket path's escapes twice: `%` in it can never be reached.
  if (socketPath.includes("%")) {
    throw new Error(`DATA_DIR must not contain "%" (the engine's socket is ${socketPath})`);
  }
  const uri = engineUriOf(options.dataDir);
  const logFile = path.join(dir, `${kind}.log`);
  let ownership: Ownership | undefined;
  const supervisor = new ProcessSupervisor({
    name: kind,
    spawn: () => {
      removeStaleSocket(socketPath);
      const { command, args, env, cwd } = commandFor(socketPath);
      const out = fs.openSync(logFile, "a", 0o600);
      // The engine creates its data files and socket with the umask it inherits: owner-only,
      // like the folders. spawn forks synchronously, so only the child sees this umask.
      const umask = process.umask(0o077);
      try {
        const child = spawn(command, args, {
          cwd,
          stdio: ["ignore", out, out],
          env: { ...process.env, ...env },
          // Its own process group: a terminal's Ctrl-C reaches the service, which drains its
          // requests on a live database and then stops the engine itself.
          detached: true,
        });
        if (child.pid) ownership?.recordEngine(child.pid);
        return child;
      } finally {
        process.umask(umask);
        fs.closeSync(out);
      }
    },
    ready: (abort) => waitForPing(uri, 30_000, abort),
    log: options.log,
  });

  // Whatever ends this process, the engine goes too (its own exit is its clean shutdown), and
  // a launcher that cannot run this hook (SIGKILL) is cleaned up after by the next one.
  const onExit = () => {
    supervisor.stopSupervising();
    const pid = supervisor.pid;
    if (pid) process.kill(pid, "SIGTERM");
    ownership?.release();
  };
  const stop = async () => {
    await supervisor.stop();
    ownership?.clearEngine();
    ownership?.release();
    ownership = undefined;
    process.removeListener("exit", onExit);
  };
  const start = async () => {
    if (!ownership) {
      ownership = await claimDataFolder(dir, options.log);
      process.once("exit", onExit);
    }
    try {
      await supervisor.start();
    } catch (error) {
      await stop();
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${reason}; see ${logFile}`);
    }
  };

  await start();
  options.log(`${kind} listening on ${socketPath} (data in ${options.dataDir})`);
  return {
    kind,
    uri,
    socketPath,
    get pid() {
      return supervisor.pid;
    },
    stop,
    restart: start,
  };
}

const socketPathOf = (dataDir: string) => path.join(dataDir, "dev-db", "engine.sock");

/** The connection string of the development database of `dataDir`, whoever runs it. */
export const engineUriOf = (dataDir: string) =>
  `mongodb://${encodeURIComponent(socketPathOf(dataDir))}`;

/** A socket file left by an engine that was killed: the next one could not listen there. */
function removeStaleSocket(socketPath: string): void {
  try {
    if (fs.lstatSync(socketPath).isSocket()) fs.rmSync(socketPath);
  } catch {
    // none there
  }
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

/**
 * The data folder and the engine's folders in it are private to the service's user: group and
 * others lose their rights, and the owner's are left as they are (a folder its owner made
 * read-only stays so, and the start says so instead of quietly making it writable again).
 */
function ensurePrivateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) fs.chmodSync(dir, mode & 0o700);
  return dir;
}

/** The engine's folders and files of `dataDir` that must be writable before an engine starts. */
const ENGINE_PLACES = ["dev-db", "mongod", "ferretdb", "ferretdb/sqlite", "ferretdb/state"];

/**
 * Refuses, before anything starts, a data folder the engine could not write: a read-only file
 * system, or a folder or file its owner made read-only. Throws the system's own error (its
 * `code` and `path`), which the launcher words as one sentence (src/startup-errors.ts); an
 * engine started there would fail half-way, or serve reads and refuse every write.
 */
function assertWritable(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const places = [dataDir, ...ENGINE_PLACES.map((place) => path.join(dataDir, place))];
  for (const place of places.filter((dir) => fs.existsSync(dir))) {
    fs.accessSync(place, fs.constants.W_OK);
    for (const entry of fs.readdirSync(place, { withFileTypes: true }))
      if (entry.isFile()) fs.accessSync(path.join(place, entry.name), fs.constants.W_OK);
  }
}
