import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildUser, login, TEST_PASSWORD } from "../support/factories";
import { TestMailbox } from "../support/mailbox";
import {
  enginePid,
  factoryApp,
  logLines,
  serviceEnv,
  startServiceProcess,
  stopAll,
  type ServiceProcess,
} from "./service-process";

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

/** TCP sockets in LISTEN state that process `pid` holds. */
function tcpListenersOf(pid: number): string[] {
  const inodes = new Set(
    fs.readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
        return /^socket:\[(\d+)\]$/.exec(target)?.[1] ?? [];
      } catch {
        return [];
      }
    }),
  );
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

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** What a client running as `nobody` gets when it connects to `socket`. */
function connectAsNobody(socket: string): Promise<string> {
  const script =
    "require('node:net').connect({ path: process.argv[1] })" +
    ".on('connect', () => { console.log('connected'); process.exit(0); })" +
    ".on('error', (error) => { console.log(error.code); process.exit(0); });";
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, socket], {
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
    expect(tcpListenersOf(enginePid(first!))).toEqual([]);
  });

  // Root passes every file mode; a client of another user is what the folder's modes stop.
  asRoot("refuses a client of another user", async () => {
    const socket = path.join(dataDir, "dev-db", "engine.sock");
    expect(await connectAsNobody(socket)).toBe("EACCES");
  });
});

describe("a launcher killed with SIGKILL", () => {
  let orphan: number;
  let user: { email: string };

  beforeAll(async () => {
    user = await buildUser(factoryApp(first!, mail));
    orphan = enginePid(first!);
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
    const third = spawn(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "tools/dev-db/start.ts"],
      {
        cwd: path.join(__dirname, "..", ".."),
        env: { ...process.env, ...env, PORT: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    third.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    third.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => third.once("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain(`is run by process ${second!.child.pid}`);
    expect(output).toContain("MONGODB_URI");
    expect(enginesOn(dataDir)).toEqual([enginePid(second!)]);
  }, 60_000);
});
