import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bearer, buildUser } from "../support/factories";
import { TestMailbox } from "../support/mailbox";
import {
  factoryApp,
  logLines,
  probe,
  serviceEnv,
  startServiceProcess,
  stopAll,
  type ServiceProcess,
} from "../support/service-process";
import { COMPILED } from "../support/service-build";
import { until } from "../support/until";

/*
 * WORKERS=2 as `npm start` runs it: the development launcher (tools/dev-db/start.ts) starts an
 * engine of its own (its own data directory, no MONGODB_URI) and runs src/main.ts's node:cluster
 * primary in its process; the two workers connect to that engine. The process tree is read
 * from /proc (Linux), as an operator would with ps.
 */

const API = "/api/v1";
const WORKERS = 2;
const REQUEST_TIMEOUT_MS = 5_000;

let dataDir: string;
let mail: TestMailbox;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cluster-engine-"));
  mail = await TestMailbox.start();
  service = await startServiceProcess(
    serviceEnv({
      WORKERS: String(WORKERS),
      DATA_DIR: dataDir,
      // Empty is unset for the service: an inherited MONGODB_URI must not bypass the engine.
      MONGODB_URI: "",
      DB_NAME: `t_cluster_${randomBytes(3).toString("hex")}`,
      SMTP_URL: mail.url,
      // Request lines name the worker that answered: that is how the test sees who served.
      LOG_LEVEL: "info",
    }),
    "launcher",
  );
  // Health answers as soon as one worker listens; the other may still be starting.
  await waitFor(() => logLines(service!, "service listening").length === WORKERS, 30_000);
}, 90_000);

afterAll(async () => {
  await stopAll([service]);
  await mail?.close();
  // Whatever a failed run left behind: only processes started on this run's data directory.
  for (const leftover of processesMentioning(dataDir)) killQuietly(leftover.pid);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

/** Live processes (zombies excluded: they are dead, only not yet reaped). */
function processes(): Proc[] {
  return fs.readdirSync("/proc").flatMap((entry): Proc[] => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") return [];
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ");
      return [{ pid: Number(entry), ppid: Number(ppid), cmdline }];
    } catch {
      return []; // gone between the listing and the read
    }
  });
}

/** The primary's children that run the service (the engine is its child too). */
function workerPids(): number[] {
  const primary = service!.child.pid;
  return processes()
    .filter((p) => p.ppid === primary && p.cmdline.includes(COMPILED.launcher))
    .map((p) => p.pid);
}

function processesMentioning(text: string): Proc[] {
  return processes().filter((p) => p.cmdline.includes(text));
}

const isGone = (pid: number) => !fs.existsSync(`/proc/${pid}`);

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

const waitFor = (condition: () => boolean, timeoutMs: number) =>
  until(condition, `not: ${String(condition)}`, timeoutMs, 100);

/**
 * `count` requests, one after the other, each on a new connection and with its own request id;
 * resolves with the statuses, the bodies and, from the access log, the worker that answered each.
 */
async function send(
  count: number,
  route: string,
  headers: Record<string, string> = {},
): Promise<{ statuses: number[]; bodies: unknown[]; workers: Set<unknown> }> {
  const tag = randomBytes(4).toString("hex");
  const ids = Array.from({ length: count }, (_, i) => `cluster-${tag}-${i}`);
  const responses = [];
  for (const id of ids) {
    const headersWithId = { ...headers, "x-request-id": id };
    responses.push(
      await probe(`${service!.url}${API}${route}`, REQUEST_TIMEOUT_MS, { headers: headersWithId }),
    );
  }
  // A response can reach us before its worker's log line reaches the primary's stdout. The
  // line's own id is the service's; ours is logged beside it.
  const answeredBy = () =>
    logLines(service!, "request completed").filter((line) =>
      ids.includes((line.req as { clientRequestId?: string } | undefined)?.clientRequestId ?? ""),
    );
  await waitFor(() => answeredBy().length === count, 5_000);
  return {
    statuses: responses.map((r) => r.status),
    bodies: responses.map((r) => r.body),
    workers: new Set(answeredBy().map((line) => line.worker)),
  };
}

describe("the service as a cluster of WORKERS=2", () => {
  it("runs two workers under the primary, and both answer requests", async () => {
    expect(workerPids()).toHaveLength(WORKERS);
    expect(logLines(service!, "cluster primary started")).toEqual([
      expect.objectContaining({ workers: WORKERS }),
    ]);
    const { statuses, workers } = await send(40, "/health");
    expect(statuses).toEqual(Array(40).fill(200));
    expect(workers.size).toBe(WORKERS);
  });

  it("serves what one request wrote to the next ones, whichever worker answers them", async () => {
    const user = await buildUser(factoryApp(service!, mail));
    const { statuses, bodies, workers } = await send(20, "/users/current", bearer(user));
    expect(statuses).toEqual(Array(20).fill(200));
    const ids = bodies.map((body) => (body as { user?: { id?: string } }).user?.id);
    expect(ids).toEqual(Array(20).fill(user.id));
    expect(workers.size).toBe(WORKERS);
  });

  it("started exactly one database engine, in the primary, and the workers connected to it", () => {
    const engines = processesMentioning(dataDir);
    expect(engines).toHaveLength(1);
    expect(engines[0].ppid).toBe(service!.child.pid);
    expect(service!.output().match(/(mongod|ferretdb) listening on /g)).toHaveLength(1);
    expect(logLines(service!, "service listening")).toHaveLength(WORKERS);
  });

  it("replaces a worker killed with SIGKILL and keeps answering", async () => {
    const [victim, survivor] = workerPids();
    process.kill(victim, "SIGKILL");
    // Reaped by the primary: from then on it hands no connection to the dead worker.
    await waitFor(() => isGone(victim), 5_000);
    await waitFor(() => workerPids().length === WORKERS, 5_000);
    expect(workerPids()).toContain(survivor);
    expect(workerPids()).not.toContain(victim);
    expect(logLines(service!, "worker died unexpectedly; forking a replacement")).toEqual([
      expect.objectContaining({ pid: victim, signal: "SIGKILL" }),
    ]);
    // While the replacement is still starting, the survivor answers everything.
    const during = await send(20, "/health");
    expect(during.statuses).toEqual(Array(20).fill(200));

    // The replacement starts like the others did, then takes its share of the requests. A
    // start loads the whole service again: on a machine busy with other test files that
    // takes a good share of a minute.
    await waitFor(() => logLines(service!, "service listening").length === WORKERS + 1, 75_000);
    const replacement = logLines(service!, "service listening")[WORKERS].worker;
    const after = await send(20, "/health");
    expect(after.statuses).toEqual(Array(20).fill(200));
    expect(after.workers.size).toBe(WORKERS);
    expect(after.workers).toContain(replacement);
  }, 100_000);

  it("on SIGTERM stops its workers and the engine, and exits 0 within 15 s", async () => {
    const children = [...workerPids(), ...processesMentioning(dataDir).map((p) => p.pid)];
    expect(children).toHaveLength(WORKERS + 1);
    const signalledAt = Date.now();
    service!.child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 15_000, "timeout")));
    const code = await Promise.race([service!.exited, timeout]);
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(15_000);
    expect(children.filter((pid) => !isGone(pid))).toEqual([]);
    expect(processesMentioning(dataDir)).toEqual([]);
    // Each worker drained and said so, then the primary; the pipe may still hold the last lines.
    await waitFor(() => logLines(service!, "stopped").length === WORKERS + 1, 2_000);
  }, 30_000);
});
