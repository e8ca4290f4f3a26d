import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import type { Connection } from "mongoose";
import { uuidv7 } from "../src/db/uuid";
import { createUserModel } from "../src/modules/users/user.model";

/** Bump when the seed's shape changes, so an old benchmark database is seeded again. */
const DATASET_VERSION = 3;
export const BENCH_DB = "bench";
export const BENCH_PASSWORD = "Bench#Applicant1";
/** The benchmark database's data key (demo data only): the seed seals with it, the service opens. */
export const BENCH_DATA_KEY = Buffer.alloc(32, 7).toString("base64");

interface Marker {
  version: number;
  members: number;
}

/**
 * The demo data (`npm run seed:demo`) in `dataDir`, seeded once and reused while its marker
 * matches. Demo accounts get bcrypt cost 12, as production would, so sign-ins cost what they
 * cost there.
 */
export async function ensureDataset(
  dataDir: string,
  members: number,
  log: (line: string) => void,
): Promise<void> {
  const markerFile = path.join(dataDir, "bench-dataset.json");
  const wanted: Marker = { version: DATASET_VERSION, members };
  if (fs.existsSync(markerFile)) {
    const found = JSON.parse(fs.readFileSync(markerFile, "utf8")) as Marker;
    if (found.version === wanted.version && found.members === members) return;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  log(`seeding ${members} demo members into ${dataDir} (once; reused by later runs)`);
  await run(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "scripts/seed-demo.ts", String(members), "--fresh"],
    {
      DATA_DIR: dataDir,
      DB_NAME: BENCH_DB,
      BCRYPT_COST: "12",
      DATA_KEY: BENCH_DATA_KEY,
      NODE_ENV: "development",
      LOG_LEVEL: "warn",
    },
  );
  fs.writeFileSync(markerFile, JSON.stringify(wanted));
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: path.join(__dirname, ".."),
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited with ${code}`)),
    );
  });
}

/**
 * Verified accounts without an application, one per POST /members/apply of the run, written
 * directly because registering each through the API would need its
 * mailed code. Their password hash is cost 4: the benchmark signs each in once.
 */
export async function createApplicants(connection: Connection, count: number): Promise<string[]> {
  const users = createUserModel(connection);
  const passwordHash = await bcrypt.hash(BENCH_PASSWORD, 4);
  const run = Date.now().toString(36);
  const records = Array.from({ length: count }, (_, index) => ({
    _id: uuidv7(),
    name: `Bench Applicant ${index}`,
    email: `applicant.${run}.${index}@bench.example.org`,
    passwordHash,
    isEmailVerified: true,
  }));
  await users.insertMany(records);
  return records.map((record) => record.email);
}
