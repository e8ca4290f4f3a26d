/** bench/run.ts reports each read scenario's median run; the choice must not mix scenarios. */
import type { Measured } from "../../bench/report";
import { medianRuns } from "../../bench/run";

const run = (name: string, requestsPerSecond: number): Measured => ({
  name,
  via: "REST",
  connections: 50,
  result: {
    requestsPerSecond,
    p50: 1,
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
