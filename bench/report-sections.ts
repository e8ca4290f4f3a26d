import fs from "node:fs";
import path from "node:path";
import { PATCH_NAMES } from "../tools/dev-db/ferretdb-build";
import type { LoadResult } from "./load";

export interface Measured {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  group?: string;
  connections: number;
  result: LoadResult;
}

/** Answers per second; with a decimal below 10, where sign-ins at cost 12 would read 0. */
export const rps = (result: LoadResult) =>
  result.requestsPerSecond < 10
    ? result.requestsPerSecond.toFixed(1)
    : Math.round(result.requestsPerSecond).toLocaleString("en");
export const fixed = (value: number, digits = 2) => value.toFixed(digits);
/** Two decimals rounded down, so a ratio of 0.798 does not read as a met 0.80. */
export const ratioText = (value: number) => (Math.floor(value * 100 + 1e-9) / 100).toFixed(2);
/** Two decimals rounded up, so a ratio of 1.302 does not read as a met 1.30. */
export const ceilingText = (value: number) => (Math.ceil(value * 100 - 1e-9) / 100).toFixed(2);

/**
 * The verdicts of one report. A missed target's reason is written once, below the table, and
 * named from its row: several targets share one reason, and copies of it in the table made the
 * page hard to read.
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
  return [
    `Node ${process.version}`,
    `graphql ${read("graphql")}`,
    `@apollo/server ${read("@apollo/server")}`,
    `sofa-api ${read("sofa-api")}`,
    `mongoose ${read("mongoose")}`,
    `mongodb driver ${read("mongodb")}`,
    `autocannon ${read("autocannon")}`,
    engine === "ferretdb"
      ? `FerretDB v1.24.2 (SQLite backend, built with the patches ${PATCH_NAMES.join(", ")} of tools/dev-db/ferretdb-patches.ts)`
      : `database engine: ${engine}`,
  ].join(", ");
}

export function table(measured: Measured[]): string[] {
  const lines = [
    "| Scenario | Via | Connections | Requests/s | p50 ms | p95 ms | p97.5 ms | p99 ms | Requests | Non-2xx/errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const { name, via, connections, result } of measured) {
    lines.push(
      `| ${name} | ${via} | ${connections} | ${rps(result)} | ${result.p50} | ${result.p95} | ${result.p97_5} | ${result.p99} | ${result.total} | ${result.failures} |`,
    );
  }
  return lines;
}

export interface Ratio {
  group: string;
  rest: number;
  graphql: number;
}

/** The lower middle value. */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/**
 * The throughput of `a` over that of `b`: the median of their ratios round by round when they
 * took turns (a pause of the engine falls on one turn, where it would otherwise move the whole
 * run's ratio), else the ratio of their rates.
 */
export function throughputRatio(a: LoadResult, b: LoadResult): number {
  const [turnsA, turnsB] = [a.turnRates ?? [], b.turnRates ?? []];
  if (turnsA.length > 0 && turnsA.length === turnsB.length) {
    return median(turnsA.map((rate, turn) => rate / Math.max(turnsB[turn], 1e-9)));
  }
  return a.requestsPerSecond / b.requestsPerSecond;
}

/** REST / floor and GraphQL / floor throughput for each group that has a floor, in one run. */
export function ratios(measured: Measured[]): Ratio[] {
  const groups = [...new Set(measured.map((m) => m.group).filter(Boolean))] as string[];
  return groups.flatMap((group) => {
    const of = (via: Measured["via"]) =>
      measured.find((m) => m.group === group && m.via === via)?.result;
    const floor = of("floor");
    const rest = of("REST");
    const graphql = of("GraphQL");
    if (!floor?.requestsPerSecond || !rest || !graphql) return [];
    return [
      { group, rest: throughputRatio(rest, floor), graphql: throughputRatio(graphql, floor) },
    ];
  });
}

/**
 * The ratios of each run, and their median. Each run's group takes turns, so a ratio compares
 * what ran under the same conditions; the shared machine's speed drifts between runs by more
 * than the gaps being measured.
 */
export function medianRatios(runs: Measured[][]): (Ratio & { runs: Ratio[] })[] {
  const perRun = runs.map(ratios);
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
 * /graphql and through the floor: the service process's CPU time per answer of each (they
 * ran in turns in that one process).
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
  const of = (group: string, via: Measured["via"]) =>
    run.find((m) => m.group === group && m.via === via)?.result;
  const floor = of("office by id", "floor");
  const graphql = of("office by id", "GraphQL");
  const express = of("Apollo alone", "floor");
  const apollo = of("Apollo alone", "GraphQL");
  const floorUs = floor?.cpuMicrosPerRequest;
  const graphqlUs = graphql?.cpuMicrosPerRequest;
  const expressUs = express?.cpuMicrosPerRequest;
  const apolloUs = apollo?.cpuMicrosPerRequest;
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

/** The run whose Apollo addition is the median of the runs'. */
export function medianApolloAlone(runs: (ApolloAlone | undefined)[]): ApolloAlone | undefined {
  const each = runs.filter((one) => one !== undefined);
  each.sort((a, b) => a.apolloUs - a.expressUs - (b.apolloUs - b.expressUs));
  return each[Math.floor((each.length - 1) / 2)];
}

export function apolloAloneSection(each: (ApolloAlone | undefined)[]): string[] {
  if (each.every((one) => one === undefined)) return [];
  const us = (value: number) => String(Math.round(value));
  const lines = [
    "",
    "## What Apollo alone costs",
    "",
    "Beside the floor, on its port and behind the same request shell (bench/apollo-alone.ts): the",
    "service's own Apollo set-up (`createGraphqlServer`: the same plugins, limits, error",
    "formatting and context builder) over a one-field schema whose resolver returns a constant,",
    "and an express route that reads the same JSON body and answers the same JSON. Their rows are",
    'in the table above ("Apollo alone"); they take turns like a ratio group. The times are the',
    "service process's CPU time per answer over a scenario's turns (/proc), all four in that one",
    "process. What Apollo alone adds is its pipeline and GraphQL execution with no service work",
    "behind them; the last but one column puts only that on top of the floor.",
    "",
    "| Run | Floor, title by id | /graphql, title by id | /graphql adds | express alone | Apollo alone | Apollo adds | Floor ÷ (floor + Apollo's addition) | /graphql × floor, measured |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  each.forEach((one, index) => {
    if (!one) return;
    lines.push(
      `| ${index + 1} | ${us(one.floorUs)} µs | ${us(one.graphqlUs)} µs | ${us(one.graphqlUs - one.floorUs)} µs | ${us(one.expressUs)} µs | ${us(one.apolloUs)} µs | ${us(one.apolloUs - one.expressUs)} µs | ${ratioText(one.onlyApollo)} | ${ratioText(one.graphqlRatio)} |`,
    );
  });
  return lines;
}
