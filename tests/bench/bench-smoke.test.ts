/**
 * The benchmark harness end to end, small: seeds a few hundred demo members, runs every
 * scenario for a second against the compiled service and the floor, writes the report. No
 * thresholds: speed is judged in docs/performance.md, this only keeps the harness working.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderReport, type ReportInput } from "../../bench/report";
import { parseBenchArguments, runBench } from "../../bench/run";
import { READ_SCENARIOS } from "../../bench/scenarios";

let dir: string;
let input: ReportInput;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-smoke-"));
  input = await runBench(
    parseBenchArguments(["--smoke", `--data-dir=${path.join(dir, "data")}`, `--out=${dir}/p.md`]),
  );
}, 240_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("measures every read scenario, applications and sign-ins, each with answers and no failures", () => {
  const names = input.measured.map((measured) => measured.name);
  expect(names).toEqual([
    ...READ_SCENARIOS.map((scenario) => scenario.name),
    "GET /members?search=… (varied)",
    "GET /members?search=… (varied)",
    "POST /members/apply",
    "POST /auth/login (bcrypt cost 12)",
  ]);
  for (const { name, result } of input.measured) {
    expect({ name, failures: result.failures }).toEqual({ name, failures: 0 });
    expect(result.total).toBeGreaterThan(0);
  }
  // Scenarios compared with each other took turns and got the service's CPU time per answer.
  for (const { name, group, result } of input.measured.filter((measured) => measured.group)) {
    expect({ name, group, cpu: result.cpuMicrosPerRequest! > 0 }).toEqual({
      name,
      group,
      cpu: true,
    });
  }
  const apply = input.measured.find((measured) => measured.name === "POST /members/apply")!;
  expect(apply.result.total).toBe(input.options.applications);
});

it("measures the search latency target (varied surname prefixes) with no failures", () => {
  expect(input.searchRuns.length).toBe(input.options.runs);
  expect(input.searchRuns).toContain(input.searchTarget);
  for (const search of [...input.searchRuns, input.searchAlone]) {
    expect(search.result.total).toBeGreaterThan(0);
    expect(search.result.failures).toBe(0);
    // The target's percentile, read from every response's time, within the slowest of them.
    expect(search.result.p95).toBeGreaterThanOrEqual(0);
    expect(search.result.p95).toBeLessThanOrEqual(Math.ceil(search.result.max));
  }
  expect(input.searchAlone.connections).toBe(1);
  expect(input.searchTarget.connections).toBeGreaterThan(1);
});

it("measures GET /offices with and without a sign-in storm, and the service's memory", () => {
  expect(input.storm.alone.total).toBeGreaterThan(0);
  expect(input.storm.during.total).toBeGreaterThan(0);
  expect(input.storm.storm.total).toBeGreaterThan(0);
  expect(input.storm.floor.total).toBeGreaterThan(0);
  expect(
    input.storm.alone.failures + input.storm.floor.failures + input.storm.during.failures,
  ).toBe(0);
  expect(input.rss.length).toBe(input.options.runs + 1);
  for (const mb of input.rss) expect(mb).toBeGreaterThan(20);
});

it("downloads the CSV export of every seeded record while watching the memory", () => {
  // The smoke data: its members plus the applications the run itself made.
  expect(input.csvExport.rows).toBe(input.options.members + input.options.applications);
  expect(input.csvExport.baselineMb).toBeGreaterThan(20);
});

it("renders the report with the machine, the table, ratios to the floor and every target", () => {
  const report = renderReport(input);
  expect(report).toContain(`- Machine: ${os.cpus().length} ×`);
  for (const { name } of input.measured) expect(report).toContain(`| ${name} |`);
  expect(report).toMatch(/offices list: REST ≥ 0\.8 × floor \| \d+\.\d\d ×/);
  expect(report).toMatch(/office by id: GraphQL ≥ 0\.8 × floor \| \d+\.\d\d ×/);
  for (const target of [
    "p99 < 25 ms",
    "p95 < 100 ms",
    "concurrent sign-ins",
    "RSS after",
    "export.csv",
    "## What Apollo alone costs",
  ]) {
    expect(report).toContain(target);
  }
});
