/**
 * ProcessSupervisor on real child processes: a small TCP server stands in for the engine (it
 * listens on the port it is given, as FerretDB does), so restarts, delays and stops are seen
 * from outside, through the port and the log.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import { freePort } from "../support/free-port";
import {
  ProcessSupervisor,
  type Backoff,
  type EngineLogLevel,
} from "../../tools/dev-db/supervisor";
import { until } from "../support/until";

const BACKOFF: Backoff = { initialMs: 100, maxMs: 400, stableAfterMs: 1_000 };
const WAIT_BOUND_MS = 10_000;

interface Entry {
  message: string;
  fields: Record<string, unknown>;
  level: EngineLogLevel;
}

interface Harness {
  supervisor: ProcessSupervisor;
  port: number;
  log: Entry[];
  spawnedAt: number[];
  /** How the next spawns behave: "serve" listens on the port, "crash" exits at once. */
  plan: ("serve" | "crash")[];
}

const harnesses: Harness[] = [];

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.supervisor.stop()));
});

async function supervise(): Promise<Harness> {
  const port = await freePort();
  const harness: Harness = {
    supervisor: undefined as unknown as ProcessSupervisor,
    port,
    log: [],
    spawnedAt: [],
    plan: [],
  };
  harness.supervisor = new ProcessSupervisor({
    name: "stand-in",
    spawn: () => {
      harness.spawnedAt.push(Date.now());
      const script =
        (harness.plan.shift() ?? "serve") === "serve"
          ? `require("node:net").createServer((s) => s.end()).listen(${port}, "127.0.0.1")`
          : "process.exit(3)";
      return spawn(process.execPath, ["-e", script], { stdio: "ignore" });
    },
    ready: (abort) => waitForPort(port, abort),
    log: (message, fields = {}, level = "info") => harness.log.push({ message, fields, level }),
    backoff: BACKOFF,
  });
  harnesses.push(harness);
  await harness.supervisor.start();
  return harness;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitForPort(port: number, abort: AbortSignal): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!abort.aborted && Date.now() < deadline) {
    if (await answers(port)) return;
    await sleep(20);
  }
  throw new Error(`nothing listens on ${port}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitFor = (condition: () => boolean) =>
  until(condition, `not: ${String(condition)}`, WAIT_BOUND_MS, 20);

const messages = (h: Harness) => h.log.map((entry) => entry.message);
const restarts = (h: Harness) => messages(h).filter((m) => m.startsWith("stand-in restarted"));

function killProcess(h: Harness): number {
  const pid = h.supervisor.pid!;
  process.kill(pid, "SIGKILL");
  return pid;
}

it("restarts a process killed from outside on the same port, logging the exit and the restart", async () => {
  const h = await supervise();
  const first = killProcess(h);
  await waitFor(() => restarts(h).length === 1);

  expect(await answers(h.port)).toBe(true);
  const second = h.supervisor.pid;
  expect(second).toBeDefined();
  expect(second).not.toBe(first);
  expect(h.log).toEqual([
    { message: `stand-in started (pid ${first})`, fields: { enginePid: first }, level: "info" },
    {
      message: "stand-in exited unexpectedly; restarting",
      fields: expect.objectContaining({
        enginePid: first,
        code: null,
        signal: "SIGKILL",
        restartInMs: BACKOFF.initialMs,
      }) as unknown,
      level: "error",
    },
    { message: `stand-in restarted (pid ${second})`, fields: { enginePid: second }, level: "warn" },
  ]);
});

it("does not restart a process it was asked to stop", async () => {
  const h = await supervise();
  await h.supervisor.stop();
  await sleep(BACKOFF.maxMs * 3);
  expect(h.spawnedAt).toHaveLength(1);
  expect(await answers(h.port)).toBe(false);
  expect(messages(h).filter((m) => !m.startsWith("stand-in started"))).toEqual([]);
});

it("doubles the delay while restarts fail, up to the maximum, then comes back", async () => {
  const h = await supervise();
  h.plan.push("crash", "crash", "crash", "crash");
  killProcess(h);
  await waitFor(() => restarts(h).length === 1);

  const delays = h.log
    .filter((entry) => entry.level === "error")
    .map((entry) => entry.fields.restartInMs ?? entry.fields.retryInMs);
  expect(delays).toEqual([100, 200, 400, 400, 400]);
  expect(h.log.filter((e) => e.message === "stand-in failed to restart; retrying")).toHaveLength(4);
  // Each spawn came no sooner than the delay announced before it.
  const gaps = h.spawnedAt.slice(2).map((at, i) => at - h.spawnedAt[i + 1]);
  expect(gaps).toHaveLength(4);
  gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual((delays[i + 1] as number) - 5));
  expect(await answers(h.port)).toBe(true);
});

it("starts from the initial delay again once the process has stayed up a while", async () => {
  const h = await supervise();
  killProcess(h);
  await waitFor(() => restarts(h).length === 1);
  // Dies again at once: a short-lived process keeps the doubled delay.
  killProcess(h);
  await waitFor(() => restarts(h).length === 2);
  await sleep(BACKOFF.stableAfterMs + 100);
  killProcess(h);
  await waitFor(() => restarts(h).length === 3);

  const delays = h.log
    .filter((entry) => entry.message === "stand-in exited unexpectedly; restarting")
    .map((entry) => entry.fields.restartInMs);
  expect(delays).toEqual([100, 200, 100]);
});

it("cancels a pending restart when stopped, and supervises again when started again", async () => {
  const h = await supervise();
  killProcess(h);
  await waitFor(() => messages(h).includes("stand-in exited unexpectedly; restarting"));
  await h.supervisor.stop();
  await sleep(BACKOFF.maxMs * 3);
  expect(h.spawnedAt).toHaveLength(1);
  expect(await answers(h.port)).toBe(false);

  await h.supervisor.start();
  expect(await answers(h.port)).toBe(true);
  killProcess(h);
  await waitFor(() => restarts(h).length === 1);
  expect(await answers(h.port)).toBe(true);
});

it("leaves the process running but does not restart it once told the service is stopping", async () => {
  const h = await supervise();
  h.supervisor.stopSupervising();
  expect(await answers(h.port)).toBe(true);
  killProcess(h);
  await sleep(BACKOFF.maxMs * 3);
  expect(h.spawnedAt).toHaveLength(1);
  expect(await answers(h.port)).toBe(false);
  expect(messages(h).filter((m) => !m.startsWith("stand-in started"))).toEqual([]);
});
