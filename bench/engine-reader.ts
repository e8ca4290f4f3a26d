/**
 * `--only=reader`: what the development engine's one speed-only patch (`fast-reader`, the
 * one-pass reader of stored documents; tools/dev-db/ferretdb-patches.ts) gains. The queries a
 * member list, a sign-in and the directory's count send, which this engine answers by reading
 * every record, against the project's FerretDB and one built without that patch, each serving a
 * copy of the target count's demo database; in turns, and checked to answer alike.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, type Db } from "mongodb";
import { clientOptionsFor } from "../src/db/connection";
import { startEngine } from "../tools/dev-db/engine";
import { buildFerretdb, devDbCacheDir, ferretdbRecipe } from "../tools/dev-db/ferretdb-build";
import { databaseOf } from "./dataset";
import { inTurns } from "./load";
import { log, type BenchOptions } from "./options";
import { median } from "./report-sections";

const QUERIES: Record<string, (db: Db) => Promise<unknown>> = {
  "members.find({archivedAt: null}).sort({createdAt: -1}).limit(10)": (db) =>
    db.collection("members").find({ archivedAt: null }).sort({ createdAt: -1 }).limit(10).toArray(),
  'users.findOne({email: "…"})': (db) =>
    db.collection("users").findOne({ email: "no.one@example.org" }),
  'members.countDocuments({status: "APPROVED", archivedAt: null})': (db) =>
    db.collection("members").countDocuments({ status: "APPROVED", archivedAt: null }),
};

/** The build without the reader, in the machine's cache under its own recipe. */
async function stockReader(): Promise<string> {
  const target = path.join(devDbCacheDir(), ferretdbRecipe(["fast-reader"]), "ferretdb");
  if (!fs.existsSync(target)) await buildFerretdb({ target, without: ["fast-reader"] }, log);
  return target;
}

export async function measureReaderGain(options: BenchOptions, turns = 6): Promise<void> {
  const name = databaseOf(options.targetSize);
  const from = path.join(options.dataDir, "ferretdb", "sqlite");
  if (!fs.existsSync(path.join(from, `${name}.sqlite`))) {
    throw new Error(`no ${name} in ${from}: a full run or --only=members seeds it`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-reader-"));
  const engines = [];
  try {
    // The project's build (with the reader), then FerretDB's own reader.
    for (const ferretdb of [undefined, await stockReader()]) {
      const dataDir = path.join(dir, String(engines.length));
      const to = path.join(dataDir, "ferretdb", "sqlite");
      fs.mkdirSync(to, { recursive: true });
      for (const file of fs.readdirSync(from).filter((file) => file.startsWith(`${name}.`))) {
        fs.copyFileSync(path.join(from, file), path.join(to, file));
      }
      const engine = await startEngine({ dataDir, log, ferretdb });
      const client = await MongoClient.connect(engine.uri, clientOptionsFor(engine.uri));
      engines.push({ engine, client, db: client.db(name), ms: [] as number[] });
    }
    for (const [query, run] of Object.entries(QUERIES)) {
      const answers = new Set<string>();
      for (const one of engines) one.ms = [];
      // The first turn warms each engine's cache and is not counted.
      await inTurns(engines, turns + 1, async (one, turn) => {
        const started = performance.now();
        answers.add(JSON.stringify(await run(one.db)));
        if (turn > 0) one.ms.push(performance.now() - started);
      });
      if (answers.size !== 1) throw new Error(`the two builds answered ${query} differently`);
      const [patched, stock] = engines.map((one) => median(one.ms));
      log(
        `${query} at ${options.targetSize} members: ${Math.round(patched)} ms with the reader, ` +
          `${Math.round(stock)} ms without (${(stock / patched).toFixed(1)} ×; medians of ${turns} turns)`,
      );
    }
  } finally {
    for (const one of engines) {
      await one.client.close();
      await one.engine.stop();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
