import os from "node:os";
import { renderCapacityPlan } from "./capacity-plan";
import type { PageVsDriver } from "./driver-alone";
import type { LoadResult } from "./load";
import type { ReportInput, SizeResult } from "./report-input";
import {
  apolloAlone,
  ceilingText,
  count,
  fixed,
  median,
  medianBy,
  medianRatios,
  ms,
  msPer,
  ratioText,
  resultIn,
  rps,
  table,
  TARGET,
  Verdicts,
  versions,
  type ApolloAlone,
  type Measured,
} from "./report-sections";
import {
  apolloAloneSection,
  burstSection,
  bySizeSection,
  loadLine,
  pageSection,
  readingTheNumbers,
} from "./report-text";
import { HEAP_OPTIONS } from "./service-process";

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
  // The run whose Apollo addition is the median of the runs'.
  const apollo = medianBy(
    apolloRuns.filter((one) => one !== undefined),
    (one) => one.apolloUs - one.expressUs,
  ) as ApolloAlone | undefined;
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
    "Written by `npm run bench` (bench/run.ts); do not edit by hand, save the sections measured with `--only` at the end, which a full run keeps. Speed is measured here and only here, never in timed tests.",
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
      `| ${label} p95 < ${TARGET.memberReadP95Ms} ms at one connection, ${target} members | p95 ${result.p95} ms, p50 ${result.p50} ms (${result.total} requests) | ${verdicts.verdict(result.p95 < TARGET.memberReadP95Ms && result.failures === 0, WHY.memberReads(input))} |`,
    );
  }
  const page = input.page;
  lines.push(
    `| A member page (GET /members?page=${page.page}) within ${TARGET.pageRatio} × its queries through the driver alone, ${target} members | ${ceilingText(page.ratio)} × (${fixed(msPer(page.service), 1)} ms against ${fixed(msPer(page.driver), 1)} ms a page; turns: ${page.turnRatios.map(ceilingText).join(", ")}) | ${verdicts.verdict(page.ratio <= TARGET.pageRatio && page.service.failures === 0, WHY.page(page))} |`,
  );
  const ratios = medianRatios(input.readRuns);
  const ratioRows = (via: "REST" | "GraphQL", issue: string) =>
    ratios.map((ratio) => {
      const value = via === "REST" ? ratio.rest : ratio.graphql;
      const runs = ratio.runs.map((run) => ratioText(via === "REST" ? run.rest : run.graphql));
      return `| ${ratio.group}: ${via} ≥ ${TARGET.ratio} × floor${issue} | ${ratioText(value)} ×${runs.length > 1 ? ` (runs: ${runs.join(", ")})` : ""}${cpuText(input.readRuns, ratio.group, via)} | ${verdicts.verdict(value >= TARGET.ratio, WHY.ratio(apollo))} |`;
    });
  lines.push(
    ...ratioRows("REST", ""),
    `| Service RSS at ${count(largest.members)} members ≤ ${TARGET.rssGrowthMb} MB above ${count(smallest.members)}, after the same read load | ${largest.serviceRssMb} MB against ${smallest.serviceRssMb} MB (${rssGrowth >= 0 ? "+" : ""}${rssGrowth} MB) | ${verdicts.verdict(rssGrowth <= TARGET.rssGrowthMb, WHY.rss)} |`,
    ...ratioRows("GraphQL", " (issue 7)"),
    ...costRows(input, verdicts),
  );
  lines.push(
    `| GET /offices p99 < ${TARGET.officesP99Ms} ms at ${options.targetConnections} connections (issue 7) | ${storm.alone.p99} ms (${rps(storm.alone)} req/s); the hand-written floor right after: ${storm.floor.p99} ms (${rps(storm.floor)} req/s) | ${verdicts.verdict(storm.alone.p99 < TARGET.officesP99Ms, WHY.offices(storm.floor))} |`,
    `| GET /offices p99 during ${options.logins} concurrent sign-ins < ${TARGET.stormFactor} × without (issue 7) | ${storm.during.p99} ms vs ${storm.alone.p99} ms = ${fixed(stormFactor)} × (sign-ins: ${rps(storm.storm)} req/s, ${storm.storm.failures} failed) | ${verdicts.verdict(stormFactor < TARGET.stormFactor, WHY.storm)} |`,
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
    "The hand-written floor (bench/floor-server.ts) is express with the service's own request shell (request id and log, security headers, CORS, rate limit: src/http/request-shell.ts) on the same node server (`expressServerOptions`), the same authentication and the same OfficeService call the REST route ends in (which reads the titles through OfficeRepository), answering the same JSON, with no GraphQL execution and no Sofa. It listens inside the service's process (bench/service-with-floor.ts): identical processes ran up to 1.5 × apart on this machine, so a floor in a process of its own made each ratio also a comparison of two processes' luck.",
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

/** The service's CPU time per answer through `via` and through the floor, over all runs. */
function cpuText(runs: Measured[][], group: string, via: Measured["via"]): string {
  const of = (side: Measured["via"]) => {
    const each = runs.flatMap((run) => resultIn(run, group, side)?.cpuMicrosPerRequest || []);
    return each.length === 0 ? undefined : each.reduce((a, b) => a + b, 0) / each.length;
  };
  const [interfaceUs, floorUs] = [of(via), of("floor")];
  if (interfaceUs === undefined || floorUs === undefined) return "";
  return `; the service's CPU per answer ${Math.round(interfaceUs)} µs, the floor's ${Math.round(floorUs)} µs`;
}

/** REST's CPU per answer over the floor's in one group, each run's and their median. */
function cpuRatio(runs: Measured[][], group: string): { ratio: number; runs: number[] } | null {
  const each = runs.flatMap((run) => {
    const [rest, floor] = [resultIn(run, group, "REST"), resultIn(run, group, "floor")];
    const [restUs, floorUs] = [rest?.cpuMicrosPerRequest, floor?.cpuMicrosPerRequest];
    return restUs && floorUs ? [restUs / floorUs] : [];
  });
  return each.length === 0 ? null : { ratio: median(each), runs: each };
}

/** The target rows: REST's CPU on a title by id, then the burst at each count it ran at. */
function costRows(input: ReportInput, verdicts: Verdicts): string[] {
  const rows: string[] = [];
  const office = cpuRatio(input.readRuns, "office by id");
  if (office) {
    rows.push(
      `| office by id: REST's service CPU per answer ≤ ${TARGET.restCpuRatio} × the floor's | ${fixed(office.ratio)} × (runs: ${office.runs.map((r) => fixed(r)).join(", ")}) | ${verdicts.verdict(office.ratio <= TARGET.restCpuRatio, WHY.cpu)} |`,
    );
  }
  const bursts = input.sizes.filter((size) => size.burst);
  for (const size of bursts) {
    const b = size.burst!;
    rows.push(
      `| ${b.count} sign-ins at once ≥ ${TARGET.burstShare} × cores ÷ one hash, ${count(size.members)} members | ${fixed(b.rest.perSecond)}/s against ${fixed(b.bound)}/s = ${fixed(b.rest.share)}; the floor ${fixed(b.floor.share)}; per sign-in the engine's CPU ${ms(b.rest.engineCpuMs)}, one hash ${ms(b.hashMs)} | ${verdicts.verdict(b.rest.share >= TARGET.burstShare, WHY.burst(bursts, input.engine))} |`,
    );
  }
  return rows;
}

const meanMs = (result: LoadResult) => fixed(msPer(result), 1);

/** Why a target can miss on this machine; shown only for a target that was missed. */
const WHY = {
  memberReads: (input: ReportInput) => ({
    title: "Member reads on the development engine",
    why:
      input.engine === "ferretdb"
        ? `FerretDB v1 uses no index but \`_id\`: for each of these requests the engine reads and decodes every member record (for GET /users, every account) to find the page, and again to count them, filters them and sorts the matches in memory. At ${count(input.options.targetSize)} members the page's queries through the driver alone took ${meanMs(input.page.driver)} ms on average (section "A member page against the driver alone"), so the time is the engine's scans, and it grows in step with the membership (table "By member count"). MongoDB answers the same queries from the declared indexes (section "Capacity plan for MongoDB")`
        : `The engine (${input.engine}) took ${meanMs(input.page.driver)} ms on average for a page's queries through the driver alone (section "A member page against the driver alone")`,
  }),
  page: (page: PageVsDriver) => ({
    title: "A member page against the driver alone",
    why: `Through the service a page took ${meanMs(page.service)} ms on average, through the driver alone ${meanMs(page.driver)} ms. The service adds HTTP, the two reads by \`_id\` of every signed-in request (its account and session), Sofa and GraphQL execution, mongoose's query building and presenting the records; the engine serves the two extra reads on the same cores as everything else`,
  }),
  ratio: (apollo: ApolloAlone | undefined) => ({
    title: "Ratios to the floor",
    why: `The floor does only the request shell, authentication and the service call, so what an interface adds per request weighs against little: about ${apollo ? `${Math.round(apollo.floorUs)} µs` : "150–200 µs"} of the service's CPU for a signed-in title by id${apollo ? " in this run" : ""}. REST runs Sofa, mounted as its documentation shows, behind the route's gate: it adds the gate's argument checks, Sofa's router matching the path again through a fetch Request, its handler and fetch Response, and graphql-js execution with its resolvers and scalars. /graphql adds Apollo Server, which the architecture requires there: its request pipeline (the hash of the query text that finds its parsed document, the plugin hooks of every stage, content negotiation, the response's serialisation) and the JSON body read through body-parser. ${apollo ? `Measured in the same process as CPU time per answer (section "What Apollo alone costs" below): /graphql took ${Math.round(apollo.graphqlUs - apollo.floorUs)} µs more than the floor for a title by id, and the service's Apollo set-up by itself, over a resolver that returns a constant, ${Math.round(apollo.apolloUs - apollo.expressUs)} µs more than an express route reading the same body and answering the same JSON; that addition alone on the floor's ${Math.round(apollo.floorUs)} µs would leave /graphql at about ${ratioText(apollo.onlyApollo)} × the floor. ` : ""}Within one run the ratios still move by about a tenth from turn to turn with the machine's drift`,
  }),
  offices: (floor: LoadResult) => ({
    title: "GET /offices p99 at 100 connections",
    why: `A hundred connections, each sending its next request as soon as the last is answered, wait on each other: the mean time to an answer is 100 ÷ the answers per second, so a p99 under 25 ms needs well over 4 000 answers/s. Every GET /offices reads the titles from the engine, which on FerretDB scans their collection (and, before it, the appointments for lapsed terms), so the requests queue at the engine, on the two cores it shares with the service and the load generator. The same reads without Sofa or GraphQL do not get there either: the hand-written floor's GET /offices at 100 connections, measured right after, had a p99 of ${floor.p99} ms at ${rps(floor)} req/s`,
  }),
  rss: {
    title: "Memory",
    why: "Nothing of a collection is kept in the service, so what grows with the membership is what the requests held at the moment of reading or how V8 sized its heap; a heap snapshot after the same load at both counts would tell which",
  },
  cpu: {
    title: "REST's CPU per answer",
    why: "REST runs Sofa behind the route's gate: Sofa's request layer (its fetch Request and Response, its router matching the path again) and graphql-js execution with its resolvers and scalars, on a title by id whose floor does little else than authenticate and read; section \"What Apollo alone costs\" shows the floor's CPU per answer in the same run",
  },
  burst: (bursts: SizeResult[], engine: string) => {
    const [first, last] = [bursts[0], bursts[bursts.length - 1]];
    const b = last.burst!;
    const engineMs = (size: SizeResult) => Math.round(size.burst!.rest.engineCpuMs ?? NaN);
    const reads =
      engine === "ferretdb"
        ? "Each sign-in sends, besides its hash, `find users {email}`, `insert sessions` and `find members {userId: {$in: [...]}}` for the member profile of the answer. FerretDB v1 answers both finds by reading and decoding every account and every member record, on the cores the hashing threads need: "
        : `Besides its hash, each sign-in reads the account by email and the member profile on the engine (${engine}), on the same cores: `;
    return {
      title: "Sign-in bursts on the development engine",
      why:
        `${reads}at ${count(last.members)} members the engine spent ${engineMs(last)} ms of CPU per sign-in against one hash's ${Math.round(b.hashMs)} ms, and the hand-written floor, making the same service call without Sofa or GraphQL, reached ${b.floor.share.toFixed(2)} of the bound where REST reached ${b.rest.share.toFixed(2)} (section "Sign-in bursts")` +
        (first !== last
          ? `. At ${count(first.members)} members (${engineMs(first)} ms of the engine's CPU per sign-in) REST reached ${first.burst!.rest.share.toFixed(2)}`
          : "") +
        ". On MongoDB both finds read one key of an index (the unique index on `email`, and `{userId, createdAt}`)",
    };
  },
  storm: {
    title: "Login storm",
    why: "The hashing threads leave one core to the event loop; with two cores that is all there is",
  },
};
