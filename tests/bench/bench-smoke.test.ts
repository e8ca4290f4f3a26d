/**
 * The benchmark harness end to end, small: seeds two small member counts, runs every scenario
 * briefly against the compiled service and the floor, writes the report. No thresholds: speed
 * is judged in docs/performance.md, this only keeps the harness working.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseBenchArguments } from "../../bench/options";
import { renderReport } from "../../bench/report";
import type { ReportInput } from "../../bench/report-input";
import { runBench } from "../../bench/run";
import { READ_SCENARIOS } from "../../bench/scenarios";

let dir: string;
let input: ReportInput;

// Generous: the run seeds, compiles and measures on machines shared with other work.
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-smoke-"));
  input = await runBench(
    parseBenchArguments(["--smoke", `--data-dir=${path.join(dir, "data")}`, `--out=${dir}/p.md`]),
  );
}, 600_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("measures the member reads at every member count, one at a time, with no failures", () => {
  expect(input.sizes.map((size) => size.members)).toEqual(input.options.sizes);
  for (const size of input.sizes) {
    for (const read of Object.values(size.reads)) {
      expect({ name: read.name, failures: read.result.failures }).toEqual({
        name: read.name,
        failures: 0,
      });
      expect(read.connections).toBe(1);
      expect(read.result.total).toBe(input.options.sizeSamples);
      expect(read.result.p95).toBeLessThanOrEqual(Math.ceil(read.result.max));
    }
    expect(size.serviceRssMb).toBeGreaterThan(20);
  }
  for (const read of Object.values(input.targetReads)) {
    expect(read.result.total).toBe(input.options.targetSamples);
    expect(read.result.failures).toBe(0);
  }
});

it("compares a member page with the queries the service sent, replayed through the driver", () => {
  const { page } = input;
  // The page and its count together, then its accounts and branches together.
  expect(page.queries).toHaveLength(2);
  expect(page.queries[0]).toMatch(/^(find|aggregate) members .* ‖ (find|aggregate) members /);
  expect(page.queries[1]).toContain("find users");
  expect(page.queries[1]).toContain("find branch_services");
  const pages = input.options.pageTurns * input.options.pagesPerTurn;
  expect(page.service.total).toBe(pages);
  expect(page.driver.total).toBe(pages);
  expect(page.service.failures).toBe(0);
  expect(page.turnRatios).toHaveLength(input.options.pageTurns);
  expect(page.ratio).toBeGreaterThan(0);
});

it("measures every interface scenario, applications and sign-ins, each with answers and no failures", () => {
  expect(input.measured.map((measured) => measured.name)).toEqual([
    ...READ_SCENARIOS.map((scenario) => scenario.name),
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

it("measures GET /offices with and without a sign-in storm", () => {
  const { storm } = input;
  for (const load of [storm.alone, storm.floor, storm.during, storm.storm]) {
    expect(load.total).toBeGreaterThan(0);
  }
  expect(storm.alone.failures + storm.floor.failures + storm.during.failures).toBe(0);
});

it("sends a burst of sign-ins at every count up to the target, through REST and the floor", () => {
  for (const size of input.sizes) {
    const burst = size.burst!;
    expect(burst.count).toBe(input.options.burstSize);
    expect(burst.hashMs).toBeGreaterThan(0);
    expect(burst.bound).toBeCloseTo(burst.cores / (burst.hashMs / 1000));
    for (const side of [burst.rest, burst.floor]) {
      // Every sign-in was answered and charged: the service hashed, and the engine's process
      // was found (its few reads of a small database may stay under one clock tick).
      expect(side.answered).toBe(burst.count);
      expect(side.share).toBeCloseTo(side.perSecond / burst.bound);
      expect(side.serviceCpuMs).toBeGreaterThan(0);
      expect(side.engineCpuMs).toEqual(expect.any(Number));
      expect(side.engineCpuMs).toBeGreaterThanOrEqual(0);
    }
  }
});

it("downloads the CSV export of every record at the target count while watching the memory", () => {
  // The smoke data: its members plus the applications the run itself made.
  expect(input.csvExport.rows).toBe(input.options.targetSize + input.options.applications);
  expect(input.csvExport.baselineMb).toBeGreaterThan(20);
});

it("samples every model's collection for the capacity plan", () => {
  const names = input.capacity.collections.map((collection) => collection.name);
  expect(names).toEqual(expect.arrayContaining(["members", "users", "sessions", "offices"]));
  const members = input.capacity.collections.find((collection) => collection.name === "members")!;
  expect(members.documents).toBe(input.options.targetSize + input.options.applications);
  expect(members.fields.searchText.measured).toBe(true);
  expect(members.documentBytes).toBeGreaterThan(500);
});

it("renders the report with the machine, every target, every count and the capacity plan", () => {
  const report = renderReport(input);
  expect(report).toContain(`- Machine: ${os.cpus().length} ×`);
  for (const { name } of input.measured) expect(report).toContain(`| ${name} |`);
  for (const size of input.options.sizes) {
    expect(report).toContain(`| ${size.toLocaleString("en")} | `);
  }
  expect(report).toMatch(/offices list: REST ≥ 0\.9 × floor \| \d+\.\d\d ×/);
  expect(report).toMatch(/within 1\.3 × its queries through the driver alone, .* \| \d+\.\d\d ×/);
  expect(report).toMatch(
    /office by id: REST's service CPU per answer ≤ 1\.15 × the floor's \(issue 52\) \| \d+\.\d\d ×/,
  );
  expect(report).toMatch(
    /office by id: \/graphql's service CPU per answer ≤ 1\.2 × the floor's \(issue 52\) \| \d+\.\d\d ×/,
  );
  expect(report).toMatch(
    /directory: a 304's service CPU ≤ 0\.25 × a 200's \(issue 52\) \| \d+\.\d\d ×/,
  );
  for (const size of input.options.sizes) {
    expect(report).toMatch(
      new RegExp(
        `4 sign-ins at once ≥ 0\\.8 × cores ÷ one hash, ${size} members \\| \\d+\\.\\d\\d/s`,
      ),
    );
    expect(report).toMatch(
      new RegExp(
        `4 sign-ins at once through REST ≥ 0\\.95 × the floor's rate, ${size} members \\(issue 52\\) \\| \\d+\\.\\d\\d ×`,
      ),
    );
  }
  for (const target of [
    "GET /members p95 < 150 ms at one connection",
    "GET /users p95 < 150 ms at one connection",
    "Service RSS at 300 members ≤ 30 MB above 100",
    "concurrent sign-ins",
    "export.csv",
    "## Capacity plan for MongoDB (on paper)",
    "## Sign-in bursts",
  ]) {
    expect(report).toContain(target);
  }
  expect(report).not.toContain("Does not hold:");
});
