import { randomBytes } from "node:crypto";
import http from "node:http";
import { BOOTSTRAP_ADMIN } from "../support/test-app";
import {
  dropDatabase,
  probe,
  serviceEnv,
  sleep,
  startServiceProcess,
  type Probe,
  type ServiceProcess,
} from "../support/service-process";

/*
 * Issue 6: SIGTERM while requests are in flight. The service stops listening at once,
 * finishes what it accepted, and exits 0 (src/main.ts). Logins at BCRYPT_COST=10 keep the
 * process busy long enough for the signal to land in the middle of them.
 *
 * The in-flight requests travel on keep-alive connections the service accepted beforehand, as
 * a load balancer's would: a connection still waiting in the kernel's listen backlog when the
 * listener closes is reset by the kernel before the service ever sees it (bcrypt keeps the
 * event loop from accepting for hundreds of milliseconds), which no service can finish.
 */

const API = "/api/v1";
const IN_FLIGHT_LOGINS = 10;
const IN_FLIGHT_LISTS = 10;
const EXIT_WITHIN_MS = 10_000;
/** A refused request is refused at once; one that waits this long has hung. */
const REFUSAL_WITHIN_MS = 2_000;

const dbName = `t_sigterm_${randomBytes(3).toString("hex")}`;
let service: ServiceProcess | undefined;
let adminToken: string;

/** A fresh service process for one test, and a token of its administrator. */
async function startService(): Promise<void> {
  service = await startServiceProcess(
    serviceEnv({
      MONGODB_URI: process.env.TEST_MONGODB_URI!,
      DB_NAME: dbName,
      BCRYPT_COST: "10",
      LOG_LEVEL: "info",
    }),
  );
  const signedIn = await login();
  expect(signedIn.status).toBe(200);
  adminToken = (signedIn.body as { accessToken: string }).accessToken;
}

afterEach(async () => {
  await service?.stop();
}, 30_000);

afterAll(async () => {
  await dropDatabase(process.env.TEST_MONGODB_URI!, dbName);
}, 30_000);

const login = (agent?: http.Agent) =>
  probe(`${service!.url}${API}/auth/login`, 30_000, {
    method: "POST",
    body: { email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password },
    agent,
  });

const LISTS = ["/branch-service", "/offices", "/members", "/users"];
const list = (index: number, options: { timeoutMs?: number; agent?: http.Agent } = {}) =>
  probe(
    `${service!.url}${API}${LISTS[index % LISTS.length]}?limit=100`,
    options.timeoutMs ?? 30_000,
    {
      headers: { authorization: `Bearer ${adminToken}` },
      agent: options.agent,
    },
  );

/** An agent holding `count` keep-alive connections the service has already accepted and served. */
async function warmAgent(count: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const warmed = await Promise.all(
    Array.from({ length: count }, () => probe(`${service!.url}${API}/`, 5_000, { agent })),
  );
  expect(warmed.map((response) => response.status)).toEqual(warmed.map(() => 200));
  expect(Object.values(agent.freeSockets).flat()).toHaveLength(count);
  return agent;
}

const describeProbe = (p: Probe) =>
  `${p.status}${p.error ? ` (${p.error})` : ""} after ${p.ms} ms: ${JSON.stringify(p.body)}`;

/** Polls the process's output until `text` shows up; false if it does not within timeoutMs. */
async function waitForOutput(text: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!service!.output().includes(text)) {
    if (Date.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

/** Connection refused or reset, or a 503: anything but being served or left waiting. */
function isRefusal(p: Probe): boolean {
  return (
    (p.status === 0 && (p.error === "ECONNREFUSED" || p.error === "ECONNRESET")) || p.status === 503
  );
}

describe("SIGTERM with requests in flight", () => {
  it("finishes every accepted request with its normal status, refuses new ones, and exits 0", async () => {
    await startService();
    const agent = await warmAgent(IN_FLIGHT_LOGINS + IN_FLIGHT_LISTS);
    const logins = Array.from({ length: IN_FLIGHT_LOGINS }, () => login(agent));
    const lists = Array.from({ length: IN_FLIGHT_LISTS }, (_, index) => list(index, { agent }));
    // Long enough for every request to be read; far shorter than the logins take.
    await sleep(150);

    const signalledAt = Date.now();
    service!.child.kill("SIGTERM");
    const exited = service!.exited.then((code) => ({ code, at: Date.now() }));

    // Once the process says it is shutting down, it no longer takes requests.
    expect(await waitForOutput('"msg":"shutting down: finishing in-flight requests"', 5_000)).toBe(
      true,
    );
    const late: Probe[] = [];
    const sendLate = async () => {
      late.push(await list(late.length, { timeoutMs: REFUSAL_WITHIN_MS * 2 }));
      await sleep(25);
    };
    while (late.length < 3 && !service!.hasExited()) await sendLate();

    const loginResults = await Promise.all(logins);
    const listResults = await Promise.all(lists);
    // The client lets go of its connections, as one does once its answers are in (the next
    // test is about a client that does not).
    agent.destroy();
    while (!service!.hasExited()) await sendLate();
    expect(loginResults.filter((p) => p.status !== 200).map(describeProbe)).toEqual([]);
    for (const result of loginResults)
      expect(result.body).toMatchObject({ accessToken: expect.any(String) });
    expect(listResults.filter((p) => p.status !== 200).map(describeProbe)).toEqual([]);
    // The signal really came in the middle of them: some finished only after it.
    const finishedAfterSignal = [...loginResults, ...listResults].filter(
      (p) => p.startedAt + p.ms > signalledAt,
    );
    expect(finishedAfterSignal.length).toBeGreaterThanOrEqual(3);

    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((p) => !isRefusal(p)).map(describeProbe)).toEqual([]);
    expect(late.filter((p) => p.ms >= REFUSAL_WITHIN_MS).map(describeProbe)).toEqual([]);

    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(EXIT_WITHIN_MS);
    expect(service!.output()).toContain('"msg":"stopped"');
  }, 60_000);

  /*
   * A client that keeps reusing connections the service accepted before the signal (a load
   * balancer's keep-alive pool) once kept a stopping service serving for the whole grace time
   * and made it exit 1. Now such requests get 503 with Connection: close.
   */
  it("serves no request sent after the signal on a kept-alive connection, and still exits 0 within 10 s", async () => {
    await startService();
    // A load balancer's pool: connections accepted before the signal and reused after it.
    const agent = await warmAgent(4);
    const inFlight = Array.from({ length: 4 }, () => login(agent));
    await sleep(100);
    const signalledAt = Date.now();
    service!.child.kill("SIGTERM");
    const exited = service!.exited.then((code) => ({ code, at: Date.now() }));
    expect(await waitForOutput('"msg":"shutting down: finishing in-flight requests"', 5_000)).toBe(
      true,
    );

    const reused: Probe[] = [];
    while (!service!.hasExited() && Date.now() - signalledAt < EXIT_WITHIN_MS + 2_000) {
      reused.push(await list(reused.length, { agent, timeoutMs: REFUSAL_WITHIN_MS * 2 }));
      await sleep(50);
    }
    agent.destroy();

    expect((await Promise.all(inFlight)).map(describeProbe)).toEqual(
      Array.from({ length: 4 }, () => expect.stringMatching(/^200 /)),
    );
    const { code, at } = await exited;
    expect(reused.length).toBeGreaterThan(0);
    expect(reused.filter((p) => !isRefusal(p)).map((p) => p.status)).toEqual([]);
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);
});
