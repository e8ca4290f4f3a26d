/** bench/report.ts: what the report says of the targets, from made-up measurements. */
import { renderReport, type Measured, type ReportInput } from "../../bench/report";
import type { LoadResult } from "../../bench/load";
import { parseBenchArguments } from "../../bench/run";

const load = (requestsPerSecond: number, p99 = 10, p95 = 10): LoadResult => ({
  requestsPerSecond,
  p50: 5,
  p95,
  p97_5: p99,
  p99,
  max: p99,
  total: requestsPerSecond * 5,
  failures: 0,
});

const read = (name: string, via: Measured["via"], group: string, rps: number): Measured => ({
  name,
  via,
  group,
  connections: 50,
  result: load(rps),
});

/** Every target met except those `slow` names. */
function input(slow: { ratios?: boolean; search?: boolean; offices?: boolean }): ReportInput {
  const interfaces = slow.ratios ? 700 : 950;
  const suite = ["offices list", "office by id"].flatMap((group) => [
    read(`${group} REST`, "REST", group, interfaces),
    read(`${group} GraphQL`, "GraphQL", group, interfaces),
    read(`${group} floor`, "floor", group, 1000),
  ]);
  const search: Measured = {
    name: "search",
    via: "REST",
    connections: 10,
    result: load(200, 90, slow.search ? 130 : 60),
  };
  return {
    options: parseBenchArguments([]),
    date: new Date("2026-11-23T00:00:00Z"),
    measured: [...suite, search],
    storm: {
      alone: load(3000, slow.offices ? 60 : 20),
      floor: load(3400, slow.offices ? 45 : 18),
      during: load(2500, 30),
      storm: load(3),
    },
    searchTarget: search,
    searchRuns: [search],
    readRuns: [suite],
    searchAlone: { ...search, connections: 1, result: load(80, 20, 10) },
    rss: [250, 251, 250, 260],
    cluster: [],
    csvExport: { rows: 100_000, seconds: 20, baselineMb: 250, peakGrowthMb: 5 },
  };
}

it("gives a missed target's reason once, below the table, however many rows miss for it", () => {
  const report = renderReport(input({ ratios: true, search: true }));
  expect(report.match(/\*\*not met\*\*, see "Ratios to the floor" below/g)).toHaveLength(4);
  expect(report.match(/\*\*Ratios to the floor\.\*\* /g)).toHaveLength(1);
  expect(report).toContain('**not met**, see "Member search" below');
  expect(report.match(/\*\*Member search\.\*\* /g)).toHaveLength(1);
  // The reasons come after the table of targets.
  expect(report.indexOf("## Why the missed targets were missed")).toBeGreaterThan(
    report.indexOf("| RSS after the full benchmark"),
  );
});

it("gives no reasons when every target is met", () => {
  const report = renderReport(input({}));
  expect(report).not.toContain("not met");
  expect(report).not.toContain("## Why the missed targets were missed");
});

it("says a missed GET /offices p99 target against what the floor reached at that concurrency", () => {
  const report = renderReport(input({ offices: true }));
  expect(report).toContain(
    "| 60 ms (3,000 req/s); the hand-written floor right after: 45 ms (3,400 req/s) |",
  );
  expect(report).toContain('**not met**, see "GET /offices p99 at 100 connections" below');
  expect(report).toContain("had a p99 of 45 ms at 3,400 req/s");
});

describe("Apollo alone", () => {
  const timed = (measured: Measured, cpuMicrosPerRequest: number): Measured => ({
    ...measured,
    result: { ...measured.result, cpuMicrosPerRequest },
  });

  /** A title by id: the floor 200 µs, /graphql 290 µs; Apollo alone 90 µs above express. */
  function withApolloAlone(): ReportInput {
    const base = input({ ratios: true });
    const suite = [
      timed(read("office by id REST", "REST", "office by id", 4500), 220),
      timed(read("office by id GraphQL", "GraphQL", "office by id", 3000), 290),
      timed(read("office by id floor", "floor", "office by id", 5000), 200),
      timed(read("alone express", "floor", "Apollo alone", 8000), 110),
      timed(read("alone Apollo", "GraphQL", "Apollo alone", 5000), 200),
    ];
    return { ...base, measured: suite, readRuns: [suite] };
  }

  it("gives each one's CPU time per answer and what Apollo alone would leave /graphql", () => {
    const report = renderReport(withApolloAlone());
    expect(report).toContain("## What Apollo alone costs");
    // 200 / (200 + 90) = 0.689..., shown rounded down; /graphql measured 3 000 / 5 000.
    expect(report).toContain(
      "| 1 | 200 µs | 290 µs | 90 µs | 110 µs | 200 µs | 90 µs | 0.68 | 0.60 |",
    );
  });

  it("names the measured additions in the ratios' reason", () => {
    const report = renderReport(withApolloAlone());
    expect(report).toContain("/graphql took 90 µs more than the floor for a title by id");
    expect(report).toContain("by itself, over a resolver that returns a constant, 90 µs more");
    expect(report).toContain("would leave /graphql at about 0.68 × the floor");
    // The Apollo-alone pair has no REST row and is no ratio target of its own.
    expect(report).not.toContain("Apollo alone: GraphQL ≥");
  });

  it("leaves the section out when the run measured no CPU time for Apollo alone", () => {
    const untimed = { ...withApolloAlone() };
    untimed.readRuns = [
      untimed.measured.map((m) => ({
        ...m,
        result: { ...m.result, cpuMicrosPerRequest: undefined },
      })),
    ];
    for (const report of [renderReport(input({ ratios: true })), renderReport(untimed)]) {
      expect(report).not.toContain("## What Apollo alone costs");
      expect(report).toContain("about 150–200 µs of the service's CPU");
    }
  });
});
