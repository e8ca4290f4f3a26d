import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { login } from "../support/factories";
import { TestMailbox } from "../support/mailbox";
import { eventually } from "../support/until";
import { BOOTSTRAP_ADMIN, TEST_JWT_SECRET } from "../support/test-app";
import {
  enginePid,
  factoryApp,
  logLines,
  probe,
  serviceEnv,
  sleep,
  startServiceProcess,
  type Probe,
  type ServiceProcess,
} from "../support/service-process";

/*
 * `npm start`'s launcher runs the development engine (its own data directory, no MONGODB_URI)
 * and the engine is SIGKILLed under a write load: the launcher must restart it and the service
 * recover by itself, as a single process and as a cluster primary (the launcher's process).
 *
 * A restart is quick enough that requests meanwhile just wait for the engine; so that the
 * outage is long enough to be seen, the test holds the engine's socket path for a while after
 * the kill (a plain file there), which also makes the restarts tried meanwhile fail and be
 * retried.
 */

const API = "/api/v1";
const WRITERS = 4;
/** Bounds the load whatever happens: the test stops it long before. */
const MAX_WRITES = 3_000;
const REQUEST_TIMEOUT_MS = 10_000;
const DOWN_BOUND_MS = 5_000;
/** How long the socket path is held after the kill: the restarts tried meanwhile fail. */
const HOLD_SOCKET_MS = 1_500;
/** From the kill to health 200: the hold, a retry delay of a few seconds at most, the start. */
const RECOVERY_BOUND_MS = 20_000;

interface Write extends Probe {
  title: string;
}

/** The engine's socket, from its "<kind> listening on <socket path> ..." line. */
function engineSocket(service: ServiceProcess): string {
  const line = logLines(service, /^(mongod|ferretdb) listening on /).at(0);
  const socket = /listening on (\S+\.sock) /.exec(String(line?.msg))?.[1];
  if (!socket) throw new Error(`no engine socket logged:\n${service.output()}`);
  return socket;
}

/**
 * Puts a plain file where the killed engine's socket was: the launcher clears away a stale
 * socket before each restart, but not a file, so a restart cannot listen there until it goes.
 */
function holdSocket(socket: string): () => void {
  fs.rmSync(socket, { force: true });
  fs.writeFileSync(socket, "held by the test");
  return () => fs.rmSync(socket, { force: true });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitForHealth(service: ServiceProcess, status: number, boundMs: number) {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const response = await probe(`${service.url}${API}/health`, REQUEST_TIMEOUT_MS);
    if (response.status === status || Date.now() > deadline) return response;
    await sleep(100);
  }
}

