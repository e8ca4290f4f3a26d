/**
 * The development database's data folder under the faults a small organisation's machine meets
 * (issue 53.6): a full disk, a folder made read-only, a path with characters FerretDB took as
 * glob or URL syntax. The whole service runs as `npm start` runs it (tools/dev-db/start.ts,
 * compiled, in a process of its own), on a 48 MiB file system mounted for the test, so filling
 * it is quick.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import supertest from "supertest";
import { startEngine } from "../../tools/dev-db/engine";
import { findExecutable } from "../../tools/dev-db/executables";
import { BOOTSTRAP_ADMIN } from "../support/test-app";
import { freePort } from "../support/free-port";
import { COMPILED, ensureServiceBuilt } from "../support/service-build";

const ROOT = path.join(__dirname, "..", "..");
const STACK_LINE = /^\s+at /m;

/** Why this machine cannot mount a small file system for the test, or undefined if it can. */
function whyNoMount(): string | undefined {
  if (process.platform !== "linux") return "not Linux";
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root";
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "pipe" });
    execFileSync("umount", [probe], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as Error).message).split("\n")[0]}`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

interface Service {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The service as `npm start` runs it: the launcher, which starts the engine in DATA_DIR. */
function launch(dataDir: string, port: number): Service {
  const child = spawn(process.execPath, [COMPILED.launcher], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      BCRYPT_COST: "4",
      ADMIN_EMAIL: BOOTSTRAP_ADMIN.email,
      ADMIN_PASSWORD: BOOTSTRAP_ADMIN.password,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, output: () => output, exited };
}

async function untilServing(service: Service, port: number): Promise<void> {
  for (let attempt = 0; attempt < STARTS_WITHIN_MS / 250; attempt += 1) {
    if (service.child.exitCode !== null)
      throw new Error(`the service exited:\n${service.output()}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined);
    if (health?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the service did not start:\n${service.output()}`);
}

async function stop(service: Service): Promise<number | null> {
  if (service.child.exitCode === null) service.child.kill("SIGTERM");
  return service.exited;
}

/** Writes to `dir`'s file system until it has no byte left. */
function fill(file: string): void {
  const fd = fs.openSync(file, "w");
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The launcher starts an engine, then the service: on a busy machine, slow. */
const STARTS_WITHIN_MS = 120_000;

function readEnginePid(dataDir: string): number | undefined {
  try {
    const { pid } = JSON.parse(
      fs.readFileSync(path.join(dataDir, "dev-db", "engine.pid"), "utf8"),
    ) as { pid: number };
    return pid;
  } catch {
    return undefined;
  }
}

async function killAndWait(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(pid, "SIGTERM");
  while (alive()) await new Promise((resolve) => setTimeout(resolve, 100));
}

const cannotMount = whyNoMount();
const FIVE = [1, 2, 3, 4, 5].map((n) => `Branch ${n}`);
// What the launcher runs (globalSetup built it; again here if a source changed since).
beforeAll(() => ensureServiceBuilt(), 120_000);

const onRootWithMount = cannotMount ? describe.skip : describe;

onRootWithMount(
  `a 48 MiB data folder filled, freed, made read-only${cannotMount ? ` (skipped: ${cannotMount})` : ""}`,
  () => {
    let mountPoint: string;
    let dataDir: string;
    let port: number;
    let service: Service | undefined;

    beforeAll(async () => {
      mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "full-disk-"));
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=48m", "tmpfs", mountPoint]);
      dataDir = path.join(mountPoint, "data");
      port = await freePort();
    });
    afterAll(async () => {
      if (service) await stop(service);
      // A launcher stopped before its service was up leaves the engine for the next launcher to
      // stop (tools/dev-db/ownership.ts); none comes after this test, so it is stopped here.
      const engine = readEnginePid(dataDir);
      if (engine !== undefined) await killAndWait(engine);
      execFileSync("umount", [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }, STARTS_WITHIN_MS);

    const api = () => supertest(`http://127.0.0.1:${port}/api/v1`);
    const signIn = async () => {
      const response = await api()
        .post("/auth/login")
        .send({ email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password });
      return { authorization: `Bearer ${response.body.accessToken as string}` };
    };
    const create = async (auth: Record<string, string>, title: string) =>
      api()
        .post("/branch-service/create")
        .set(auth)
        .send({ title, description: "d".repeat(2000) });
    const titles = async (auth: Record<string, string>) => {
      const response = await api().get("/branch-service?limit=100").set(auth);
      expect(response.status).toBe(200);
      return (response.body.data as { title: string }[]).map((b) => b.title).sort();
    };

    it(
      "answers 500, never a success, while the disk is full, and takes writes again once it is freed",
      async () => {
        service = launch(dataDir, port);
        try {
          await untilServing(service, port);
          const auth = await signIn();
          for (let n = 1; n <= 5; n += 1)
            expect((await create(auth, `Branch ${n}`)).status).toBe(201);

          const filler = path.join(mountPoint, "filler");
          try {
            fill(filler);
            // A failure of ours, never answered as stored. (A request of several writes may have
            // made its first before the disk refused the next: README, "A full disk".)
            const whileFull = await create(auth, "Written while full");
            expect([whileFull.status, whileFull.body.code]).toEqual([500, "INTERNAL_SERVER_ERROR"]);
            expect(await titles(auth)).toEqual(expect.arrayContaining(FIVE));
          } finally {
            fs.rmSync(filler, { force: true });
          }
          expect((await create(auth, "Branch 6")).status).toBe(201);
        } finally {
          expect(await stop(service)).toBe(0);
          service = undefined;
        }
      },
      STARTS_WITHIN_MS,
    );

    it(
      "says in one sentence that a read-only data folder cannot be used, and changes nothing",
      async () => {
        execFileSync("mount", ["-o", "remount,ro", mountPoint]);
        try {
          const readOnly = launch(dataDir, port);
          expect(await readOnly.exited).toBe(1);
          expect(readOnly.output()).toMatch(
            new RegExp(`^Cannot start: ${dataDir}\\S* is on a read-only file system\\.`),
          );
          expect(readOnly.output()).not.toMatch(STACK_LINE);
        } finally {
          execFileSync("mount", ["-o", "remount,rw", mountPoint]);
        }
      },
      STARTS_WITHIN_MS,
    );

    it(
      "serves every record at the next read-write start",
      async () => {
        service = launch(dataDir, port);
        try {
          await untilServing(service, port);
          const auth = await signIn();
          expect(await titles(auth)).toEqual(expect.arrayContaining([...FIVE, "Branch 6"]));
        } finally {
          expect(await stop(service)).toBe(0);
          service = undefined;
        }
      },
      STARTS_WITHIN_MS,
    );
  },
);

