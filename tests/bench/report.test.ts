/** bench/report.ts: what the report says of the targets, from made-up measurements. */
import type { PageVsDriver } from "../../bench/driver-alone";
import type { LoadResult } from "../../bench/load";
import type { MemberReads } from "../../bench/member-reads";
import { parseBenchArguments } from "../../bench/options";
import { KEPT_MARKER, keepHandWritten, renderReport } from "../../bench/report";
import type { ReportInput, SizeResult } from "../../bench/report-input";
import type { Measured } from "../../bench/report-sections";
import { crossing } from "../../bench/report-text";
import type { BurstResult } from "../../bench/sign-in-burst";

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

/** A read of `group` through `via` that took `cpu` µs of the service's CPU per answer. */
const timed = (via: Measured["via"], group: string, rps: number, cpu: number): Measured => {
  const measured = read(`${group} ${via}`, via, group, rps);
  return { ...measured, result: { ...measured.result, cpuMicrosPerRequest: cpu } };
};

/** The three member reads, each with this p95. */
const memberReads = (p95: number): MemberReads => {
  const one = (name: string): Measured => ({
    name,
    via: "REST",
    connections: 1,
    result: { ...load(1000 / p95, p95, p95), total: 12 },
  });
  return { list: one("GET /members"), search: one("search"), users: one("GET /users") };
};

const size = (members: number, p95: number, serviceRssMb = 150): SizeResult => ({
  members,
  reads: memberReads(p95),
  serviceRssMb,
  engineRssMb: 100,
});

/** Mean times per page (ms) through the service and the driver. */
const page = (serviceMs: number, driverMs: number): PageVsDriver => ({
  page: 50,
  service: load(1000 / serviceMs),
  driver: load(1000 / driverMs),
  ratio: serviceMs / driverMs,
  turnRatios: [serviceMs / driverMs],
  queries: ["find members {} ‖ aggregate members {}", "find users {}"],
});

interface Slow {
  ratios?: boolean;
  reads?: boolean;
  offices?: boolean;
  page?: boolean;
  memory?: boolean;
  report?: boolean;
}

/** Every target met except those `slow` names. */
function input(slow: Slow): ReportInput {
  const interfaces = slow.ratios ? 700 : 950;
  const suite = ["offices list", "office by id"].flatMap((group) => [
    read(`${group} REST`, "REST", group, interfaces),
    read(`${group} GraphQL`, "GraphQL", group, interfaces),
    read(`${group} floor`, "floor", group, 1000),
  ]);
  return {
    options: parseBenchArguments([]),
    date: new Date("2026-11-24T00:00:00Z"),
    engine: "ferretdb",
    sizes: [size(1000, 20), size(10_000, 100), size(100_000, 1000, slow.memory ? 200 : 160)],
    targetReads: memberReads(slow.reads ? 400 : 100),
    page: slow.page ? page(130.2, 100) : page(110, 100),
    reports: [
      { report: "members-by-region", ...page(slow.report ? 4600 : 3390, 3500) },
      { report: "onboarding-funnel", ...page(3600, 3600) },
    ],
    measured: suite,
    readRuns: [suite],
    storm: {
      alone: load(3000, slow.offices ? 60 : 20),
      floor: load(3400, slow.offices ? 45 : 18),
      during: load(2500, 30),
      storm: load(3),
    },
    csvExport: { rows: 10_500, seconds: 2, baselineMb: 150, peakGrowthMb: 5 },
    capacity: { members: 10_000, collections: [], recorded: {} },
  };
}

it("gives a missed target's reason once, below the table, however many rows miss for it", () => {
  const report = renderReport(input({ ratios: true, reads: true }));
  expect(report.match(/\*\*not met\*\*, see "Ratios to the floor" below/g)).toHaveLength(4);
  expect(report.match(/\*\*Ratios to the floor\.\*\* /g)).toHaveLength(1);
  expect(
    report.match(/\*\*not met\*\*, see "Member reads on the development engine" below/g),
  ).toHaveLength(3);
  expect(report.match(/\*\*Member reads on the development engine\.\*\* /g)).toHaveLength(1);
  // The reasons come after the table of targets.
  expect(report.indexOf("## Why the missed targets were missed")).toBeGreaterThan(
    report.indexOf("| GET /offices p99 during"),
  );
});