/** WRITERS admins creating branch services in a loop until stopped (or MAX_WRITES). */
function startWrites(service: ServiceProcess, token: string) {
  const writes: Write[] = [];
  let running = true;
  const writer = async () => {
    while (running && writes.length < MAX_WRITES) {
      const title = `Supervised branch ${randomBytes(5).toString("hex")}`;
      const result = await probe(`${service.url}${API}/branch-service/create`, REQUEST_TIMEOUT_MS, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: { title, description: "Written while the engine may be restarting" },
      });
      writes.push({ ...result, title });
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  return {
    stop: async () => {
      running = false;
      await Promise.all(writers);
      return writes;
    },
  };
}

const describeWrite = (w: Write) =>
  `${w.title} → ${w.status}${w.error ? ` (${w.error})` : ""} in ${w.ms} ms: ${JSON.stringify(w.body)}`;

describe.each([
  { label: "a single process", workers: "1" },
  { label: "a cluster primary (WORKERS=2)", workers: "2" },
])("the engine launched by $label, SIGKILLed under a write load", ({ workers }) => {
  let dataDir: string;
  let mail: TestMailbox;
  let service: ServiceProcess;
  let token: string;
  let killedPid: number;
  let killedAt: number;
  let down: Probe;
  let up: Probe;
  let writes: Write[];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "supervised-engine-"));
    mail = await TestMailbox.start();
    service = await startServiceProcess(
      serviceEnv({
        WORKERS: workers,
        DATA_DIR: dataDir,
        // Empty is unset for the service: an inherited MONGODB_URI must not bypass the engine.
        MONGODB_URI: "",
        DB_NAME: `t_supervised_${randomBytes(3).toString("hex")}`,
        SMTP_URL: mail.url,
        // The engine's pid is in an info line.
        LOG_LEVEL: "info",
      }),
      "launcher",
    );
    token = (
      await login(factoryApp(service, mail), BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password)
    ).token;
    const load = startWrites(service, token);
    try {
      await sleep(1_500);
      killedPid = enginePid(service);
      killedAt = Date.now();
      process.kill(killedPid, "SIGKILL");
      const release = holdSocket(engineSocket(service));
      down = await waitForHealth(service, 503, DOWN_BOUND_MS);
      await sleep(HOLD_SOCKET_MS - (Date.now() - killedAt));
      release();
      up = await waitForHealth(service, 200, RECOVERY_BOUND_MS);
      await sleep(1_500);
    } finally {
      writes = await load.stop();
    }
  }, 120_000);

  afterAll(async () => {
    const pid = service ? enginePid(service) : undefined;
    await service?.stop();
    if (pid && isAlive(pid)) process.kill(pid, "SIGKILL");
    await mail?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it("answers health 503 degraded while the engine is down, then 200 by itself", () => {
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "degraded", db: "down" });
    expect(down.startedAt - killedAt).toBeLessThan(DOWN_BOUND_MS);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: "ok", db: "up" });
    expect(up.startedAt + up.ms - killedAt).toBeLessThan(RECOVERY_BOUND_MS);
  });

  it("logs the exit, the failed restarts and the restart on the same socket, with pids and no secrets", () => {
    const exits = logLines(service, /exited unexpectedly; restarting$/);
    expect(exits).toEqual([
      expect.objectContaining({ level: 50, enginePid: killedPid, signal: "SIGKILL" }),
    ]);
    // The socket path was held: the retries waited longer and longer.
    const retries = logLines(service, /failed to restart; retrying$/).map((l) => l.retryInMs);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries).toEqual([500, 1_000, 2_000, 4_000].slice(0, retries.length));
    expect(logLines(service, /^(mongod|ferretdb) listening on /)).toHaveLength(1);
    const restarted = enginePid(service);
    expect(restarted).not.toBe(killedPid);
    expect(isAlive(restarted)).toBe(true);
    const engineLines = logLines(service, /^(mongod|ferretdb) /).map((l) => JSON.stringify(l));
    expect(engineLines.join("\n")).not.toContain(TEST_JWT_SECRET);
    expect(engineLines.join("\n")).not.toContain(BOOTSTRAP_ADMIN.password);
  });

  it("answered every write 201 or a 503 SERVICE_UNAVAILABLE, and wrote before and after the kill", () => {
    const unexpected = writes.filter((w) => w.status !== 201 && w.status !== 503);
    expect(unexpected.map(describeWrite)).toEqual([]);
    const acknowledged = writes.filter((w) => w.status === 201);
    expect(acknowledged.some((w) => w.startedAt + w.ms < killedAt)).toBe(true);
    expect(acknowledged.some((w) => w.startedAt > up.startedAt)).toBe(true);
    for (const refused of writes.filter((w) => w.status === 503)) {
      expect(refused.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
    }
  });

  it("kept every write it acknowledged", async () => {
    const missing: string[] = [];
    for (const write of writes.filter((w) => w.status === 201)) {
      const { id } = (write.body as { data: { id: string } }).data;
      // A 503 says nothing of the write, only that this request met no database: with two
      // workers, health 200 came from one while the other may still be reconnecting.
      const read = await eventually(
        () =>
          probe(`${service.url}${API}/branch-service/${id}`, REQUEST_TIMEOUT_MS, {
            headers: { authorization: `Bearer ${token}` },
          }),
        (r) => r.status !== 503,
        RECOVERY_BOUND_MS,
      );
      const title = (read.body as { data?: { title?: string } } | null)?.data?.title;
      if (read.status !== 200 || title !== write.title)
        missing.push(`${describeWrite(write)} reads ${read.status} ${JSON.stringify(read.body)}`);
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it("stops gracefully without restarting the engine", async () => {
    const pid = enginePid(service);
    await service.stop();
    expect(await service.exited).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(logLines(service, /exited unexpectedly; restarting$/)).toHaveLength(1);
    expect(enginePid(service)).toBe(pid);
  }, 30_000);
});
