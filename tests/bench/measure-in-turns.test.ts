/**
 * bench/load.ts measures the scenarios of a ratio in turns, so that the machine's drift falls
 * on all of them: checked against a real local server that records which load hit it when.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { measure, measureInTurns } from "../../bench/load";

let server: http.Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.statusCode = req.url === "/missing" ? 404 : 200;
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("runs the loads in turns and adds up each one's turns", async () => {
  hits.length = 0;
  const [a, b] = await measureInTurns(
    [
      { url: `${base}/a`, connections: 2 },
      { url: `${base}/missing`, connections: 2 },
      { url: `${base}/c`, connections: 2 },
    ],
    2,
    { turnSeconds: 1 },
  );
  // Turns: a, b, c, then backwards, so that no load always follows the same other one.
  const runs = hits.filter((url, index) => index === 0 || hits[index - 1] !== url);
  expect(runs).toEqual(["/a", "/missing", "/c", "/missing", "/a"]);
  // Each turn's own rate, in the order of the turns, for ratios taken round by round.
  expect(a.turnRates).toHaveLength(2);
  for (const rate of a.turnRates!) expect(rate).toBeGreaterThan(0);
  // Every answer counts; a request still in flight when its turn ends (one per connection) does not.
  const served = (url: string) => hits.filter((hit) => hit === url).length;
  expect(a.total).toBeLessThanOrEqual(served("/a"));
  expect(a.total).toBeGreaterThanOrEqual(served("/a") - 2 * 2);
  expect(b.total).toBeLessThanOrEqual(served("/missing"));
  expect(b.total).toBeGreaterThanOrEqual(served("/missing") - 2 * 2);
  expect(a.failures).toBe(0);
  expect(b.failures).toBe(b.total);
  // Two seconds of load each: the rate is over the turns' own time, not the whole call's.
  expect(a.requestsPerSecond).toBeGreaterThan(a.total / 2.5);
  expect(a.requestsPerSecond).toBeLessThan(a.total / 1.8);
  expect(a.p50).toBeLessThanOrEqual(a.p99);
  expect(a.p99).toBeLessThanOrEqual(Math.ceil(a.max));
}, 20_000);

it("times a turn of an amount to its last answer, not to autocannon's next tick", async () => {
  // Forty immediate answers take a few milliseconds; autocannon reports them up to a second later.
  const [a] = await measureInTurns([{ url: `${base}/a`, connections: 2, amount: 40 }], 2);
  expect(a.total).toBe(80);
  for (const rate of a.turnRates!) expect(rate).toBeGreaterThan(40 / 0.5);
  expect(a.requestsPerSecond).toBeGreaterThan(80 / 0.5);
}, 20_000);

it("gives each load the server's CPU time per answer when told how to read it", async () => {
  // The server runs in this process: its CPU time is this process's.
  const cpuOf = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const before = cpuOf();
  const [a] = await measureInTurns([{ url: `${base}/a`, connections: 2 }], 1, { cpuOf });
  const spent = cpuOf() - before;
  expect(a.total).toBeGreaterThan(0);
  expect(a.cpuMicrosPerRequest).toBeGreaterThan(0);
  // The CPU time of the turn alone, not of the process since it started: within what the
  // whole call spent (the client shares this process, so no bound in seconds holds here).
  expect(a.cpuMicrosPerRequest! * a.total).toBeLessThanOrEqual(spent);
  const [plain] = await measureInTurns([{ url: `${base}/a`, connections: 2 }], 1);
  expect(plain.cpuMicrosPerRequest).toBeUndefined();
}, 20_000);

it("reads one load's p95 and slowest answer from the same exact response times", async () => {
  const result = await measure({ url: `${base}/a`, connections: 2, durationSeconds: 1 });
  expect(result.total).toBeGreaterThan(0);
  expect(result.max).toBeGreaterThan(0);
  // Exact (fractional) milliseconds, not autocannon's whole ones.
  expect(Number.isInteger(result.max)).toBe(false);
  expect(result.p95).toBeLessThanOrEqual(Math.ceil(result.max));
}, 20_000);