it("gives no reasons when every target is met", () => {
  const report = renderReport(input({}));
  expect(report).not.toContain("not met");
  expect(report).not.toContain("## Why the missed targets were missed");
  // Sign-ins at cost 12 come a few a second: a decimal, so they never read 0.
  expect(report).toContain("(sign-ins: 3.0 req/s, 0 failed)");
});

it("judges the member reads at the target count at one connection", () => {
  const report = renderReport(input({ reads: true }));
  expect(report).toContain(
    "| GET /members p95 < 150 ms at one connection, 10,000 members | p95 400 ms, p50 5 ms (12 requests) | **not met**",
  );
  // The reason names what the driver alone took for the same page.
  expect(report).toContain("the page's queries through the driver alone took 100.0 ms");
});

it("judges a member page against the driver alone rounded up, so 1.302 is not 1.30", () => {
  const met = renderReport(input({}));
  expect(met).toContain("| 1.10 × (110.0 ms against 100.0 ms a page; turns: 1.10) | met |");
  const missed = renderReport(input({ page: true }));
  expect(missed).toContain(
    "| 1.31 × (130.2 ms against 100.0 ms a page; turns: 1.31) | **not met**",
  );
  expect(missed).toContain("The service adds 30.2 ms a page");
  const faster = renderReport({ ...input({}), page: page(90, 100) });
  expect(faster).toContain("The service's pages took 10.0 ms less than the driver's (0.90 ×)");
});

it("judges each office report against its aggregations through the driver alone", () => {
  const met = renderReport(input({}));
  expect(met).toContain(
    "| GET /reports/members-by-region within 1.3 × its aggregations through the driver alone, 10,000 members | 0.97 × (3390.0 ms against 3500.0 ms; turns: 0.97) | met |",
  );
  expect(met).toContain("| GET /reports/onboarding-funnel within 1.3 × ");
  const missed = renderReport(input({ report: true }));
  expect(missed).toContain(
    '| 1.32 × (4600.0 ms against 3500.0 ms; turns: 1.32) | **not met**, see "Reports against the driver alone" below |',
  );
  expect(missed).toContain("**Reports against the driver alone.** A report is an aggregation");
});

it("judges memory by the service's RSS at the largest count against the smallest", () => {
  expect(renderReport(input({}))).toContain(
    "| Service RSS at 100,000 members ≤ 30 MB above 1,000, after the same read load | 160 MB against 150 MB (+10 MB) | met |",
  );
  expect(renderReport(input({ memory: true }))).toContain(
    "| 200 MB against 150 MB (+50 MB) | **not met**",
  );
});

it("says from which member count the member reads pass the target, between measured counts", () => {
  // 100 ms at 10 000 and 1 000 ms at 100 000: 150 ms is 1/18 of the way.
  expect(crossing([size(1000, 20), size(10_000, 100), size(100_000, 1000)], 150)).toBe(15_000);
  expect(crossing([size(1000, 20), size(10_000, 100)], 150)).toBeNull();
  expect(crossing([size(1000, 200), size(10_000, 300)], 150)).toBe(1000);
  expect(renderReport(input({}))).toContain("reaches 150 ms at about 15,000 members");
});

it("says a missed GET /offices p99 target against what the floor reached at that concurrency", () => {
  const report = renderReport(input({ offices: true }));
  expect(report).toContain(
    "| 60 ms (3,000 req/s); the hand-written floor right after: 45 ms (3,400 req/s) |",
  );
  expect(report).toContain('**not met**, see "GET /offices p99 at 100 connections" below');
  expect(report).toContain("had a p99 of 45 ms at 3,400 req/s");
});

