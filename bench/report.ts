import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PATCH_NAMES } from "../tools/dev-db/ferretdb-build";
import { renderCapacityPlan } from "./capacity-plan";
import type { PageVsDriver } from "./driver-alone";
import type { LoadResult } from "./load";
import type { ReportInput, SizeResult } from "./report-input";
import {
  ceilingText,
  count,
  fixed,
  heading,
  mean,
  medianRatios,
  cpuRatios,
  ms,
  msPer,
  ratioText,
  resultIn,
  rps,
  TARGET,
  type Measured,
} from "./report-sections";
import { bySizeSection } from "./report-text";
import { HEAP_OPTIONS } from "./service-process";
import type { BurstResult, BurstSide } from "./sign-in-burst";

/** A full run rewrites the report above this line and keeps what follows (written by hand). */
export const KEPT_MARKER =
  "<!-- Measured with --only and written by hand below: npm run bench keeps this part. -->";

/** The new report, followed by the hand-written part of the previous one, if it had one. */
export function keepHandWritten(report: string, previous: string | null): string {
  const at = previous?.indexOf(KEPT_MARKER) ?? -1;
  return at < 0 ? report : `${report.trimEnd()}\n\n${previous!.slice(at)}`;
}

export function renderReport(input: ReportInput): string {
  const { options, storm, csvExport, page } = input;
  const stormFactor = storm.during.p99 / Math.max(1, storm.alone.p99);
  const [smallest, largest] = [input.sizes[0], input.sizes[input.sizes.length - 1]];
  const rssGrowth = largest.serviceRssMb - smallest.serviceRssMb;
  const target = count(options.targetSize);
  const ratios = medianRatios(input.readRuns);
  const bursts = input.sizes.filter((size) => size.burst);
  const viaFloor = (via: Measured["via"]) => (inGroup: Measured[]) =>
    [inGroup.find((m) => m.via === via), inGroup.find((m) => m.via === "floor")] as const;
  // Each interface's CPU per answer over the floor's; the directory's 304 over its 200 (the
  // group's REST reads in the order they ran: publicPage in scenario.ts). Not the events page's:
  // at its concurrency most of its 200s share one run (shared-reads.ts), so cost about a 304.
  const cpuRows = (["REST", "GraphQL"] as const).flatMap((via) =>
    ["office by id", "offices list", ...(via === "REST" ? ["directory"] : [])].flatMap((group) =>
      cpuRatios(input.readRuns, group, viaFloor(via)).map((found) => ({ via, ...found })),
    ),
  );
  const revalidations = ["directory"].flatMap((group) =>
    cpuRatios(input.readRuns, group, (inGroup) => {
      const [ok, notModified] = inGroup.filter((m) => m.via === "REST");
      return [notModified, ok];
    }),
  );
  // A missed target's reason is written once, below the table: several targets share one.
  const why = reasons(input, bursts);
  const missed = new Set<keyof typeof why>();
  const verdict = (met: boolean, reason: keyof typeof why) => {
    if (met) return "met";
    missed.add(reason);
    return `**not met**, see "${reason}" below`;
  };
  const ratioRows = (via: "REST" | "GraphQL", issue: string) =>
    ratios.flatMap((ratio) => {
      const value = via === "REST" ? ratio.rest : ratio.graphql;
      if (value === undefined) return [];
      const runs = ratio.runs.map((run) => ratioText((via === "REST" ? run.rest : run.graphql)!));
      return `| ${ratio.group}: ${via} ≥ ${TARGET.ratio} × floor${issue} | ${ratioText(value)} ×${runs.length > 1 ? ` (runs: ${runs.join(", ")})` : ""}${cpuText(input.readRuns, ratio.group, via)} | ${verdict(value >= TARGET.ratio, "Ratios to the floor")} |`;
    });
  return [
    "# Performance",
    "",
    "Written by `npm run bench` (bench/run.ts); do not edit by hand, save the sections measured with `--only` at the end, which a full run keeps. Speed is measured here and only here, never in timed tests.",
    "",
    `- Date: ${input.date.toISOString()}`,
    `- Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`,
    `- Versions: ${versions(input.engine)}`,
    `- Data: the demo data (\`npm run seed:demo\`) at ${input.sizes.map((size) => count(size.members)).join(", ")} members, each in a database of its own on one engine, with their accounts, about 300 office titles and the branches of service; for each, one service process (compiled, \`NODE_OPTIONS=${HEAP_OPTIONS}\`, the hand-written floor listening in it on a port of its own), NODE_ENV=production, LOG_LEVEL=warn, bcrypt cost 12`,
    `- Load: autocannon in the benchmark's own process on the same machine (it shares the ${os.cpus().length} cores). Member reads: one request at a time, ${options.sizeSamples} of each at every member count (after the session's first reads, which list members and offices; the same load at each count, and the service's resident memory is read right after it), then ${options.targetSamples} more of each at ${target} for the targets. A member page, then each office report, against the driver alone: ${options.pageTurns} turns of ${options.pagesPerTurn} requests a side, one at a time, after one of each. The interfaces at ${target}: ${options.durationSeconds} s per scenario after a 1 s warm-up (and, before the first run, one unmeasured 2 s pass over every scenario), ${options.connections} connections unless stated; ${options.runs} runs, each row the median run by throughput; a group's REST, GraphQL and floor rows take ${2 * options.durationSeconds} turns each of as many answers as its warm-up gave in half a second (none cut off at a turn's end), every other round in reverse order; a run's ratio is the median of its rounds' ratios, and a ratio target uses the median of the runs' ratios.`,
    "",
    "Reading the numbers: every request reads the database (the signed-in account and session by `_id`, then what the route needs) and nothing of a collection is kept in the service. A member page is four queries: the page (find, sort, skip, limit) and its count, then its accounts and its branches of service by `_id`.",
    input.engine === "ferretdb"
      ? 'The development engine, FerretDB v1 on SQLite, uses no index but `_id` (an `_id`, an `_id $in` or an `_id` beside other conditions, with the install\'s patches): every other query reads and decodes every document of its collection from its stored JSON, filters it, and sorts what matches in memory. So member lists, searches and GET /users grow in step with the membership (table "By member count"), and the engine, not the service, takes the time (section "A member page against the driver alone"). On MongoDB the same queries walk the declared indexes (section "Capacity plan for MongoDB"): a page reads its skip + 10 index keys and 10 documents, a count reads index keys only.'
      : `The engine was ${input.engine}.`,
    "Office titles are a few hundred documents, read with the appointments' lapsed-terms query first: on this engine those reads are bound by the engine too, so their ratios to the floor move with it; the service's CPU per answer beside the ratios shows what the interfaces add, and `--only=layers` (bench/layers.ts) what each interface's own layers cost with no database. The engine, the service and the load generator share the machine's cores.",
    "",
    "## Targets",
    "",
    "| Target | Measured | Verdict |",
    "|---|---|---|",
    ...(
      [
        ["list", "GET /members"],
        ["search", "GET /members?search=… (a different surname prefix each time)"],
        ["users", "GET /users"],
      ] as const
    ).map(([key, label]) => {
      const { result } = input.targetReads[key];
      return `| ${label} p95 < ${TARGET.memberReadP95Ms} ms at one connection, ${target} members | p95 ${result.p95} ms, p50 ${result.p50} ms (${result.total} requests) | ${verdict(result.p95 < TARGET.memberReadP95Ms && result.failures === 0, "Member reads on the development engine")} |`;
    }),
    `| A member page (GET /members?page=${page.page}) within ${TARGET.pageRatio} × its queries through the driver alone, ${target} members | ${ceilingText(page.ratio)} × (${meanMs(page.service)} ms against ${meanMs(page.driver)} ms a page; turns: ${page.turnRatios.map(ceilingText).join(", ")}) | ${verdict(page.ratio <= TARGET.pageRatio && page.service.failures === 0, "A member page against the driver alone")} |`,
    ...input.reports.map(
      (r) =>
        `| GET /reports/${r.report} within ${TARGET.reportRatio} × its aggregations through the driver alone, ${target} members | ${ceilingText(r.ratio)} × (${meanMs(r.service)} ms against ${meanMs(r.driver)} ms; turns: ${r.turnRatios.map(ceilingText).join(", ")}) | ${verdict(r.ratio <= TARGET.reportRatio && r.service.failures === 0, "Reports against the driver alone")} |`,
    ),
    ...ratioRows("REST", ""),
    `| Service RSS at ${count(largest.members)} members ≤ ${TARGET.rssGrowthMb} MB above ${count(smallest.members)}, after the same read load | ${largest.serviceRssMb} MB against ${smallest.serviceRssMb} MB (${rssGrowth >= 0 ? "+" : ""}${rssGrowth} MB) | ${verdict(rssGrowth <= TARGET.rssGrowthMb, "Memory")} |`,
    ...ratioRows("GraphQL", " (issue 7)"),
    ...cpuRows.map(({ via, group, ratio, runs }) => {
      const most = TARGET.cpuRatio[via];
      return `| ${group}: ${via === "REST" ? "REST" : "/graphql"}'s service CPU per answer ≤ ${most} × the floor's (issue 52) | ${ceilingText(ratio)} × (runs: ${runs.map(ceilingText).join(", ")}) | ${verdict(ratio <= most, "The service's CPU per answer")} |`;
    }),
    ...revalidations.map(
      ({ group, ratio, runs }) =>
        `| ${group}: a 304's service CPU ≤ ${TARGET.revalidationShare} × a 200's (issue 52) | ${ceilingText(ratio)} × (runs: ${runs.map(ceilingText).join(", ")}) | ${verdict(ratio <= TARGET.revalidationShare, "Revalidations")} |`,
    ),
    ...bursts.flatMap((size) => {
      const b = size.burst!;
      const vsFloor = b.rest.share / b.floor.share;
      return [
        `| ${b.count} sign-ins at once ≥ ${TARGET.burstShare} × cores ÷ one hash, ${count(size.members)} members | ${fixed(b.rest.perSecond)}/s against ${fixed(b.bound)}/s = ${fixed(b.rest.share)}; the floor ${fixed(b.floor.share)}; per sign-in the engine's CPU ${ms(b.rest.engineCpuMs)}, one hash ${ms(b.hashMs)} | ${verdict(b.rest.share >= TARGET.burstShare, "Sign-in bursts on the development engine")} |`,
        `| ${b.count} sign-ins at once through REST ≥ ${TARGET.burstVsFloor} × the floor's rate, ${count(size.members)} members (issue 52) | ${ratioText(vsFloor)} × (${fixed(b.rest.perSecond)}/s against ${fixed(b.floor.perSecond)}/s) | ${verdict(vsFloor >= TARGET.burstVsFloor, "Sign-in bursts on the development engine")} |`,
      ];
    }),
    `| GET /offices p99 < ${TARGET.officesP99Ms} ms at ${options.targetConnections} connections (issue 7) | ${storm.alone.p99} ms (${rps(storm.alone)} req/s); the hand-written floor right after: ${storm.floor.p99} ms (${rps(storm.floor)} req/s) | ${verdict(storm.alone.p99 < TARGET.officesP99Ms, "GET /offices p99 at 100 connections")} |`,
    `| GET /offices p99 during ${options.logins} concurrent sign-ins < ${TARGET.stormFactor} × without (issue 7) | ${storm.during.p99} ms vs ${storm.alone.p99} ms = ${fixed(stormFactor)} × (sign-ins: ${rps(storm.storm)} req/s, ${storm.storm.failures} failed) | ${verdict(stormFactor < TARGET.stormFactor, "Login storm")} |`,
    ...(missed.size === 0 ? [] : ["", "## Why the missed targets were missed"]),
    ...[...missed].flatMap((title) => ["", `**${title}.** ${why[title]}.`]),
    ...bySizeSection(input),
    ...pageSection(page),
    ...burstSection(bursts),
    ...heading(`The interfaces at ${target} members`),
    "| Scenario | Via | Connections | Requests/s | p50 ms | p95 ms | p97.5 ms | p99 ms | Requests | Non-2xx/errors |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...input.measured.map(
      ({ name, via, connections, result }) =>
        `| ${name} | ${via} | ${connections} | ${rps(result)} | ${result.p50} | ${result.p95} | ${result.p97_5} | ${result.p99} | ${result.total} | ${result.failures} |`,
    ),
    "",
    "The hand-written floor (bench/floor-server.ts) is express with the service's own request shell (request id and log, security headers, CORS, rate limit: src/http/request-shell.ts) on the same node server (`expressServerOptions`), the same authentication and the same OfficeService call the REST route ends in (which reads the titles through OfficeRepository), answering the same JSON, with no GraphQL execution and no Sofa. It listens inside the service's process (bench/service-with-floor.ts): identical processes ran up to 1.5 × apart on this machine, so a floor in a process of its own made each ratio also a comparison of two processes' luck.",
    ...heading("Streaming CSV export"),
    `GET /members/export.csv of all ${count(csvExport.rows)} records (archived included) at ${target} members: ${csvExport.seconds} s; the service's resident memory rose by at most ${csvExport.peakGrowthMb} MB over its ${csvExport.baselineMb} MB while streaming (sampled every 100 ms).`,
    ...renderCapacityPlan(input.capacity),
    "",
  ].join("\n");
}

