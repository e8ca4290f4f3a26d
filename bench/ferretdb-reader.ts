/**
 * What the one patch the embedded FerretDB keeps for speed alone (`fast-reader`, the one-pass
 * reader of stored documents; tools/dev-db/ferretdb-build.ts) gains: the same full-collection
 * queries against the project's FerretDB and against one built without that patch, each
 * serving a copy of the same demo data.
 *
 *   npx ts-node --transpile-only bench/ferretdb-reader.ts [members] [runs]
 */
import "reflect-metadata";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, type Db } from "mongodb";
import { seedDemo } from "../scripts/demo/demo-data";
import { connectDatabase } from "../src/db/connection";
import { freePort } from "./processes";
import { projectRoot } from "../tools/dev-db/executables";
import { FieldCipher } from "../src/db/field-cipher";
import {
  buildFerretdb,
  ferretdbRecipe,
  findFerretdb,
  installFerretdb,
} from "../tools/dev-db/ferretdb-build";

export interface ReaderGainOptions {
  /** Demo members seeded once and copied, so both builds read the same records. */
  members?: number;
  /** Timed runs of each query on each build; the builds take turns. */
  runs?: number;
  /** The demo seed (same seed, same people). */
  seed?: number;
  log?: (message: string) => void;
}

export interface ReaderQueryGain {
  query: string;
  /** Medians, in milliseconds. */
  withReaderMs: number;
  stockReaderMs: number;
  /** How many times longer FerretDB's own reader takes. */
  gain: number;
  withReaderRunsMs: number[];
  stockReaderRunsMs: number[];
}

export interface ReaderGainResult {
  members: number;
  /** Documents in the `members` collection each query reads. */
  documents: number;
  runs: number;
  cores: number;
  /** The one-minute load average when the timing began. */
  loadAverage: number;
  queries: ReaderQueryGain[];
}

const DB_NAME = "bench_reader";

/** Each reads every member record: FerretDB hands SQLite no filter but one on `_id`. */
const QUERIES: { query: string; run: (db: Db) => Promise<unknown> }[] = [
  {
    query: "find({archivedAt: null}).sort({createdAt: -1}).limit(10)",
    run: async (db) => {
      const page = await db
        .collection("members")
        .find({ archivedAt: null })
        .sort({ createdAt: -1 })
        .limit(10)
        .toArray();
      return page.map((member) => member._id);
    },
  },
  {
    query: 'countDocuments({status: "APPROVED", archivedAt: null})',
    run: (db) => db.collection("members").countDocuments({ status: "APPROVED", archivedAt: null }),
  },
];

