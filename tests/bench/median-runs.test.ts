/** The report shows each interface scenario's median run; the choice must not mix scenarios. */
import { percentile } from "../../bench/load";
import { medianRatios, throughputRatio, type Measured } from "../../bench/report-sections";
import { medianRuns } from "../../bench/suite";

const run = (
  name: string,
  requestsPerSecond: number,
  via: Measured["via"] = "REST",
  group?: Measured["group"],
): Measured => ({
  name,
  via,
  group,
  connections: 50,
  result: {
    requestsPerSecond,
    p50: 1,
    p95: 2,
    p97_5: 2,
    p99: 3,
    max: 4,
    total: 5,
    failures: 0,
  },
});

it("keeps, per scenario, the run with the median throughput", () => {
  const suites = [
    [run("a", 300), run("b", 10)],
    [run("a", 100), run("b", 30)],
    [run("a", 200), run("b", 20)],
  ];
  expect(medianRuns(suites).map((m) => [m.name, m.result.requestsPerSecond])).toEqual([
    ["a", 200],
    ["b", 20],
  ]);
});

it("takes the lower middle of an even number of runs, and the only run of one", () => {
  expect(medianRuns([[run("a", 5)], [run("a", 9)]])[0].result.requestsPerSecond).toBe(5);
  expect(medianRuns([[run("a", 7)]])[0].result.requestsPerSecond).toBe(7);
});

it("takes the ratios to the floor within each run, then their median", () => {
  // Run 2 ran on a slow machine throughout: its own ratios are still fair.
  const suite = (rest: number, graphql: number, floor: number) => [
    run("GET /offices", rest, "REST", "offices list"),
    run("offices", graphql, "GraphQL", "offices list"),
    run("floor", floor, "floor", "offices list"),
  ];
  const [ratio] = medianRatios([
    suite(900, 800, 1000),
    suite(450, 350, 500),
    suite(950, 700, 1000),
  ]);
  expect(ratio.group).toBe("offices list");
  expect(ratio.rest).toBeCloseTo(0.9);
  expect(ratio.graphql).toBeCloseTo(0.7);
  expect(ratio.runs.map((r) => [r.rest, r.graphql])).toEqual([
    [0.9, 0.8],
    [0.9, 0.7],
    [0.95, 0.7],
  ]);
});

it("takes a ratio of loads that took turns round by round, so one slow turn does not move it", () => {
  const turns = (turnRates: number[]) => ({
    ...run("x", turnRates.reduce((a, b) => a + b, 0) / turnRates.length).result,
    turnRates,
  });
  // The engine paused during the third round's REST turn.
  const rest = turns([90, 92, 20, 88]);
  const floor = turns([100, 100, 100, 100]);
  expect(throughputRatio(rest, floor)).toBeCloseTo(0.88);
  // Without rounds to pair, the ratio of the rates.
  expect(throughputRatio(run("a", 90).result, run("b", 100).result)).toBeCloseTo(0.9);
});

it("reads a percentile by nearest rank from every response's time", () => {
  const times = Array.from({ length: 200 }, (_, index) => 200 - index + 0.4);
  expect(percentile(times, 95)).toBe(190);
  expect(percentile(times, 50)).toBe(100);
  expect(percentile([7.6], 95)).toBe(8);
  expect(percentile([], 95)).toBe(0);
});