/** The service's mean CPU time per answer of `group` through `via` over the runs that timed it. */
function meanCpu(runs: Measured[][], group: string, via: Measured["via"]): number | undefined {
  const each = runs.flatMap((run) => resultIn(run, group, via)?.cpuMicrosPerRequest || []);
  return each.length === 0 ? undefined : mean(each);
}

/** The service's CPU time per answer through `via` and through the floor, over all runs. */
function cpuText(runs: Measured[][], group: string, via: Measured["via"]): string {
  const [interfaceUs, floorUs] = [meanCpu(runs, group, via), meanCpu(runs, group, "floor")];
  if (interfaceUs === undefined || floorUs === undefined) return "";
  return `; the service's CPU per answer ${Math.round(interfaceUs)} µs, the floor's ${Math.round(floorUs)} µs`;
}

const meanMs = (result: LoadResult) => fixed(msPer(result), 1);

/** Why a target can miss on this machine, under the title its verdict names. */
function reasons(input: ReportInput, bursts: SizeResult[]) {
  const { engine, page } = input;
  const floorUs = meanCpu(input.readRuns, "office by id", "floor");
  return {
    "Member reads on the development engine":
      engine === "ferretdb"
        ? `FerretDB v1 uses no index but \`_id\`: for each of these requests the engine reads and decodes every member record (for GET /users, every account) to find the page, and again to count them, filters them and sorts the matches in memory. At ${count(input.options.targetSize)} members the page's queries through the driver alone took ${meanMs(page.driver)} ms on average (section "A member page against the driver alone"), so the time is the engine's scans, and it grows in step with the membership (table "By member count"). MongoDB answers the same queries from the declared indexes (section "Capacity plan for MongoDB")`
        : `The engine (${engine}) took ${meanMs(page.driver)} ms on average for a page's queries through the driver alone (section "A member page against the driver alone")`,
    "A member page against the driver alone": `Through the service a page took ${meanMs(page.service)} ms on average, through the driver alone ${meanMs(page.driver)} ms. The service adds HTTP, the two reads by \`_id\` of every signed-in request (its account and session), Sofa and GraphQL execution, mongoose's query building and presenting the records; the engine serves the two extra reads on the same cores as everything else`,
    "Ratios to the floor": `The floor does only the request shell, authentication and the service call, so what an interface adds per request weighs against little: about ${floorUs === undefined ? "150–200 µs" : `${Math.round(floorUs)} µs`} of the service's CPU for a signed-in title by id${floorUs === undefined ? "" : " in this run"}. REST runs Sofa, mounted as its documentation shows, behind the route's gate: it adds the gate's argument checks, Sofa's router matching the path again through a fetch Request, its handler and fetch Response, and graphql-js execution with its resolvers and scalars. /graphql adds Apollo Server, which the architecture requires there: its request pipeline (the hash of the query text that finds its parsed document, the plugin hooks of every stage, content negotiation, the response's serialisation) and the JSON body read through body-parser; \`--only=layers\` (bench/layers.ts) measures what each interface's layers add with no database. Within one run the ratios still move by about a tenth from turn to turn with the machine's drift`,
    "GET /offices p99 at 100 connections": `A hundred connections, each sending its next request as soon as the last is answered, wait on each other: the mean time to an answer is 100 ÷ the answers per second, so a p99 under 25 ms needs well over 4 000 answers/s. Every GET /offices reads the titles from the engine, which on FerretDB scans their collection (and, before it, the appointments for lapsed terms), so the requests queue at the engine, on the two cores it shares with the service and the load generator. The same reads without Sofa or GraphQL do not get there either: the hand-written floor's GET /offices at 100 connections, measured right after, had a p99 of ${input.storm.floor.p99} ms at ${rps(input.storm.floor)} req/s`,
    Memory:
      "Nothing of a collection is kept in the service, so what grows with the membership is what the requests held at the moment of reading or how V8 sized its heap; a heap snapshot after the same load at both counts would tell which",
    "Reports against the driver alone":
      "A report is an aggregation the engine runs over the member records; the service adds HTTP, its account and session read by `_id`, Sofa and GraphQL execution and the envelope, which weigh against a few milliseconds only when the engine's part is that small",
    "The service's CPU per answer":
      "REST runs Sofa behind the route's gate: Sofa's request layer (its fetch Request and Response, its router matching the path again, TypeBox's checks of the path and query) and the route's operation compiled once (src/graphql/compiled-operations.ts); /graphql runs Apollo's request pipeline and graphql-js. Both weigh against a floor that does little else than authenticate and read",
    Revalidations:
      "A matching `If-None-Match` is answered before the caller's context is built (src/http/rest/rest-api.ts): what is left is the request shell (the request id and log line, the security headers, the rate limit), the router's matching and the version, read from `change_stamps` at most once a second (src/db/change-stamps.ts)",
    "Sign-in bursts on the development engine": burstReason(bursts, engine),
    "Login storm":
      "The hashing threads leave one core to the event loop; with two cores that is all there is",
  };
}

