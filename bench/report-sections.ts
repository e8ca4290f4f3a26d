/** What the report's parts share: the targets, the figures' formats, ratios and medians. */
import fs from "node:fs";
import path from "node:path";
import { PATCH_NAMES } from "../tools/dev-db/ferretdb-build";
import type { LoadResult } from "./load";

/** The targets the report judges (issue 31; GET /offices and the storm from issue 7). */
export const TARGET = {
  memberReadP95Ms: 150,
  pageRatio: 1.3,
  ratio: 0.8,
  rssGrowthMb: 30,
  officesP99Ms: 25,
  stormFactor: 2,
  /** REST's service CPU per answer on an office by id, at most this × the floor's. */
  restCpuRatio: 1.3,
  /** A burst of sign-ins at once, at least this share of cores ÷ one hash's time. */
  burstShare: 0.8,
};

export interface Measured {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  group?: string;
  connections: number;
  result: LoadResult;
}

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

/** The lower middle of `values` by `key`. */
export function medianBy<T>(values: readonly T[], key: (value: T) => number): T {
  const sorted = [...values].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
export const median = (values: number[]) => medianBy(values, (value) => value);

/** One run's result through `via` in `group`. */
export const resultIn = (run: Measured[], group: string, via: Measured["via"]) =>
  run.find((m) => m.group === group && m.via === via)?.result;

/**
 * The verdicts of one report. A missed target's reason is written once, below the table, and
 * named from its row: several targets share one reason.
 */
export class Verdicts {
  private readonly reasons = new Map<string, string>();

  verdict(met: boolean, reason?: { title: string; why: string }): string {
    if (met) return "met";
    if (!reason) return "**not met**";
    this.reasons.set(reason.title, reason.why);
    return `**not met**, see "${reason.title}" below`;
  }

  /** The section giving each reason named in the table, or nothing when all were met. */
  section(): string[] {
    if (this.reasons.size === 0) return [];
    const lines = ["", "## Why the missed targets were missed"];
    for (const [title, why] of this.reasons) lines.push("", `**${title}.** ${why}.`);
    return lines;
  }
}

export function versions(engine: string): string {
  const read = (name: string) => {
    try {
      const file = path.join(__dirname, "..", "node_modules", name, "package.json");
      return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
    } catch {
      return "?";
    }
  };
  const packages = ["graphql", "@apollo/server", "sofa-api", "mongoose"];
  return [
    `Node ${process.version}`,
    ...packages.map((name) => `${name} ${read(name)}`),
    `mongodb driver ${read("mongodb")}`,
    `autocannon ${read("autocannon")}`,
    engine === "ferretdb"
      ? `FerretDB v1.24.2 (SQLite backend, built with the patches ${PATCH_NAMES.join(", ")} of tools/dev-db/ferretdb-patches.ts)`
      : `database engine: ${engine}`,
  ].join(", ");
}

export function table(measured: Measured[]): string[] {
  return [
    "| Scenario | Via | Connections | Requests/s | p50 ms | p95 ms | p97.5 ms | p99 ms | Requests | Non-2xx/errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...measured.map(
      ({ name, via, connections, result }) =>
        `| ${name} | ${via} | ${connections} | ${rps(result)} | ${result.p50} | ${result.p95} | ${result.p97_5} | ${result.p99} | ${result.total} | ${result.failures} |`,
    ),
  ];
}

export interface Ratio {
  group: string;
  rest: number;
  graphql: number;
}

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
 * REST / floor and GraphQL / floor throughput for each group that has all three, in each run,
 * and their median: the machine's speed drifts between runs by more than the gaps measured.
 */
export function medianRatios(runs: Measured[][]): (Ratio & { runs: Ratio[] })[] {
  const perRun = runs.map((run) =>
    [...new Set(run.map((m) => m.group))].flatMap((group): Ratio[] => {
      const [floor, rest, graphql] = (["floor", "REST", "GraphQL"] as const).map((via) =>
        group ? resultIn(run, group, via) : undefined,
      );
      if (!group || !floor?.requestsPerSecond || !rest || !graphql) return [];
      return [
        { group, rest: throughputRatio(rest, floor), graphql: throughputRatio(graphql, floor) },
      ];
    }),
  );
  return (perRun[0] ?? []).map(({ group }) => {
    const ofGroup = perRun.flatMap((run) => run.filter((ratio) => ratio.group === group));
    return {
      group,
      rest: median(ofGroup.map((ratio) => ratio.rest)),
      graphql: median(ofGroup.map((ratio) => ratio.graphql)),
      runs: ofGroup,
    };
  });
}

/**
 * Apollo alone against its express counterpart in one run, beside a title by id through
 * /graphql and the floor: the service process's CPU time per answer of each.
 */
export interface ApolloAlone {
  floorUs: number;
  graphqlUs: number;
  expressUs: number;
  apolloUs: number;
  /** The floor's time with only Apollo's own addition on top, as a ratio to the floor. */
  onlyApollo: number;
  /** What /graphql measured against the floor on a title by id in the same run (throughput). */
  graphqlRatio: number;
}

export function apolloAlone(run: Measured[]): ApolloAlone | undefined {
  const floor = resultIn(run, "office by id", "floor");
  const graphql = resultIn(run, "office by id", "GraphQL");
  const floorUs = floor?.cpuMicrosPerRequest;
  const graphqlUs = graphql?.cpuMicrosPerRequest;
  const expressUs = resultIn(run, "Apollo alone", "floor")?.cpuMicrosPerRequest;
  const apolloUs = resultIn(run, "Apollo alone", "GraphQL")?.cpuMicrosPerRequest;
  if (!floor || !graphql || !floorUs || !graphqlUs || !expressUs || !apolloUs) return undefined;
  return {
    floorUs,
    graphqlUs,
    expressUs,
    apolloUs,
    onlyApollo: floorUs / (floorUs + Math.max(0, apolloUs - expressUs)),
    graphqlRatio: throughputRatio(graphql, floor),
  };
}