describe("the floor's CPU in the ratios' reason", () => {
  it("names the floor's CPU per answer for a title by id when the run timed it", () => {
    const base = input({ ratios: true });
    const suite = [
      timed("REST", "office by id", 4500, 220),
      timed("GraphQL", "office by id", 3000, 290),
      timed("floor", "office by id", 5000, 200),
    ];
    const report = renderReport({ ...base, measured: suite, readRuns: [suite] });
    expect(report).toContain(
      "about 200 µs of the service's CPU for a signed-in title by id in this run",
    );
  });

  it("says what it usually is when no run timed it", () => {
    expect(renderReport(input({ ratios: true }))).toContain(
      "about 150–200 µs of the service's CPU",
    );
  });
});

describe("REST's CPU on a title by id, and the sign-in bursts", () => {
  /** Three runs of REST against the floor on a title by id, in µs of CPU per answer. */
  function withCpu(runs: [number, number][]): ReportInput {
    const readRuns = runs.map(([rest, floor]) => [
      timed("REST", "office by id", 1000, rest),
      timed("floor", "office by id", 1000, floor),
    ]);
    return { ...input({}), readRuns };
  }

  it("judges REST's CPU per answer on a title by id by the median of the runs' ratios", () => {
    const met = renderReport(
      withCpu([
        [550, 500],
        [560, 500],
        [575, 500],
      ]),
    );
    expect(met).toContain(
      "| office by id: REST's service CPU per answer ≤ 1.15 × the floor's (issue 52) | 1.12 × (runs: 1.10, 1.12, 1.15) | met |",
    );
    const missed = renderReport(
      withCpu([
        [700, 500],
        [750, 500],
        [600, 500],
      ]),
    );
    expect(missed).toContain(
      '| 1.40 × (runs: 1.40, 1.50, 1.20) | **not met**, see "The service\'s CPU per answer" below |',
    );
  });

  const side = (perSecond: number, engineCpuMs: number | null) => ({
    answered: 20,
    seconds: 20 / perSecond,
    perSecond,
    share: perSecond / 8,
    serviceCpuMs: 260,
    engineCpuMs,
  });
  const burst = (rest: number, floor: number, engineCpuMs: number | null): BurstResult => ({
    count: 20,
    hashMs: 250,
    cores: 2,
    bound: 8,
    rest: side(rest, engineCpuMs),
    floor: side(floor, engineCpuMs),
  });

  /** Bursts at 1,000 and 10,000 members: none at 100,000, past the target. */
  function withBursts(at1000: BurstResult, at10000: BurstResult): ReportInput {
    const base = input({});
    const [small, target, large] = base.sizes;
    return {
      ...base,
      sizes: [{ ...small, burst: at1000 }, { ...target, burst: at10000 }, large],
    };
  }

  it("judges each count's burst against cores ÷ one hash, beside the floor's", () => {
    const report = renderReport(withBursts(burst(7.2, 7.4, 40), burst(2.6, 2.9, 330)));
    expect(report).toContain(
      "| 20 sign-ins at once ≥ 0.8 × cores ÷ one hash, 1,000 members | 7.20/s against 8.00/s = 0.90; the floor 0.93; per sign-in the engine's CPU 40 ms, one hash 250 ms | met |",
    );
    expect(report).toContain(
      '| 20 sign-ins at once ≥ 0.8 × cores ÷ one hash, 10,000 members | 2.60/s against 8.00/s = 0.33; the floor 0.36; per sign-in the engine\'s CPU 330 ms, one hash 250 ms | **not met**, see "Sign-in bursts on the development engine" below |',
    );
    expect(report).not.toContain("100,000 members | 2");
    // The reason gives the engine's CPU and the floor's share at the target, and the small count.
    expect(report).toContain(
      "at 10,000 members the engine spent 330 ms of CPU per sign-in against one hash's 250 ms",
    );
    expect(report).toContain("reached 0.36 of the bound where REST reached 0.33");
    // Through REST against the floor's rate.
    expect(report).toContain(
      "| 20 sign-ins at once through REST ≥ 0.95 × the floor's rate, 1,000 members (issue 52) | 0.97 × (7.20/s against 7.40/s) | met |",
    );
    expect(report).toContain(
      '| 20 sign-ins at once through REST ≥ 0.95 × the floor\'s rate, 10,000 members (issue 52) | 0.89 × (2.60/s against 2.90/s) | **not met**, see "Sign-in bursts on the development engine" below |',
    );
    expect(report).toContain(
      "At 1,000 members (40 ms of the engine's CPU per sign-in) REST reached 0.90",
    );
    // The section: a row per route at each count.
    expect(report).toContain("## Sign-in bursts");
    expect(report).toContain(
      "| 10,000 | floor | 20 of 20 | 6.90 s | 2.90 | 250 ms | 8.00 | 0.36 | 260 ms | 330 ms |",
    );
  });

  it("says so when the engine's process was not found", () => {
    const report = renderReport(withBursts(burst(7.2, 7.4, null), burst(7, 7, null)));
    expect(report).not.toContain("not met");
    expect(report).toContain(
      "| 1,000 | REST | 20 of 20 | 2.78 s | 7.20 | 250 ms | 8.00 | 0.90 | 260 ms | ? |",
    );
  });
});