/** The bursts' reason: the engine's CPU per sign-in beside one hash, at the last count and the first. */
function burstReason(bursts: SizeResult[], engine: string): string {
  if (bursts.length === 0) return "";
  const [first, last] = [bursts[0], bursts[bursts.length - 1]];
  const b = last.burst!;
  const engineMs = (size: SizeResult) => Math.round(size.burst!.rest.engineCpuMs ?? NaN);
  const reads =
    engine === "ferretdb"
      ? "Each sign-in sends, besides its hash, `find users {email}`, `insert sessions` and `find members {userId: {$in: [...]}}` for the member profile of the answer. FerretDB v1 answers both finds by reading and decoding every account and every member record, on the cores the hashing threads need: "
      : `Besides its hash, each sign-in reads the account by email and the member profile on the engine (${engine}), on the same cores: `;
  return (
    `${reads}at ${count(last.members)} members the engine spent ${engineMs(last)} ms of CPU per sign-in against one hash's ${Math.round(b.hashMs)} ms, and the hand-written floor, making the same service call without Sofa or GraphQL, reached ${b.floor.share.toFixed(2)} of the bound where REST reached ${b.rest.share.toFixed(2)} (section "Sign-in bursts")` +
    (first !== last
      ? `. At ${count(first.members)} members (${engineMs(first)} ms of the engine's CPU per sign-in) REST reached ${first.burst!.rest.share.toFixed(2)}`
      : "") +
    ". On MongoDB both finds read one key of an index (the unique index on `email`, and `{userId, createdAt}`)"
  );
}

