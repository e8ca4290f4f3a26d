/** The report's sections below the targets, each from what a run measured. */
import os from "node:os";
import type { PageVsDriver } from "./driver-alone";
import { MEMBER_READS, type MemberReadKey } from "./member-reads";
import type { BenchOptions } from "./options";
import type { ReportInput, SizeResult } from "./report-input";
import type { BurstResult, BurstSide } from "./sign-in-burst";
import {
  ceilingText,
  count,
  fixed,
  ms,
  msPer,
  ratioText,
  TARGET,
  type ApolloAlone,
} from "./report-sections";

export function loadLine(options: BenchOptions): string {
  const target = count(options.targetSize);
  return [
    `autocannon in the benchmark's own process on the same machine (it shares the ${os.cpus().length} cores).`,
    `Member reads: one request at a time, ${options.sizeSamples} of each at every member count (after the session's first reads, which list members and offices; the same load at each count, and the service's resident memory is read right after it), then ${options.targetSamples} more of each at ${target} for the targets.`,
    `A member page against the driver alone: ${options.pageTurns} turns of ${options.pagesPerTurn} pages a side, one at a time, after one of each.`,
    `The interfaces at ${target}: ${options.durationSeconds} s per scenario after a 1 s warm-up (and, before the first run, one unmeasured 2 s pass over every scenario), ${options.connections} connections unless stated; ${options.runs} runs, each row the median run by throughput; a group's REST, GraphQL and floor rows take ${2 * options.durationSeconds} turns each of as many answers as its warm-up gave in half a second (none cut off at a turn's end), every other round in reverse order; a run's ratio is the median of its rounds' ratios, and a ratio target uses the median of the runs' ratios.`,
  ].join(" ");
}

export function readingTheNumbers(input: ReportInput): string[] {
  return [
    "Reading the numbers: every request reads the database (the signed-in account and session by `_id`, then what the route needs) and nothing of a collection is kept in the service. A member page is four queries: the page (find, sort, skip, limit) and its count, then its accounts and its branches of service by `_id`.",
    input.engine === "ferretdb"
      ? 'The development engine, FerretDB v1 on SQLite, uses no index but `_id` (an `_id`, an `_id $in` or an `_id` beside other conditions, with the install\'s patches): every other query reads and decodes every document of its collection from its stored JSON, filters it, and sorts what matches in memory. So member lists, searches and GET /users grow in step with the membership (table "By member count"), and the engine, not the service, takes the time (section "A member page against the driver alone"). On MongoDB the same queries walk the declared indexes (section "Capacity plan for MongoDB"): a page reads its skip + 10 index keys and 10 documents, a count reads index keys only.'
      : `The engine was ${input.engine}.`,
    "Office titles are a few hundred documents, read with the appointments' lapsed-terms query first: on this engine those reads are bound by the engine too, so their ratios to the floor move with it; the service's CPU per answer (beside the ratios, and in \"What Apollo alone costs\") shows what the interfaces add. The engine, the service and the load generator share the machine's cores.",
  ];
}

/** The slowest p95 of the member reads at a size. */
const slowest = (size: SizeResult) =>
  Math.max(...Object.values(size.reads).map((read) => read.result.p95));

/**
 * The member count at which the slowest member read's p95 reaches the target, on a straight
 * line between the two measured counts around it; null when no measured count reaches it.
 */
export function crossing(sizes: SizeResult[], limitMs: number): number | null {
  for (let index = 0; index + 1 < sizes.length; index += 1) {
    const [low, high] = [sizes[index], sizes[index + 1]];
    const [from, to] = [slowest(low), slowest(high)];
    if (from < limitMs && to >= limitMs) {
      return low.members + ((limitMs - from) * (high.members - low.members)) / (to - from);
    }
  }
  return sizes.length > 0 && slowest(sizes[0]) >= limitMs ? sizes[0].members : null;
}

