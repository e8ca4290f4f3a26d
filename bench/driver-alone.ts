/**
 * A read through the service against the same database commands sent through the mongodb driver
 * alone: what the service adds over the engine's own work. The commands are captured, not
 * written here: the service's own code runs once in this process on a connection whose driver
 * reports every command, and a loop replays them, phase by phase as the service sent them.
 */
import { performance } from "node:perf_hooks";
import { BSON, MongoClient, type CommandStartedEvent, type Document } from "mongodb";
import { clientOptionsFor } from "../src/db/connection";
import { REPORTS, type ReportName } from "../src/modules/reports/reports.service";
import type { Services } from "../src/services";
import { withServices } from "./collection-stats";
import { databaseOf } from "./dataset";
import { inTurns, resultOf, run } from "./load";
import { log } from "./options";
import { mean, sum } from "./report-sections";
import { bearer, type At } from "./scenario";
import { serviceEnv } from "./service-process";

/** Commands sent together (the service awaits them together); the next phase waits for them. */
type Phase = Document[];

export type PageVsDriver = Awaited<ReturnType<typeof measurePageVsDriver>>;

/** Sent with a command but belonging to the session it was sent in, not to the query. */
const SESSION_FIELDS = new Set(["lsid", "txnNumber", "autocommit", "startTransaction"]);
const READS = new Set(["find", "aggregate", "count", "getMore"]);

/** The reads `call` sends through the service's own services, in the phases it sends them. */
function capture({ engine, members }: At, call: (services: Services) => Promise<unknown>) {
  return withServices(
    engine.uri,
    serviceEnv(engine, members),
    async (built, connection) => {
      // mongoose creates each model's collection as the model is made: not part of the call.
      await Promise.all(built.models.map((model) => model.init()));
      const phases: Phase[] = [];
      let answered = true;
      const client = connection.getClient();
      client.on("commandStarted", (event: CommandStartedEvent) => {
        if (!READS.has(event.commandName)) return;
        if (answered) phases.push([]);
        answered = false;
        // A copy: the driver owns the command object it reports.
        const copy = BSON.deserialize(BSON.serialize(event.command));
        const kept = Object.entries(copy).filter(
          ([key]) => !key.startsWith("$") && !SESSION_FIELDS.has(key),
        );
        phases[phases.length - 1].push(Object.fromEntries(kept));
      });
      client.on("commandSucceeded", () => (answered = true));
      client.on("commandFailed", () => (answered = true));
      await call(built.services);
      return phases;
    },
    true,
  );
}

/** One line per phase: each command's name, collection and shape. */
function describePhases(phases: Phase[]): string[] {
  // Long id lists and strings would say nothing in the report.
  const shape = (_key: string, value: unknown): unknown =>
    Array.isArray(value) && value.length > 3
      ? [`…${value.length} values`]
      : typeof value === "string" && value.length > 40
        ? `${value.slice(0, 12)}…`
        : value;
  const describe = (command: Document) => {
    const [[name, collection], ...rest] = Object.entries(command);
    return `${name} ${String(collection)} ${JSON.stringify(Object.fromEntries(rest), shape)}`;
  };
  return phases.map((phase) => phase.map(describe).join(" ‖ "));
}

/**
 * GET `path` through the service against the replay of what `call` sends, taking
 * `options.pageTurns` turns of `options.pagesPerTurn` each, one at a time, after one of each
 * unmeasured; which side goes first alternates. A fixed number per turn rather than a time: a
 * request cut off at a turn's end would leave the engine busy with it during the other side's
 * turn. The ratio is the mean time through the service over the driver's, over all turns and
 * within each; `queries` has a line per phase.
 */
async function againstDriver(at: At, path: string, call: (services: Services) => Promise<unknown>) {
  const phases = await capture(at, call);
  const client = await MongoClient.connect(at.engine.uri, clientOptionsFor(at.engine.uri));
  const db = client.db(databaseOf(at.members));
  const spec = { url: `${at.service.url}${path}`, headers: bearer(at.session.adminToken) };
  const replay = async (count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      for (const phase of phases) await Promise.all(phase.map((command) => db.command(command)));
      times.push(performance.now() - started);
    }
    return { times, failures: 0 };
  };
  const viaService = (amount: number) =>
    run({ ...spec, connections: 1, timeoutSeconds: 300, amount });
  type Turn = { times: number[]; failures: number };
  const sides = [viaService, replay].map((measure) => ({ measure, turns: [] as Turn[] }));
  try {
    for (const side of sides) await side.measure(1);
    await inTurns(sides, at.options.pageTurns, async (side) => {
      side.turns.push(await side.measure(at.options.pagesPerTurn));
    });
  } finally {
    await client.close();
  }
  const [serviceTurns, driverTurns] = sides.map((side) => side.turns);
  const all = (turns: Turn[]) => turns.flatMap((turn) => turn.times);
  const [service, driver] = [serviceTurns, driverTurns].map((turns) =>
    resultOf(all(turns), sum(all(turns)) / 1000, sum(turns.map((turn) => turn.failures))),
  );
  const turnRatios = serviceTurns.map((turn, i) => mean(turn.times) / mean(driverTurns[i].times));
  const [serviceMs, driverMs] = [mean(all(serviceTurns)), mean(all(driverTurns))];
  const ratio = serviceMs / driverMs;
  const queries = describePhases(phases);
  log(
    `${path}: ${serviceMs.toFixed(1)} ms through the service (${service.failures} ` +
      `failed), ${driverMs.toFixed(1)} ms through the driver alone: ` +
      `${ratio.toFixed(2)} ×; ${queries.join(" / ")}`,
  );
  return { service, driver, ratio, turnRatios, queries };
}

/** GET /members?page=N, 5 % into the list, against MemberService.list's queries for it. */
export async function measurePageVsDriver(at: At) {
  const page = Math.max(2, Math.round(at.members * 0.005));
  const list = (services: Services) =>
    services.members.reads.list({ page, limit: 10, includeArchived: false });
  return { page, ...(await againstDriver(at, `/api/v1/members?page=${page}`, list)) };
}

/** The widest grouping of member records, and the funnel. */
const MEASURED_REPORTS: readonly ReportName[] = ["members-by-region", "onboarding-funnel"];

/** Office reports against their aggregations through the driver, as many turns as the page. */
export async function measureReportsVsDriver(at: At) {
  const rows = [];
  for (const report of MEASURED_REPORTS) {
    const call = (services: Services) => services.reports[REPORTS[report].field]();
    rows.push({ report, ...(await againstDriver(at, `/api/v1/reports/${report}`, call)) });
  }
  return rows;
}
