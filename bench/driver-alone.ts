/**
 * A member page through the service against the same queries sent through the mongodb driver
 * alone: what the service (HTTP, authentication, Sofa, GraphQL execution, mongoose, presenting)
 * adds over the engine's own work. The queries are not written here but captured from the
 * service's code: MemberService.list runs in this process on a connection whose driver reports
 * every command, and the loop replays those commands, phase by phase as the service sent them.
 */
import { performance } from "node:perf_hooks";
import { BSON, MongoClient, type CommandStartedEvent, type Document } from "mongodb";
import { loadConfig } from "../src/config";
import { clientOptionsFor } from "../src/db/connection";
import type { MemberListArgs } from "../src/modules/members/member.input";
import { withServices } from "./collection-stats";
import { resultOf, run, type LoadResult, type LoadSpec } from "./load";

/** Commands sent together (the service awaits them together); the next phase waits for them. */
type Phase = Document[];

export interface PageVsDriver {
  page: number;
  /** GET /members?page=N through REST, one request at a time, over all turns. */
  service: LoadResult;
  /** The captured queries through the driver alone, one page at a time, over all turns. */
  driver: LoadResult;
  /** Mean time per page through the service ÷ through the driver alone. */
  ratio: number;
  /** The same ratio within each turn. */
  turnRatios: number[];
  /** The captured commands, one line per phase. */
  queries: string[];
}

interface PageVsDriverOptions {
  uri: string;
  /** The service's environment, for the services built here to capture the queries. */
  env: Record<string, string>;
  url: string;
  token: string;
  page: number;
  turns: number;
  /** Pages per turn and side. */
  perTurn: number;
}

/** What is sent with a command but belongs to the session it was sent in, not to the query. */
const SESSION_FIELDS = new Set(["lsid", "txnNumber", "autocommit", "startTransaction"]);

const READS = new Set(["find", "aggregate", "count", "getMore"]);

/** The commands MemberService.list sends for one page, in the phases it sends them. */
function capturePage(uri: string, env: Record<string, string>, page: number) {
  return withServices(
    uri,
    env,
    async (services, connection) => {
      // mongoose creates each model's collection as the model is made: not part of a page.
      await Promise.all(services.models.map((model) => model.init()));
      const phases: Phase[] = [];
      let answered = true;
      const client = connection.getClient();
      const started = (event: CommandStartedEvent) => {
        if (!READS.has(event.commandName)) return;
        if (answered) phases.push([]);
        answered = false;
        // A copy: the driver owns the command object it reports.
        const copy = BSON.deserialize(BSON.serialize(event.command));
        phases[phases.length - 1].push(
          Object.fromEntries(
            Object.entries(copy).filter(
              ([key]) => !key.startsWith("$") && !SESSION_FIELDS.has(key),
            ),
          ),
        );
      };
      const ended = () => (answered = true);
      client.on("commandStarted", started);
      client.on("commandSucceeded", ended);
      client.on("commandFailed", ended);
      const args: Pick<MemberListArgs, "page" | "limit" | "includeArchived"> = {
        page,
        limit: 10,
        includeArchived: false,
      };
      await services.services.members.reads.list(args);
      return phases;
    },
    true,
  );
}

/** One line per phase: each command's name, collection and shape. */
function describePhases(phases: Phase[]): string[] {
  return phases.map((phase) =>
    phase
      .map((command) => {
        const [name] = Object.keys(command);
        const rest = Object.entries(command).filter(([key]) => key !== name);
        return `${name} ${String(command[name])} ${JSON.stringify(Object.fromEntries(rest), shape)}`;
      })
      .join(" ‖ "),
  );
}

/** Long id lists and strings would say nothing in the report. */
function shape(_key: string, value: unknown): unknown {
  if (Array.isArray(value) && value.length > 3) return [`…${value.length} values`];
  if (typeof value === "string" && value.length > 40) return `${value.slice(0, 12)}…`;
  return value;
}

async function replay(client: MongoClient, dbName: string, phases: Phase[]): Promise<void> {
  const db = client.db(dbName);
  for (const phase of phases) await Promise.all(phase.map((command) => db.command(command)));
}

interface Side {
  times: number[];
  failures: number;
}

/**
 * The service's page and the driver's replay take turns, `perTurn` pages each, one at a time;
 * which goes first alternates. A fixed number of pages per turn rather than a time: a request
 * cut off at a turn's end would leave the engine busy with it during the other side's turn.
 */
export async function measurePageVsDriver(options: PageVsDriverOptions): Promise<PageVsDriver> {
  const phases = await capturePage(options.uri, options.env, options.page);
  const dbName = loadConfig(options.env).dbName;
  const client = await MongoClient.connect(options.uri, clientOptionsFor(options.uri));
  const spec: LoadSpec = {
    url: `${options.url}/api/v1/members?page=${options.page}`,
    headers: { authorization: `Bearer ${options.token}` },
    connections: 1,
    timeoutSeconds: 300,
  };
  const service: Side = { times: [], failures: 0 };
  const driver: Side = { times: [], failures: 0 };
  const turnRatios: number[] = [];
  const serviceTurn = async (pages: number) => {
    const { result, times } = await run({ ...spec, amount: pages });
    return { times, failures: result.non2xx + result.errors + result.timeouts };
  };
  const driverTurn = async (pages: number) => {
    const times: number[] = [];
    for (let page = 0; page < pages; page += 1) {
      const started = performance.now();
      await replay(client, dbName, phases);
      times.push(performance.now() - started);
    }
    return { times, failures: 0 };
  };
  try {
    await serviceTurn(1);
    await driverTurn(1);
    for (let turn = 0; turn < options.turns; turn += 1) {
      const sides = [
        { side: service, measure: serviceTurn },
        { side: driver, measure: driverTurn },
      ];
      if (turn % 2 === 1) sides.reverse();
      const means = new Map<Side, number>();
      for (const { side, measure } of sides) {
        const { times, failures } = await measure(options.perTurn);
        side.times.push(...times);
        side.failures += failures;
        means.set(side, mean(times));
      }
      turnRatios.push(means.get(service)! / means.get(driver)!);
    }
  } finally {
    await client.close();
  }
  const loadOf = (side: Side) =>
    resultOf(side.times, sum(side.times) / 1000, side.failures, side.times.length);
  return {
    page: options.page,
    service: loadOf(service),
    driver: loadOf(driver),
    ratio: mean(service.times) / mean(driver.times),
    turnRatios,
    queries: describePhases(phases),
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => sum(values) / Math.max(values.length, 1);
