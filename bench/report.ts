import os from "node:os";
import { burstSection, costRows } from "./burst-report";
import { renderCapacityPlan } from "./capacity-plan";
import type { LoadResult } from "./load";
import {
  apolloAlone,
  apolloAloneSection,
  ceilingText,
  fixed,
  medianApolloAlone,
  medianRatios,
  ratioText,
  rps,
  table,
  Verdicts,
  versions,
  type Measured,
} from "./report-sections";
import type { ReportInput } from "./report-input";
import { bySizeSection, loadLine, pageSection, readingTheNumbers } from "./report-text";
import { HEAP_OPTIONS } from "./service-process";
import {
  MEMBER_READ_P95_TARGET_MS,
  OFFICES_P99_TARGET_MS,
  PAGE_RATIO_TARGET,
  RATIO_TARGET,
  RSS_GROWTH_TARGET_MB,
  STORM_FACTOR_TARGET,
} from "./targets";
import { WHY } from "./why-missed";

const count = (members: number) => members.toLocaleString("en");

/**
 * Where the measurements taken with `--only` and written up by hand begin: a full run rewrites
 * what is above this line and keeps what follows it.
 */
export const KEPT_MARKER =
  "<!-- Measured with --only and written by hand below: npm run bench keeps this part. -->";

/** The new report, followed by the hand-written part of the previous one, if it had one. */
export function keepHandWritten(report: string, previous: string | null): string {
  const at = previous?.indexOf(KEPT_MARKER) ?? -1;
  return at < 0 ? report : `${report.trimEnd()}\n\n${previous!.slice(at)}`;
}