function versions(engine: string): string {
  const read = (name: string) => {
    const file = path.join(__dirname, "..", "node_modules", name, "package.json");
    if (!fs.existsSync(file)) return "?";
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
  };
  return [
    `Node ${process.version}`,
    ...["graphql", "@apollo/server", "sofa-api", "mongoose"].map((name) => `${name} ${read(name)}`),
    `mongodb driver ${read("mongodb")}`,
    `autocannon ${read("autocannon")}`,
    engine === "ferretdb"
      ? `FerretDB v1.24.2 (SQLite backend, built with the patches ${PATCH_NAMES.join(", ")} of tools/dev-db/ferretdb-patches.ts)`
      : `database engine: ${engine}`,
  ].join(", ");
}

function pageSection(page: PageVsDriver): string[] {
  const row = (name: string, result: LoadResult) =>
    `| ${name} | ${result.total} | ${meanMs(result)} | ${result.p50} | ${result.p95} | ${Math.round(result.max)} |`;
  const [serviceMs, driverMs] = [msPer(page.service), msPer(page.driver)];
  const adds =
    "HTTP, its account and session read by `_id`, Sofa and GraphQL execution, mongoose and presenting";
  return [
    ...heading("A member page against the driver alone"),
    `GET /members?page=${page.page} (10 records, newest first, archived left out) through REST, one request at a time, against the same queries sent through the mongodb driver by a loop in the benchmark's process. The queries are not written out in the benchmark: MemberService.list ran once on the same database with the driver's command monitoring on (bench/driver-alone.ts), and the loop replays what it sent, phase by phase as the service sends them (‖: sent together):`,
    "",
    ...page.queries.map((phase, index) => `${index + 1}. \`${phase}\``),
    "",
    "The two sides took turns, alternating which went first.",
    "",
    "| Side | Pages | Mean ms | p50 ms | p95 ms | Slowest ms |",
    "|---|---:|---:|---:|---:|---:|",
    row("GET /members?page=… through the service", page.service),
    row("The same queries through the driver alone", page.driver),
    "",
    serviceMs >= driverMs
      ? `The service adds ${fixed(serviceMs - driverMs, 1)} ms a page (${adds}): ${ceilingText(page.ratio)} × the driver alone.`
      : `The service's pages took ${fixed(driverMs - serviceMs, 1)} ms less than the driver's (${ceilingText(page.ratio)} ×): what the service adds (${adds}) is within how much the engine's own time varied from turn to turn.`,
  ];
}