export function bySizeSection(input: ReportInput): string[] {
  const cell = (size: SizeResult, key: MemberReadKey) => {
    const { result } = size.reads[key];
    return `${result.p50} / ${result.p95}${result.failures > 0 ? ` (${result.failures} failed)` : ""}`;
  };
  const rows = input.sizes.map(
    (size) =>
      `| ${count(size.members)} | ${MEMBER_READS.map((read) => cell(size, read.key)).join(" | ")} | ${size.reads.list.result.total} | ${size.serviceRssMb} MB | ${size.engineRssMb === null ? "?" : `${size.engineRssMb} MB`} |`,
  );
  const at = crossing(input.sizes, TARGET.memberReadP95Ms);
  const first = input.sizes[0];
  const verdict =
    at === null
      ? `The slowest of the three stayed under ${TARGET.memberReadP95Ms} ms at every measured count.`
      : at === first?.members && slowest(first) >= TARGET.memberReadP95Ms
        ? `The slowest of the three was over ${TARGET.memberReadP95Ms} ms already at ${count(at)} members.`
        : `The slowest of the three reaches ${TARGET.memberReadP95Ms} ms at about ${count(at)} members on this engine (on a straight line between the measured counts around it): from there, run the service on MongoDB (docker-compose.yml), whose indexes keep these reads independent of the count.`;
  return [
    "",
    "## By member count",
    "",
    "The same member reads at each count, one request at a time (p50 / p95 in ms), and the resident memory of the service and of the engine right after them.",
    "",
    `| Members | ${MEMBER_READS.map((read) => `${read.name} p50 / p95 ms`).join(" | ")} | Requests each | Service RSS | Engine RSS |`,
    `|---:|${MEMBER_READS.map(() => "---:|").join("")}---:|---:|---:|`,
    ...rows,
    "",
    verdict,
  ];
}

export function pageSection(page: PageVsDriver): string[] {
  const row = (name: string, result: PageVsDriver["service"]) =>
    `| ${name} | ${result.total} | ${fixed(msPer(result), 1)} | ${result.p50} | ${result.p95} | ${Math.round(result.max)} |`;
  const [serviceMs, driverMs] = [msPer(page.service), msPer(page.driver)];
  return [
    "",
    "## A member page against the driver alone",
    "",
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
      ? `The service adds ${fixed(serviceMs - driverMs, 1)} ms a page (HTTP, its account and session read by \`_id\`, Sofa and GraphQL execution, mongoose and presenting): ${ceilingText(page.ratio)} × the driver alone.`
      : `The service's pages took ${fixed(driverMs - serviceMs, 1)} ms less than the driver's (${ceilingText(page.ratio)} ×): what the service adds (HTTP, its account and session read by \`_id\`, Sofa and GraphQL execution, mongoose and presenting) is within how much the engine's own time varied from turn to turn.`,
  ];
}

/** The bursts' section: each count, REST and the floor, and where their CPU went. */
export function burstSection(sizes: SizeResult[]): string[] {
  const bursts = sizes.filter((size) => size.burst);
  if (bursts.length === 0) return [];
  const row = (members: number, b: BurstResult, route: string, side: BurstSide) =>
    `| ${count(members)} | ${route} | ${side.answered} of ${b.count} | ${fixed(side.seconds)} s | ${fixed(side.perSecond)} | ${ms(b.hashMs)} | ${fixed(b.bound)} | ${fixed(side.share)} | ${ms(side.serviceCpuMs)} | ${ms(side.engineCpuMs)} |`;
  return [
    "",
    "## Sign-in bursts",
    "",
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

export function apolloAloneSection(each: (ApolloAlone | undefined)[]): string[] {
  if (each.every((one) => one === undefined)) return [];
  const us = (value: number) => String(Math.round(value));
  const lines = [
    "",
    "## What Apollo alone costs",
    "",
    "Beside the floor, on its port and behind the same request shell (bench/floor-server.ts): the service's own Apollo set-up (`createGraphqlServer`: the same plugins, limits, error formatting and context builder) over a one-field schema whose resolver returns a constant, and an express route that reads the same JSON body and answers the same JSON. Their rows are in the table above (\"Apollo alone\"); they take turns like a ratio group. The times are the service process's CPU time per answer over a scenario's turns (/proc), all four in that one process. What Apollo alone adds is its pipeline and GraphQL execution with no service work behind them; the last but one column puts only that on top of the floor.",
    "",
    "| Run | Floor, title by id | /graphql, title by id | /graphql adds | express alone | Apollo alone | Apollo adds | Floor ÷ (floor + Apollo's addition) | /graphql × floor, measured |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  each.forEach((one, index) => {
    if (one)
      lines.push(
        `| ${index + 1} | ${us(one.floorUs)} µs | ${us(one.graphqlUs)} µs | ${us(one.graphqlUs - one.floorUs)} µs | ${us(one.expressUs)} µs | ${us(one.apolloUs)} µs | ${us(one.apolloUs - one.expressUs)} µs | ${ratioText(one.onlyApollo)} | ${ratioText(one.graphqlRatio)} |`,
      );
  });
  return lines;
}
