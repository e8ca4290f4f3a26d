/**
 * The shapes of the queries the test suite sends, kept for the benchmark's capacity plan
 * (bench/capacity-plan.ts), which works out from the declared indexes how MongoDB serves each:
 * the plan follows the repositories' queries as the suite exercises them, with no copy of them
 * to keep. Each test app saves what its CommandRecorder saw into the run's folder
 * (TEST_DATA_DIR); the global teardown merges the files into reports/queries.json, replacing
 * the entries of the test files that ran and dropping those of files that are gone, so a run of
 * one file keeps what earlier runs recorded for the others.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { queriesOf, shapeOf, type MonitoredCommand, type PlannedQuery } from "./index-coverage";

const ROOT = path.join(__dirname, "..", "..");
export const RECORDED_QUERIES_FILE = path.join(ROOT, "reports", "queries.json");
const RUN_FOLDER = "recorded-queries";

/** Test file (relative to the repository's root) → the shapes of the queries its apps sent. */
export type RecordedQueries = Record<string, PlannedQuery[]>;

const distinct = (queries: PlannedQuery[]) => [
  ...new Map(queries.map((query) => [JSON.stringify(query), query])).values(),
];

/** Saves the shapes of `commands`' queries, sent by the apps of the test file `testPath`. */
export function saveRecorded(testPath: string, commands: readonly MonitoredCommand[]): void {
  const runDir = process.env.TEST_DATA_DIR;
  if (!runDir) return;
  const queries = distinct(
    commands
      .flatMap(queriesOf)
      .map((query) => ({ ...query, filter: shapeOf(query.filter) as PlannedQuery["filter"] })),
  );
  const dir = path.join(runDir, RUN_FOLDER);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.relative(ROOT, testPath);
  fs.writeFileSync(path.join(dir, `${randomUUID()}.json`), JSON.stringify({ file, queries }));
}

/** What the run in `runDir` saved, merged into `into` (see the top of this file). */
export function mergeRecorded(runDir: string, into = RECORDED_QUERIES_FILE): void {
  const dir = path.join(runDir, RUN_FOLDER);
  if (!fs.existsSync(dir)) return;
  const fresh: RecordedQueries = {};
  for (const name of fs.readdirSync(dir)) {
    const saved = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as {
      file: string;
      queries: PlannedQuery[];
    };
    fresh[saved.file] = distinct([...(fresh[saved.file] ?? []), ...saved.queries]);
  }
  const kept = Object.entries(readRecorded(into)).filter(
    ([file]) => !(file in fresh) && fs.existsSync(path.join(ROOT, file)),
  );
  const merged = [...kept, ...Object.entries(fresh)].sort(([a], [b]) => a.localeCompare(b));
  fs.mkdirSync(path.dirname(into), { recursive: true });
  fs.writeFileSync(into, `${JSON.stringify(Object.fromEntries(merged), null, 1)}\n`);
}

export function readRecorded(file = RECORDED_QUERIES_FILE): RecordedQueries {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as RecordedQueries) : {};
}