/** The bursts' section: each count, REST and the floor, and where their CPU went. */
function burstSection(bursts: SizeResult[]): string[] {
  if (bursts.length === 0) return [];
  const row = (members: number, b: BurstResult, route: string, side: BurstSide) =>
    `| ${count(members)} | ${route} | ${side.answered} of ${b.count} | ${fixed(side.seconds)} s | ${fixed(side.perSecond)} | ${ms(b.hashMs)} | ${fixed(b.bound)} | ${fixed(side.share)} | ${ms(side.serviceCpuMs)} | ${ms(side.engineCpuMs)} |`;
  return [
    ...heading("Sign-in bursts"),
    "A burst sends its sign-ins at once for one demo member, each on a connection of its own, after one unmeasured sign-in (bench/sign-in-burst.ts); then the same burst goes to the hand-written floor's POST /auth/login, which makes the same AuthService call and reads the same member profile without Sofa or GraphQL. One bcryptjs hash at the service's cost is timed in the benchmark's process before and after (their mean); cores ÷ that time is what the machine allows when every core hashes. The CPU columns are per answered sign-in, from /proc: the service's process (its hashing threads included) and the engine's.",
    "",
    "| Members | Route | Answered | Time | Sign-ins/s | One hash | Cores ÷ hash | Share | Service CPU | Engine CPU |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...bursts.flatMap((size) => {
      const b = size.burst!;
      return [row(size.members, b, "REST", b.rest), row(size.members, b, "floor", b.floor)];
    }),
  ];
}
