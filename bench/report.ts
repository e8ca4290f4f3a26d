import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchOptions } from "./run";
import { HEAP_OPTIONS } from "./scenarios";
import type { LoadResult } from "./load";

export interface Measured {
  name: string;
  via: "REST" | "GraphQL" | "floor";
  group?: string;
  connections: number;
  result: LoadResult;
}

export interface ReportInput {
  options: BenchOptions;
  date: Date;
  measured: Measured[];
  /**
   * GET /offices at the target concurrency: alone, then the hand-written floor's, then during
   * the sign-ins (`storm`).
   */
  storm: { alone: LoadResult; floor: LoadResult; during: LoadResult; storm: LoadResult };
  /** Searches for varied surname prefixes at the target's concurrency: the run of median p95. */
  searchTarget: Measured;
  /** Every run of the search target, one after each read run. */
  searchRuns: Measured[];
  /** Every run of the read suite (the ratios are taken per run). */
  readRuns: Measured[][];
  /** The same searches one at a time. */
  searchAlone: Measured;
  /** Resident memory of the service after each read run, then after the whole benchmark. */
  rss: number[];
  cluster: { workers: number; result: LoadResult }[];
  csvExport: { rows: number; seconds: number; baselineMb: number; peakGrowthMb: number };
}

const RATIO_TARGET = 0.8;
const OFFICES_P99_TARGET_MS = 25;
const SEARCH_P95_TARGET_MS = 100;
const STORM_FACTOR_TARGET = 2;
const RSS_TARGET_MB = 300;

const rps = (result: LoadResult) => Math.round(result.requestsPerSecond).toLocaleString("en");
const fixed = (value: number, digits = 2) => value.toFixed(digits);
/** Two decimals rounded down, so a ratio of 0.798 does not read as a met 0.80. */
const ratioText = (value: number) => (Math.floor(value * 100) / 100).toFixed(2);

/**
 * The verdicts of one report. A missed target's reason is written once, below the table, and
 * named from its row: the ratio targets share one reason, and four copies of it in the table
 * made the page hard to read.
 */
class Verdicts {
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

/** Why a target can miss on this machine; shown only for a target that was missed. */
const WHY = {
  ratio: (apollo: ApolloAlone | undefined) => ({
    title: "Ratios to the floor",
    why: `The floor does only the request shell, authentication and the service call, so what an interface adds per request weighs against little: about ${apollo ? `${Math.round(apollo.floorUs)} µs` : "150–200 µs"} of the service's CPU for a signed-in title by id${apollo ? " in this run" : ""}. REST runs the handler Sofa made for the route straight from express: it adds the gate's argument checks, Sofa's handler and its fetch Response, and graphql-jit's compiled execution with its resolvers and scalars, about 20–45 µs on a title by id. /graphql adds Apollo Server, which the architecture requires there: its request pipeline (the hash of the query text that finds its parsed document, the plugin hooks of every stage, content negotiation, the response's serialisation) and the JSON body read through body-parser. ${apollo ? `Measured in the same process as CPU time per answer (section "What Apollo alone costs" below): /graphql took ${Math.round(apollo.graphqlUs - apollo.floorUs)} µs more than the floor for a title by id, and the service's Apollo set-up by itself, over a resolver that returns a constant, ${Math.round(apollo.apolloUs - apollo.expressUs)} µs more than an express route reading the same body and answering the same JSON; that addition alone on the floor's ${Math.round(apollo.floorUs)} µs would leave /graphql at about ${ratioText(apollo.onlyApollo)} × the floor. ` : ""}Within one run the ratios still move by about a tenth from turn to turn with the machine's drift`,
  }),
  offices: (floor: LoadResult) => ({
    title: "GET /offices p99 at 100 connections",
    why: `A hundred connections, each sending its next request as soon as the last is answered, wait on each other: the mean time to an answer is 100 ÷ the answers per second, so a p99 under 25 ms needs well over 4 000 answers/s. The service process is CPU-bound below that on these two cores, which it shares with the engine and the load generator. The same work without Sofa or GraphQL does not reach it either: the hand-written floor's GET /offices at 100 connections, measured right after, had a p99 of ${floor.p99} ms at ${rps(floor)} req/s`,
  }),
  search: {
    title: "Member search",
    why: "A search page costs about 3–7 ms of the service's CPU and 2–3 ms of the engine's, depending on the machine's speed (the service's share went from 3.2 to 7 ms per page within one hour on 2026-11-23): finding the matches through the directory's trigram index takes about 0.2 ms alone and about 0.6 ms under load for a four-letter surname prefix with some 2 770 matching records, which the total counts (most are proven by where their trigrams first occur, without a look at their text); then 10 records and 10 accounts are read with two `_id $in` queries at once (the driver and bson take about a quarter of the service's time) and presented. So ten at once keep the service's one JavaScript thread busy (about one core) and the engine at about half a core, and with the load generator the two shared cores are full at 150–300 searches a second (a second service process served no more on 2026-11-24). With ten pages in flight, each young-generation collection copies their records (about 5 ms, every 10 or so requests), which lengthens the tail; one search at a time is well inside the target",
  },
  rss: {
    title: "Memory",
    why: "The capped old generation (256 MB) holds about 120 MB of live data plus garbage up to the cap, and V8's young generation, compiled code and the hashing thread's own heap come on top; a lower cap would leave too little room for reloading the member directory at this size, which briefly holds the old and the new copy",
  },
  storm: {
    title: "Login storm",
    why: "The hashing threads leave one core to the event loop; with two cores that is all there is",
  },
};

function versions(): string {
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
    "FerretDB v1.24.2 (SQLite backend, with the patches of src/db/ferretdb-install.ts: `_id` lookups through the index, a one-pass document reader, no copies for an empty projection, no second decode of each reply, writes to one collection one at a time)",
  ].join(", ");
}

