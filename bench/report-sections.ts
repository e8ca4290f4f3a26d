/** What the report's parts share: the targets, the figures' formats, ratios and medians. */
import type { LoadResult } from "./load";
import type { Scenario } from "./scenario";

/** The targets the report judges (issue 31; GET /offices and the storm from issue 7). */
export const TARGET = {
  memberReadP95Ms: 150,
  pageRatio: 1.3,
  /** An office report within this × its aggregations through the driver alone. */
  reportRatio: 1.3,
  /** Every interface's rate at least this × its floor's (issue 52). */
  ratio: 0.9,
  rssGrowthMb: 30,
  officesP99Ms: 25,
  stormFactor: 2,
  /** The service's CPU per answer through an interface, at most this × the floor's (issue 52). */
  cpuRatio: { REST: 1.15, GraphQL: 1.2 },
  /** A revalidation answered 304, at most this × a 200's service CPU (issue 52). */
  revalidationShare: 0.25,
  /** A burst of sign-ins at once, at least this share of cores ÷ one hash's time. */
  burstShare: 0.8,
  /** A burst through REST, at least this × the floor's rate (issue 52). */
  burstVsFloor: 0.95,
};

/** A scenario's load as measured. */
export type Measured = Pick<Scenario, "name" | "via" | "group"> & {
  connections: number;
  result: LoadResult;
};

export const heading = (title: string) => ["", `## ${title}`, ""];

export const count = (members: number) => Math.round(members).toLocaleString("en");
/** Answers per second; with a decimal below 10, where sign-ins at cost 12 would read 0. */
export const rps = (result: LoadResult) =>
  result.requestsPerSecond < 10
    ? result.requestsPerSecond.toFixed(1)
    : Math.round(result.requestsPerSecond).toLocaleString("en");
/** Mean milliseconds an answer, for loads of one request at a time. */
export const msPer = (result: LoadResult) => 1000 / Math.max(result.requestsPerSecond, 1e-9);
/** Whole milliseconds, or ? for a figure that could not be read. */
export const ms = (value: number | null) => (value === null ? "?" : `${Math.round(value)} ms`);
export const fixed = (value: number, digits = 2) => value.toFixed(digits);
/** Two decimals rounded down, so a ratio of 0.798 does not read as a met 0.80. */
export const ratioText = (value: number) => (Math.floor(value * 100 + 1e-9) / 100).toFixed(2);
/** Two decimals rounded up, so a ratio of 1.302 does not read as a met 1.30. */
export const ceilingText = (value: number) => (Math.ceil(value * 100 - 1e-9) / 100).toFixed(2);

export const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
export const mean = (values: number[]) => sum(values) / Math.max(values.length, 1);

/** The lower middle of `values` by `key`. */
export function medianBy<T>(values: readonly T[], key: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
export const median = (values: number[]) => medianBy(values, (value) => value);

export const resultIn = (run: Measured[], group: string, via: Measured["via"]) =>
  run.find((m) => m.group === group && m.via === via)?.result;

type Ratio = { group: string; rest: number; graphql?: number };

/**
 * The throughput of `a` over that of `b`: when they took turns, the median of their ratios
 * round by round (a pause of the engine then falls on one round), else the ratio of their rates.
 */
export function throughputRatio(a: LoadResult, b: LoadResult): number {
  const [turnsA, turnsB] = [a.turnRates ?? [], b.turnRates ?? []];
  if (turnsA.length > 0 && turnsA.length === turnsB.length) {
    return median(turnsA.map((rate, turn) => rate / Math.max(turnsB[turn], 1e-9)));
  }
  return a.requestsPerSecond / b.requestsPerSecond;
}

/**
 * REST / floor and GraphQL / floor throughput for each group with a floor, in each run, and
 * their median: the machine's speed drifts between runs by more than the gaps measured.
 */
export function medianRatios(runs: Measured[][]): (Ratio & { runs: Ratio[] })[] {
  const perRun = runs.map((run) =>
    [...new Set(run.flatMap((m) => m.group ?? []))].flatMap((group): Ratio[] => {
      const [floor, rest, graphql] = (["floor", "REST", "GraphQL"] as const).map((via) =>
        resultIn(run, group, via),
      );
      if (!floor?.requestsPerSecond || !rest) return [];
      const graphqlRatio = graphql && throughputRatio(graphql, floor);
      return [{ group, rest: throughputRatio(rest, floor), graphql: graphqlRatio }];
    }),
  );
  return (perRun[0] ?? []).map(({ group, graphql }) => {
    const ofGroup = perRun.flatMap((run) => run.filter((ratio) => ratio.group === group));
    return {
      group,
      rest: median(ofGroup.map((ratio) => ratio.rest)),
      graphql: graphql === undefined ? undefined : median(ofGroup.map((r) => r.graphql ?? NaN)),
      runs: ofGroup,
    };
  });
}

/**
 * The service's CPU per answer of `part` over that of `whole` in `group`, in each run that timed
 * both, and their median (none when no run did): `pick` finds each among the group's results in
 * the order they ran.
 */
export function cpuRatios(
  runs: Measured[][],
  group: string,
  pick: (inGroup: Measured[]) => readonly [part?: Measured, whole?: Measured],
) {
  const each = runs.flatMap((run) => {
    const [part, whole] = pick(run.filter((m) => m.group === group));
    const [a, b] = [part?.result.cpuMicrosPerRequest, whole?.result.cpuMicrosPerRequest];
    return a && b ? [a / b] : [];
  });
  return each.length === 0 ? [] : [{ group, ratio: median(each), runs: each }];
}