export async function measureReaderGain(
  options: ReaderGainOptions = {},
): Promise<ReaderGainResult> {
  const members = options.members ?? 5_000;
  const runs = options.runs ?? 5;
  const log = options.log ?? (() => undefined);
  const withReader = await projectFerretdb(log);
  const stockReader = await stockReaderFerretdb(log);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-ferretdb-reader-"));
  const engines: Ferretdb[] = [];
  try {
    log(`seeding ${members} demo members`);
    await seedCopy(withReader, path.join(dir, "with"), members, options.seed ?? 20_240_101);
    fs.cpSync(path.join(dir, "with"), path.join(dir, "stock"), { recursive: true });
    engines.push(await startFerretdb(withReader, path.join(dir, "with")));
    engines.push(await startFerretdb(stockReader, path.join(dir, "stock")));
    const [withDb, stockDb] = engines.map((engine) => engine.client.db(DB_NAME));
    const documents = await withDb.collection("members").countDocuments({});
    const loadAverage = os.loadavg()[0];
    const queries: ReaderQueryGain[] = [];
    for (const { query, run } of QUERIES) {
      log(`timing ${query}`);
      const [withRuns, stockRuns] = await timeInTurns(run, withDb, stockDb, runs);
      const withReaderMs = median(withRuns);
      const stockReaderMs = median(stockRuns);
      queries.push({
        query,
        withReaderMs,
        stockReaderMs,
        gain: stockReaderMs / withReaderMs,
        withReaderRunsMs: withRuns,
        stockReaderRunsMs: stockRuns,
      });
    }
    return { members, documents, runs, cores: os.cpus().length, loadAverage, queries };
  } finally {
    await Promise.all(engines.map((engine) => engine.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Times `run` on both builds in turn (after one untimed run each), checking they answer alike:
 * the reader is only worth its speed if it reads what FerretDB's own reads.
 */
async function timeInTurns(
  run: (db: Db) => Promise<unknown>,
  withDb: Db,
  stockDb: Db,
  runs: number,
): Promise<[number[], number[]]> {
  const timed = async (db: Db) => {
    const start = process.hrtime.bigint();
    const answer = JSON.stringify(await run(db));
    return { ms: Number(process.hrtime.bigint() - start) / 1e6, answer };
  };
  const expected = (await timed(withDb)).answer;
  if ((await timed(stockDb)).answer !== expected)
    throw new Error("the two FerretDB builds answered the same query differently");
  const withRuns: number[] = [];
  const stockRuns: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    // Alternating which goes first, so a change in the machine's load falls on both alike.
    const order = index % 2 === 0 ? [withDb, stockDb] : [stockDb, withDb];
    for (const db of order) {
      const { ms, answer } = await timed(db);
      if (answer !== expected)
        throw new Error("the two FerretDB builds answered the same query differently");
      (db === withDb ? withRuns : stockRuns).push(ms);
    }
  }
  return [withRuns, stockRuns];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The project's own build (every patch), built first if this machine lacks it. */
async function projectFerretdb(log: (message: string) => void): Promise<string> {
  return findFerretdb() ?? installFerretdb(log);
}

/** The same build without the reader, kept under bench/.tools and rebuilt when the recipe changes. */
async function stockReaderFerretdb(log: (message: string) => void): Promise<string> {
  const target = path.join(projectRoot(), "bench", ".tools", "ferretdb-stock-reader");
  const recipe = ferretdbRecipe(["fast-reader"]);
  const stamp = `${target}.recipe`;
  const built = fs.existsSync(target) && fs.existsSync(stamp);
  if (built && fs.readFileSync(stamp, "utf8").trim() === recipe) return target;
  await buildFerretdb({ target, without: ["fast-reader"] }, log);
  fs.writeFileSync(stamp, `${recipe}\n`);
  return target;
}

async function seedCopy(binary: string, dataDir: string, members: number, seed: number) {
  const engine = await startFerretdb(binary, dataDir);
  try {
    const connection = await connectDatabase({ uri: engine.uri, dbName: DB_NAME });
    try {
      await seedDemo(connection, {
        members,
        seed,
        bcryptCost: 4,
        cipher: new FieldCipher(randomBytes(32)),
      });
    } finally {
      await connection.close();
    }
  } finally {
    await engine.stop();
  }
}

interface Ferretdb {
  uri: string;
  client: MongoClient;
  stop(): Promise<void>;
}

async function startFerretdb(binary: string, dataDir: string): Promise<Ferretdb> {
  for (const sub of ["sqlite", "state"]) fs.mkdirSync(path.join(dataDir, sub), { recursive: true });
  const port = await freePort();
  const log = fs.openSync(path.join(dataDir, "ferretdb.log"), "a");
  let child: ChildProcess;
  try {
    child = spawn(
      binary,
      [
        "--handler=sqlite",
        `--sqlite-url=file:${dataDir}/sqlite/`,
        `--listen-addr=127.0.0.1:${port}`,
        `--state-dir=${dataDir}/state`,
        "--telemetry=disable",
        `--debug-addr=127.0.0.1:${await freePort()}`,
        "--log-level=error",
      ],
      // The garbage collector setting the service runs its engine with (tools/dev-db/engine.ts).
      { stdio: ["ignore", log, log], env: { ...process.env, GOGC: process.env.GOGC ?? "400" } },
    );
  } finally {
    fs.closeSync(log);
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const uri = `mongodb://127.0.0.1:${port}/`;
  try {
    const client = await connectWhenUp(uri, child);
    return {
      uri,
      client,
      stop: async () => {
        await client.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function connectWhenUp(uri: string, child: ChildProcess): Promise<MongoClient> {
  for (let attempt = 0; ; attempt += 1) {
    const client = new MongoClient(uri, { directConnection: true, serverSelectionTimeoutMS: 500 });
    try {
      await client.db("admin").command({ ping: 1 });
      return client;
    } catch (error) {
      await client.close();
      if (attempt === 60 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** A section of docs/performance.md. */
export function renderReaderGain(result: ReaderGainResult): string {
  const time = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
  return [
    "## FerretDB's one-pass document reader",
    "",
    "One of the development FerretDB's speed patches is a one-pass reader of " +
      "stored documents (`fast-reader`, tools/dev-db/ferretdb-build.ts) that leaves anything it is " +
      "unsure of to FerretDB's own reader. tests/db/ferretdb-reader.test.ts holds the two to " +
      "the same answers (a differential test and a fuzz target). Its gain: the same queries " +
      "against two builds that differ only by that patch, each serving a copy of the same " +
      `${result.members} demo members (${result.documents} documents in \`members\`), ` +
      "both checked to answer alike. Each query reads every member record, as every member " +
      `list, search and count does on this engine. Median of ${result.runs} runs, the builds ` +
      `taking turns; ${result.cores} cores, load average ${result.loadAverage.toFixed(1)} ` +
      "when the timing began.",
    "",
    "| Query | with the reader | FerretDB's own reader | gain |",
    "| --- | ---: | ---: | ---: |",
    ...result.queries.map(
      (query) =>
        `| \`${query.query}\` | ${time(query.withReaderMs)} | ${time(query.stockReaderMs)} | ` +
        `${query.gain.toFixed(1)}x |`,
    ),
  ].join("\n");
}

if (require.main === module) {
  const [members, runs] = process.argv.slice(2).map(Number);
  measureReaderGain({
    members: members || undefined,
    runs: runs || undefined,
    log: (message) => console.error(message),
  }).then(
    (result) => console.log(`${renderReaderGain(result)}\n\n${JSON.stringify(result, null, 2)}`),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