describe("issue 52: each interface's CPU against the floor's, and a 304 against a 200", () => {
  /** One run: the office groups and the directory (a 200 through REST, the floor, then a 304). */
  const run = (graphqlUs: number, directoryUs: number, notModifiedUs: number): Measured[] => [
    ...["offices list", "office by id"].flatMap((group) => [
      timed("REST", group, 950, 560),
      timed("GraphQL", group, 950, graphqlUs),
      timed("floor", group, 1000, 500),
    ]),
    timed("REST", "directory", 850, directoryUs),
    timed("floor", "directory", 1000, 500),
    timed("REST", "directory", 20_000, notModifiedUs),
  ];

  it("gives a row for each, judged by the median of the runs", () => {
    const report = renderReport({
      ...input({}),
      readRuns: [run(590, 560, 100), run(610, 580, 120), run(650, 600, 160)],
    });
    expect(report).toContain(
      "| offices list: /graphql's service CPU per answer ≤ 1.2 × the floor's (issue 52) | 1.22 × (runs: 1.18, 1.22, 1.30) | **not met**, see \"The service's CPU per answer\" below |",
    );
    expect(report).toContain(
      "| directory: REST's service CPU per answer ≤ 1.15 × the floor's (issue 52) | 1.16 × (runs: 1.12, 1.16, 1.20) | **not met**",
    );
    // 100 ÷ 560, 120 ÷ 580, 160 ÷ 600.
    expect(report).toContain(
      "| directory: a 304's service CPU ≤ 0.25 × a 200's (issue 52) | 0.21 × (runs: 0.18, 0.21, 0.27) | met |",
    );
    // The directory has no GraphQL row: its rate is judged through REST alone, the 200's.
    expect(report).toContain("| directory: REST ≥ 0.9 × floor | 0.85 × (runs: 0.85, 0.85, 0.85)");
    expect(report).not.toContain("directory: GraphQL");
    expect(report).toContain("**The service's CPU per answer.** REST runs Sofa");
  });

  it("meets them when every run is within its bound", () => {
    const report = renderReport({ ...input({}), readRuns: [run(590, 560, 100)] });
    expect(report).toContain(
      "| office by id: /graphql's service CPU per answer ≤ 1.2 × the floor's (issue 52) | 1.18 × (runs: 1.18) | met |",
    );
    expect(report).toContain(
      "| directory: a 304's service CPU ≤ 0.25 × a 200's (issue 52) | 0.18 × (runs: 0.18) | met |",
    );
  });
});

it("keeps the hand-written part of the previous report, from its marker on, below the new one", () => {
  const kept = `${KEPT_MARKER}\n\n## Files\n\nMeasured with --only=files.\n`;
  const previous = `# Performance\n\nold figures\n\n${kept}`;
  expect(keepHandWritten("# Performance\n\nnew figures\n", previous)).toBe(
    `# Performance\n\nnew figures\n\n${kept}`,
  );
  // Nothing to keep: no previous report, or one without the marker.
  expect(keepHandWritten("new\n", null)).toBe("new\n");
  expect(keepHandWritten("new\n", "old figures\n")).toBe("new\n");
});
