/**
 * The README's order: `npm start` in one terminal, then `npm run seed:demo` in another, with no
 * MONGODB_URI. The data folder's development database is already run by the first launcher;
 * the seed writes into that database instead of refusing, and leaves it running.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { MongoClient } from "mongodb";
import { startEngine, type DevEngine } from "../../tools/dev-db/engine";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const DB_NAME = "t_seed_beside";

let dataDir: string;
let engine: DevEngine;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-beside-"));
  // This process plays `npm start`: it holds the folder's lock and runs its engine.
  engine = await startEngine({ dataDir, log: () => undefined });
}, 120_000);

afterAll(async () => {
  await engine?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

it("seeds the database the running launcher serves, and leaves it running", async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DB_NAME,
    BCRYPT_COST: "4",
    LOG_LEVEL: "silent",
  };
  delete env.MONGODB_URI;
  // The command itself, as the README gives it (its build step finds dist/ fresh).
  const { stdout } = await run("npm", ["run", "--silent", "seed:demo", "--", "12"], {
    cwd: ROOT,
    env,
  });
  expect(stdout).toMatch(/seeded 12 members/);
  // Beside the 12, the demo's people part-way through onboarding or certified, as it reports.
  const people = Number(/(\d+) members part-way through onboarding or certified/.exec(stdout)?.[1]);
  expect(people).toBeGreaterThan(0);

  const client = await MongoClient.connect(engine.uri, { directConnection: true });
  try {
    expect(await client.db(DB_NAME).collection("members").countDocuments()).toBe(12 + people);
  } finally {
    await client.close();
  }
}, 180_000);
