/**
 * `--only=report`: office reports through the service (GET /api/v1/reports/<name>, one request
 * at a time) against the same aggregations sent through the mongodb driver alone. The
 * aggregations are not written here: ReportsService runs once in this process on a connection
 * whose driver reports every command, and the loop replays what it sent (commands sent before
 * any answer went together, and go together again). Turns alternate which side goes first.
 */
import { performance } from "node:perf_hooks";
import { BSON, MongoClient, type CommandStartedEvent, type Document } from "mongodb";
import { loadConfig } from "../src/config";
import { clientOptionsFor, connectDatabase } from "../src/db/connection";
import { createLogger } from "../src/logger";
import { resolveJwtSecret } from "../src/modules/auth/jwt-secret";
import { REPORTS, type ReportName } from "../src/modules/reports/reports.service";
import { createServices } from "../src/services";

/** The reports measured: the widest grouping of member records, and the funnel. */
export const MEASURED_REPORTS: readonly ReportName[] = ["members-by-region", "onboarding-funnel"];
/** The service may take this much of the driver's time for the same aggregations. */
export const REPORT_RATIO_TARGET = 1.3;

export interface ReportVsDriver {
  report: ReportName;
  /** Mean milliseconds a report, over every turn. */
  serviceMs: number;
  driverMs: number;
  ratio: number;
  /** The captured commands, one line per group sent together. */
  commands: string[];
}

interface Options {
  uri: string;
  /** The service's environment (bench/service-process.ts), to capture on the same database. */
  env: Record<string, string>;
  url: string;
  token: string;
  turns?: number;
  perTurn?: number;
}

const SESSION_FIELDS = new Set(["lsid", "txnNumber", "autocommit", "startTransaction"]);

/** What `ReportsService[field]()` sends, grouped as it sent it. */
async function capture(options: Options, report: ReportName): Promise<Document[][]> {
  const config = loadConfig(options.env);
  const connection = await connectDatabase({
    uri: options.uri,
    dbName: config.dbName,
    monitorCommands: true,
  });
  const built = createServices(
    connection,
    config,
    resolveJwtSecret(config.jwtSecret, config.dataDir),
    createLogger(config),
  );
  await Promise.all(built.models.map((model) => model.init()));
  const groups: Document[][] = [];
  let pending = 0;
  const client = connection.getClient();
  const onStart = (event: CommandStartedEvent) => {
    if (event.commandName !== "aggregate") return;
    if (pending === 0) groups.push([]);
    pending += 1;
    const command = BSON.deserialize(BSON.serialize(event.command));
    for (const key of Object.keys(command)) {
      if (key.startsWith("$") || SESSION_FIELDS.has(key)) delete command[key];
    }
    groups[groups.length - 1].push(command);
  };
  const onEnd = (event: { commandName: string }) => {
    if (event.commandName === "aggregate") pending -= 1;
  };
  client.on("commandStarted", onStart);
  client.on("commandSucceeded", onEnd);
  client.on("commandFailed", onEnd);
  try {
    await built.services.reports[REPORTS[report].field]();
  } finally {
    client.off("commandStarted", onStart);
    client.off("commandSucceeded", onEnd);
    client.off("commandFailed", onEnd);
    await built.close();
    await connection.close();
  }
  return groups;
}

async function timed(times: number[], work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  times.push(performance.now() - started);
}

const mean = (values: number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);

/** One report: `turns` turns of `perTurn` reports a side, after one of each unmeasured. */
export async function measureReportVsDriver(
  options: Options,
  report: ReportName,
): Promise<ReportVsDriver> {
  const groups = await capture(options, report);
  const client = await MongoClient.connect(options.uri, clientOptionsFor(options.uri));
  const db = client.db(loadConfig(options.env).dbName);
  const viaService = async () => {
    const response = await fetch(`${options.url}/api/v1/reports/${report}`, {
      headers: { authorization: `Bearer ${options.token}` },
    });
    if (!response.ok) throw new Error(`${report}: ${response.status} ${await response.text()}`);
    await response.json();
  };
  const viaDriver = async () => {
    for (const group of groups) await Promise.all(group.map((command) => db.command(command)));
  };
  const service: number[] = [];
  const driver: number[] = [];
  try {
    await viaService();
    await viaDriver();
    const sides: [number[], () => Promise<void>][] = [
      [service, viaService],
      [driver, viaDriver],
    ];
    for (let turn = 0; turn < (options.turns ?? 3); turn += 1) {
      for (const [times, work] of turn % 2 === 0 ? sides : [...sides].reverse()) {
        for (let i = 0; i < (options.perTurn ?? 10); i += 1) await timed(times, work);
      }
    }
  } finally {
    await client.close();
  }
  return {
    report,
    serviceMs: mean(service),
    driverMs: mean(driver),
    ratio: mean(service) / mean(driver),
    commands: groups.map((group) =>
      group.map((command) => JSON.stringify(command.pipeline ?? command)).join(" ‖ "),
    ),
  };
}

/** Every measured report, each said in one line as it is measured. */
export async function logReportsVsDriver(
  options: Options,
  log: (line: string) => void,
): Promise<ReportVsDriver[]> {
  const results: ReportVsDriver[] = [];
  for (const report of MEASURED_REPORTS) {
    const result = await measureReportVsDriver(options, report);
    const verdict = result.ratio <= REPORT_RATIO_TARGET ? "met" : "missed";
    log(
      `GET /reports/${report}: ${result.serviceMs.toFixed(1)} ms through the service, ` +
        `${result.driverMs.toFixed(1)} ms through the driver alone: ${result.ratio.toFixed(2)} × ` +
        `(target ≤ ${REPORT_RATIO_TARGET}: ${verdict}); ${result.commands.join(" / ")}`,
    );
    results.push(result);
  }
  return results;
}