function table(measured: Measured[]): string[] {
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

/** REST / floor and GraphQL / floor throughput for each group that has a floor, in one run. */
export function ratios(measured: Measured[]): Ratio[] {
  const groups = [...new Set(measured.map((m) => m.group).filter(Boolean))] as string[];
  return groups.flatMap((group) => {
    const of = (via: Measured["via"]) =>
      measured.find((m) => m.group === group && m.via === via)?.result.requestsPerSecond;
    const floor = of("floor");
    const rest = of("REST");
    const graphql = of("GraphQL");
    if (!floor || rest === undefined || graphql === undefined) return [];
    return [{ group, rest: rest / floor, graphql: graphql / floor }];
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
    graphqlRatio: graphql.requestsPerSecond / floor.requestsPerSecond,
  };
}

/** The run whose Apollo addition is the median of the runs'. */
function medianApolloAlone(runs: (ApolloAlone | undefined)[]): ApolloAlone | undefined {
  const each = runs.filter((one) => one !== undefined);
  each.sort((a, b) => a.apolloUs - a.expressUs - (b.apolloUs - b.expressUs));
  return each[Math.floor((each.length - 1) / 2)];
}

function apolloAloneSection(each: (ApolloAlone | undefined)[]): string[] {
  if (each.every((one) => one === undefined)) return [];
  const us = (value: number) => String(Math.round(value));
  const lines = [
    "",
    "## What Apollo alone costs",
    "",
    "Beside the floor, on its port and behind the same request shell (bench/apollo-alone.ts): the",
    "service's own Apollo set-up (`createGraphqlServer`: the same plugins, limits, compiled",
    "execution and context builder) over a one-field schema whose resolver returns a constant,",
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

export interface Ratio {
  group: string;
  rest: number;
  graphql: number;
}

/**
 * The ratios of each run, and their median. Each run measures a group's REST, GraphQL and
 * floor back to back, so a ratio compares what ran under the same conditions; the shared
 * machine's speed drifts between runs by more than the gaps being measured.
 */
export function medianRatios(runs: Measured[][]): (Ratio & { runs: Ratio[] })[] {
  const perRun = runs.map(ratios);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
  };
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

export function renderReport(input: ReportInput): string {
  const { options, measured, storm, rss, cluster } = input;
  const search = input.searchTarget;
  const apolloRuns = input.readRuns.map(apolloAlone);
  const apollo = medianApolloAlone(apolloRuns);
  const stormFactor = storm.during.p99 / Math.max(1, storm.alone.p99);
  const readRss = rss.slice(0, options.runs);
  const growth = readRss.length > 1 ? readRss[readRss.length - 1] - readRss[0] : 0;
  const finalRss = rss[rss.length - 1];
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const verdicts = new Verdicts();
  const lines: string[] = [
    "# Performance",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand. Speed is measured here and",
    "only here, never in timed tests.",
    "",
    `- Date: ${input.date.toISOString()}`,
    `- Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`,
    `- Versions: ${versions()}`,
    `- Data: ${options.members.toLocaleString("en")} demo members (\`npm run seed:demo\`), with their accounts, about 300 office titles and the branches of service; one service process (compiled, \`NODE_OPTIONS=${HEAP_OPTIONS}\`, the hand-written floor listening in it on a port of its own), NODE_ENV=production, LOG_LEVEL=warn, bcrypt cost 12`,
    `- Load: autocannon in the benchmark's own process on the same machine (it shares the 2 cores), ${options.durationSeconds} s per scenario after a 1 s warm-up (and, before the first run, one unmeasured 2 s pass over every read scenario), ${options.connections} connections unless stated; the read scenarios ran ${options.runs} times and each row is the median run by throughput (the search target's row: after each read run, the run of median p95); a ratio to the floor is taken within each run (a group's REST, GraphQL and floor rows take turns of 1 s each, after a 1 s warm-up of each, so that the machine's drift falls on all three alike) and the targets use the median of the runs' ratios`,
    "",
    "## Throughput and latency",
    "",
    ...table(measured),
    "",
    "The hand-written floor (bench/floor-server.ts) is express with the service's own request",
    "shell (request id and log, security headers, CORS, rate limit: `useRequestShell`) on the",
    "same node server (`expressServerOptions`), the same authentication and the same",
    "OfficeService call, answering the same JSON, with no GraphQL execution and no Sofa. It",
    "listens inside the service's process over the service's own directories and caches",
    "(bench/service-with-floor.ts): identical processes ran up to 1.5 × apart on this machine, so",
    "a floor in a process of its own made each ratio also a comparison of two processes' luck.",
    "",
    "Reading the numbers: the engine, FerretDB v1 on SQLite, answers only `_id` lookups (one or a",
    "list) from an index, on the same two cores as the service and the load generator, and it",
    "decodes every document it returns from its stored JSON: about 0.15 ms of CPU for a member",
    "record with the install's one-pass reader (0.45 ms with FerretDB's own). Signed-in requests",
    "find their account and session in the access cache; office titles, branches of service and",
    "member lists come from in-memory directories; all of these are kept in step across instances",
    "by change feeds (one `_id $in` read of every feed's next entry, shared by all requests",
    "waiting at that moment). A member page then reads its 10 records and their 10 accounts with",
    "one `_id $in` query each. The office and branch reads are therefore bound by the service's",
    "own CPU per request, where Sofa and Apollo show; member pages by the service first, then the",
    "engine. With everything on two cores, a second service process gains little.",
    "",
    "## Targets",
    "",
    "| Target | Measured | Verdict |",
    "|---|---|---|",
  ];
  for (const ratio of medianRatios(input.readRuns)) {
    const each = (via: "rest" | "graphql") =>
      ratio.runs.length > 1
        ? ` (runs: ${ratio.runs.map((run) => ratioText(run[via])).join(", ")})`
        : "";
    lines.push(
      `| ${ratio.group}: REST ≥ ${RATIO_TARGET} × floor | ${ratioText(ratio.rest)} ×${each("rest")} | ${verdicts.verdict(ratio.rest >= RATIO_TARGET, WHY.ratio(apollo))} |`,
      `| ${ratio.group}: GraphQL ≥ ${RATIO_TARGET} × floor | ${ratioText(ratio.graphql)} ×${each("graphql")} | ${verdicts.verdict(ratio.graphql >= RATIO_TARGET, WHY.ratio(apollo))} |`,
    );
  }
  lines.push(
    `| GET /offices p99 < ${OFFICES_P99_TARGET_MS} ms at ${options.targetConnections} connections | ${storm.alone.p99} ms (${rps(storm.alone)} req/s); the hand-written floor right after: ${storm.floor.p99} ms (${rps(storm.floor)} req/s) | ${verdicts.verdict(storm.alone.p99 < OFFICES_P99_TARGET_MS, WHY.offices(storm.floor))} |`,
  );
  lines.push(
    `| Member search over ${options.members.toLocaleString("en")} records p95 < ${SEARCH_P95_TARGET_MS} ms | p95 ${search.result.p95} ms (runs: ${input.searchRuns.map((run) => run.result.p95).join(", ")}) at ${search.connections} connections, a different surname prefix each time; one search at a time: p95 ${input.searchAlone.result.p95} ms | ${verdicts.verdict(search.result.p95 < SEARCH_P95_TARGET_MS, WHY.search)} |`,
    `| GET /offices p99 during ${options.logins} concurrent sign-ins < ${STORM_FACTOR_TARGET} × without | ${storm.during.p99} ms vs ${storm.alone.p99} ms = ${fixed(stormFactor)} × (sign-ins: ${rps(storm.storm)} req/s, ${storm.storm.failures} failed) | ${verdicts.verdict(stormFactor < STORM_FACTOR_TARGET, WHY.storm)} |`,
    `| RSS after the full benchmark < ${RSS_TARGET_MB} MB | ${finalRss} MB | ${verdicts.verdict(finalRss < RSS_TARGET_MB, WHY.rss)} |`,
    `| No memory growth across ${readRss.length} read runs | ${readRss.join(" → ")} MB (${growth >= 0 ? "+" : ""}${growth} MB) | ${verdicts.verdict(growth <= 10)} |`,
  );
  lines.push(...verdicts.section(), ...apolloAloneSection(apolloRuns));
  const { csvExport } = input;
  lines.push(
    "",
    "## Streaming CSV export",
    "",
    `GET /members/export.csv of all ${csvExport.rows.toLocaleString("en")} records (archived included): ${csvExport.seconds} s; the service's resident memory rose by at most ${csvExport.peakGrowthMb} MB over its ${csvExport.baselineMb} MB while streaming (sampled every 100 ms).`,
  );
  if (cluster.length === 2) {
    const [one, two] = cluster;
    lines.push(
      "",
      "## One process against two (WORKERS=2, node cluster)",
      "",
      `GET /offices at ${options.targetConnections} connections: ${rps(one.result)} req/s (p99 ${one.result.p99} ms) with one process, ${rps(two.result)} req/s (p99 ${two.result.p99} ms) with two: ${fixed(two.result.requestsPerSecond / one.result.requestsPerSecond)} ×. The database engine and the load generator run on the same two cores.`,
    );
  }
  lines.push("");
  return lines.join("\n");
}