export function renderReport(input: ReportInput): string {
  const { options, storm } = input;
  const apolloRuns = input.readRuns.map(apolloAlone);
  const apollo = medianApolloAlone(apolloRuns);
  const stormFactor = storm.during.p99 / Math.max(1, storm.alone.p99);
  const smallest = input.sizes[0];
  const largest = input.sizes[input.sizes.length - 1];
  const rssGrowth = largest.serviceRssMb - smallest.serviceRssMb;
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const verdicts = new Verdicts();
  const target = count(options.targetSize);
  const lines: string[] = [
    "# Performance",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand, save the sections measured",
    "with `--only` at the end, which a full run keeps. Speed is measured here and only here,",
    "never in timed tests.",
    "",
    `- Date: ${input.date.toISOString()}`,
    `- Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`,
    `- Versions: ${versions(input.engine)}`,
    `- Data: the demo data (\`npm run seed:demo\`) at ${input.sizes.map((size) => count(size.members)).join(", ")} members, each in a database of its own on one engine, with their accounts, about 300 office titles and the branches of service; for each, one service process (compiled, \`NODE_OPTIONS=${HEAP_OPTIONS}\`, the hand-written floor listening in it on a port of its own), NODE_ENV=production, LOG_LEVEL=warn, bcrypt cost 12`,
    `- Load: ${loadLine(options)}`,
    "",
    ...readingTheNumbers(input),
    "",
    "## Targets",
    "",
    "| Target | Measured | Verdict |",
    "|---|---|---|",
  ];
  for (const [key, label] of [
    ["list", "GET /members"],
    ["search", "GET /members?search=… (a different surname prefix each time)"],
    ["users", "GET /users"],
  ] as const) {
    const { result } = input.targetReads[key];
    lines.push(
      `| ${label} p95 < ${MEMBER_READ_P95_TARGET_MS} ms at one connection, ${target} members | p95 ${result.p95} ms, p50 ${result.p50} ms (${result.total} requests) | ${verdicts.verdict(result.p95 < MEMBER_READ_P95_TARGET_MS && result.failures === 0, WHY.memberReads(input))} |`,
    );
  }
  const page = input.page;
  lines.push(
    `| A member page (GET /members?page=${page.page}) within ${PAGE_RATIO_TARGET} × its queries through the driver alone, ${target} members | ${ceilingText(page.ratio)} × (${fixed(mean(page.service), 1)} ms against ${fixed(mean(page.driver), 1)} ms a page; turns: ${page.turnRatios.map(ceilingText).join(", ")}) | ${verdicts.verdict(page.ratio <= PAGE_RATIO_TARGET && page.service.failures === 0, WHY.page(page))} |`,
  );
  const ratios = medianRatios(input.readRuns);
  for (const ratio of ratios) {
    lines.push(
      `| ${ratio.group}: REST ≥ ${RATIO_TARGET} × floor | ${ratioText(ratio.rest)} ×${runsOf(ratio.runs, "rest")}${cpuText(input.readRuns, ratio.group, "REST")} | ${verdicts.verdict(ratio.rest >= RATIO_TARGET, WHY.ratio(apollo))} |`,
    );
  }
  lines.push(
    `| Service RSS at ${count(largest.members)} members ≤ ${RSS_GROWTH_TARGET_MB} MB above ${count(smallest.members)}, after the same read load | ${largest.serviceRssMb} MB against ${smallest.serviceRssMb} MB (${rssGrowth >= 0 ? "+" : ""}${rssGrowth} MB) | ${verdicts.verdict(rssGrowth <= RSS_GROWTH_TARGET_MB, WHY.rss)} |`,
  );
  for (const ratio of ratios) {
    lines.push(
      `| ${ratio.group}: GraphQL ≥ ${RATIO_TARGET} × floor (issue 7) | ${ratioText(ratio.graphql)} ×${runsOf(ratio.runs, "graphql")}${cpuText(input.readRuns, ratio.group, "GraphQL")} | ${verdicts.verdict(ratio.graphql >= RATIO_TARGET, WHY.ratio(apollo))} |`,
    );
  }
  lines.push(...costRows(input, verdicts));
  lines.push(
    `| GET /offices p99 < ${OFFICES_P99_TARGET_MS} ms at ${options.targetConnections} connections (issue 7) | ${storm.alone.p99} ms (${rps(storm.alone)} req/s); the hand-written floor right after: ${storm.floor.p99} ms (${rps(storm.floor)} req/s) | ${verdicts.verdict(storm.alone.p99 < OFFICES_P99_TARGET_MS, WHY.offices(storm.floor))} |`,
    `| GET /offices p99 during ${options.logins} concurrent sign-ins < ${STORM_FACTOR_TARGET} × without (issue 7) | ${storm.during.p99} ms vs ${storm.alone.p99} ms = ${fixed(stormFactor)} × (sign-ins: ${rps(storm.storm)} req/s, ${storm.storm.failures} failed) | ${verdicts.verdict(stormFactor < STORM_FACTOR_TARGET, WHY.storm)} |`,
  );
  lines.push(
    ...verdicts.section(),
    ...bySizeSection(input),
    ...pageSection(input.page),
    ...burstSection(input.sizes),
    "",
    `## The interfaces at ${target} members`,
    "",
    ...table(input.measured),
    "",
    "The hand-written floor (bench/floor-server.ts) is express with the service's own request",
    "shell (request id and log, security headers, CORS, rate limit: src/http/request-shell.ts) on the",
    "same node server (`expressServerOptions`), the same authentication and the same",
    "OfficeService call the REST route ends in (which reads the titles through OfficeRepository),",
    "answering the same JSON, with no GraphQL execution and no Sofa. It listens inside the",
    "service's process (bench/service-with-floor.ts): identical processes ran up to 1.5 × apart on",
    "this machine, so a floor in a process of its own made each ratio also a comparison of two",
    "processes' luck.",
    ...apolloAloneSection(apolloRuns),
  );
  const { csvExport } = input;
  lines.push(
    "",
    "## Streaming CSV export",
    "",
    `GET /members/export.csv of all ${count(csvExport.rows)} records (archived included) at ${target} members: ${csvExport.seconds} s; the service's resident memory rose by at most ${csvExport.peakGrowthMb} MB over its ${csvExport.baselineMb} MB while streaming (sampled every 100 ms).`,
    ...renderCapacityPlan(input.capacity),
    "",
  );
  return lines.join("\n");
}

const mean = (result: LoadResult) => 1000 / Math.max(result.requestsPerSecond, 1e-9);

function runsOf(runs: { rest: number; graphql: number }[], via: "rest" | "graphql"): string {
  return runs.length > 1 ? ` (runs: ${runs.map((run) => ratioText(run[via])).join(", ")})` : "";
}

/** The service's CPU time per answer through `via` and through the floor, over all runs. */
function cpuText(runs: Measured[][], group: string, via: Measured["via"]): string {
  const of = (side: Measured["via"]) => {
    const each = runs.flatMap((run) =>
      run
        .filter((m) => m.group === group && m.via === side)
        .flatMap((m) => (m.result.cpuMicrosPerRequest ? [m.result.cpuMicrosPerRequest] : [])),
    );
    return each.length === 0 ? undefined : each.reduce((a, b) => a + b, 0) / each.length;
  };
  const [interfaceUs, floorUs] = [of(via), of("floor")];
  if (interfaceUs === undefined || floorUs === undefined) return "";
  return `; the service's CPU per answer ${Math.round(interfaceUs)} µs, the floor's ${Math.round(floorUs)} µs`;
}