// With a mongod on PATH startEngine runs it instead, and FerretDB's folder handling is not at stake.
const onFerretdb = findExecutable("mongod") ? describe.skip : describe;

onFerretdb("a DATA_DIR whose path holds glob and URL syntax", () => {
  let parent: string;
  beforeAll(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), "odd-path-"));
  });
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  // FerretDB found no database under the first (a glob) and deleted the file at the first
  // write; it read the second as a URL and did not start.
  it.each(["data [1]", "data #2 ?3"])("keeps every record across restarts in %s", async (name) => {
    const dataDir = path.join(parent, name);
    const counts: number[] = [];
    for (let start = 0; start < 2; start += 1) {
      const engine = await startEngine({ dataDir, log: () => undefined });
      const client = await MongoClient.connect(engine.uri, { directConnection: true });
      try {
        const records = client.db("odd_path").collection<{ _id: string }>("records");
        if (start === 0)
          await records.insertMany([1, 2, 3, 4, 5].map((n) => ({ _id: `record-${n}` })));
        counts.push(await records.countDocuments());
        await records.insertOne({ _id: `written-at-start-${start}` });
        counts.push(await records.countDocuments());
      } finally {
        await client.close();
        await engine.stop();
      }
    }
    expect(counts).toEqual([5, 6, 6, 7]);
  });

  it("refuses a `%` in DATA_DIR in one sentence: the driver cannot reach a socket there", async () => {
    await expect(
      startEngine({ dataDir: path.join(parent, "100%"), log: () => undefined }),
    ).rejects.toThrow(/^DATA_DIR must not contain "%"/);
  });
});
