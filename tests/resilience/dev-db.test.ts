import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildUser, login, TEST_PASSWORD } from "../support/factories";
import { TestMailbox } from "../support/mailbox";
import { COMPILED } from "../support/service-build";
import {
  enginePid,
  factoryApp,
  logLines,
  serviceEnv,
  startServiceProcess,
  stopAll,
  type ServiceProcess,
} from "../support/service-process";

/*
 * The development database `npm start` runs (tools/dev-db): reachable only through a socket
 * inside the owner-only data folder, and owned by one launcher for good, so that a launcher
 * killed outright (SIGKILL, as the out-of-memory killer sends) leaves no second engine behind
 * on the same files. Linux only: processes and sockets are read from /proc.
 */

let dataDir: string;
let mail: TestMailbox;
let env: Record<string, string>;
let first: ServiceProcess | undefined;
let second: ServiceProcess | undefined;
/** A launcher that should have been refused; one that was not must not outlive the test. */
let third: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-db-"));
  mail = await TestMailbox.start();
  env = serviceEnv({
    DATA_DIR: dataDir,
    // Empty is unset: an inherited MONGODB_URI must not bypass the launcher's engine.
    MONGODB_URI: "",
    DB_NAME: `t_devdb_${randomBytes(3).toString("hex")}`,
    SMTP_URL: mail.url,
    // The engine's pid is in an info line.
    LOG_LEVEL: "info",
  });
  first = await startServiceProcess(env, "launcher");
}, 90_000);

afterAll(async () => {
  if (third?.exitCode === null) third.kill("SIGKILL");
  await stopAll([first, second]);
  await mail?.close();
  for (const pid of enginesOn(dataDir)) process.kill(pid, "SIGKILL");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** Live (not zombie) processes whose command line names `text`. */
function enginesOn(text: string): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      return cmdline.includes(text) && isRunning(Number(entry)) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The inodes of the sockets process `pid` holds open. */
function socketInodes(pid: number): Set<string> {
  return new Set(
    fs.readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        return /^socket:\[(\d+)\]$/.exec(target)?.[1] ?? [];
      } catch {
        return [];
      }
    }),
  );
}

/** TCP sockets in LISTEN state that process `pid` holds, as "host:port" (hex, as /proc says). */
function tcpListenersOf(pid: number): string[] {
  const inodes = socketInodes(pid);
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((table) =>
    fs
      .readFileSync(table, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === "0A" && inodes.has(fields[9]))
      .map((fields) => fields[1]),
  );
}

/** The paths of the Unix sockets process `pid` accepts connections on. */
function unixListenersOf(pid: number): string[] {
  const inodes = socketInodes(pid);
  return fs
    .readFileSync("/proc/net/unix", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === "00010000" && inodes.has(fields[6]) && fields[7])
    .map((fields) => fields[7]);
}

type Address = { path: string } | { host: string; port: number };

/** Every address process `pid` accepts connections on: Unix sockets and TCP ports. */
function listenersOf(pid: number): Address[] {
  const tcp = tcpListenersOf(pid).map((local) => ({
    host: local.length > 13 ? "::1" : "127.0.0.1",
    port: parseInt(local.split(":")[1], 16),
  }));
  return [...unixListenersOf(pid).map((socket) => ({ path: socket })), ...tcp];
}

/** The one engine running on the data folder (what `ps` would show), by its command line. */
function engineOnDataDir(): number {
  const engines = enginesOn(dataDir);
  expect(engines).toHaveLength(1);
  return engines[0];
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** What a client running as `nobody` gets when it connects to `address`. */
function connectAsNobody(address: Address): Promise<string> {
  const script =
    "require('node:net').connect(JSON.parse(process.argv[1]))" +
    ".on('connect', () => { console.log('connected'); process.exit(0); })" +
    ".on('error', (error) => { console.log(error.code); process.exit(0); });";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, JSON.stringify(address)], {
      uid: 65534,
      gid: 65534,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", reject);
    child.once("exit", () => resolve(out.trim()));
  });
}

const asRoot = process.getuid?.() === 0 ? it : it.skip;

describe("the development database", () => {
  it("listens on a socket inside the owner-only data folder, and on no TCP port", () => {
    const socket = path.join(dataDir, "dev-db", "engine.sock");
    expect(fs.lstatSync(socket).isSocket()).toBe(true);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "dev-db"))).toBe(0o700);
    expect(tcpListenersOf(engineOnDataDir())).toEqual([]);
  });

  // Root passes every file mode; a client of another user is what the folder's modes stop.
  // Every address the engine listens on is tried, whatever the launcher meant it to use.
  asRoot("refuses a client of another user on every address the engine listens on", async () => {
    const addresses = listenersOf(engineOnDataDir());
    expect(addresses.length).toBeGreaterThan(0);
    const outcomes = await Promise.all(
      addresses.map(
        async (address) => `${JSON.stringify(address)}: ${await connectAsNobody(address)}`,
      ),
    );
    expect(outcomes.filter((outcome) => !outcome.endsWith(": EACCES"))).toEqual([]);
  });
});

describe("a launcher killed with SIGKILL", () => {
  let orphan: number;
  let user: { email: string };

  beforeAll(async () => {
    user = await buildUser(factoryApp(first!, mail));
    orphan = engineOnDataDir();
    first!.child.kill("SIGKILL");
    await first!.exited;
  }, 60_000);

  it("leaves its engine running: what the next launcher must clean up", () => {
    expect(isRunning(orphan)).toBe(true);
  });

  it("is followed by a launcher that stops the orphan first, runs one engine, and has the data", async () => {
    second = await startServiceProcess(env, "launcher");
    expect(isRunning(orphan)).toBe(false);
    expect(logLines(second, /^stopping the engine a dead launcher left running/)).toEqual([
      expect.objectContaining({ enginePid: orphan }),
    ]);
    expect(enginesOn(dataDir)).toEqual([enginePid(second)]);
    const signedIn = await login(factoryApp(second, mail), user.email, TEST_PASSWORD);
    expect(signedIn.token).toEqual(expect.any(String));
  }, 60_000);

  it("refuses a launcher on a folder in use, and names the variable that avoids it", async () => {
    const launcher = spawn(process.execPath, [COMPILED.launcher], {
      cwd: path.join(__dirname, "..", ".."),
      env: { ...process.env, ...env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    third = launcher;
    launcher.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => launcher.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain(`is run by process ${second!.child.pid}`);
    expect(output).toContain("MONGODB_URI");
    // The one sentence, and no stack under it.
    const said = output.split("\n").filter((line) => line.trim() && !line.startsWith("{"));
    expect(said).toEqual([
      expect.stringMatching(/^Cannot start: the development database in \S+ is run by process/),
    ]);
    expect(output).not.toMatch(/^\s+at /m);
    expect(enginesOn(dataDir)).toEqual([enginePid(second!)]);
  }, 60_000);
});
