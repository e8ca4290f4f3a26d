import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import { MongoClient } from "mongodb";
import type { Connection } from "mongoose";
import { clientOptionsFor } from "../src/db/connection";
import { uuidv7 } from "../src/db/uuid";
import { createUserModel } from "../src/modules/users/user.model";

/** Bump when the seed's shape changes, so an old benchmark database is seeded again. */
const DATASET_VERSION = 7;
export const BENCH_PASSWORD = "Bench#Applicant1";
/** The benchmark databases' data key (demo data only): the seed seals with it, the service opens. */
export const BENCH_DATA_KEY = Buffer.alloc(32, 7).toString("base64");
/** Where the applicants a run creates get their addresses, so the next run can remove them. */
const APPLICANT_DOMAIN = "bench.example.org";

/** Each member count has a database of its own in the one engine of a run. */
export const databaseOf = (members: number) => `bench-${members}`;

interface Marker {
  version: number;
  members: number;
}

/**
 * The demo data (`npm run seed:demo`) of each member count, each in its own database of the
 * engine at `uri` (whose files are in `dataDir`), seeded once and reused while its marker
 * matches. Demo accounts get bcrypt cost 12, as production would, so sign-ins cost what they
 * cost there.
 */
export async function ensureDatasets(
  uri: string,
  dataDir: string,
  sizes: readonly number[],
  log: (line: string) => void,
): Promise<void> {
  for (const members of sizes) {
    const markerFile = path.join(dataDir, `${databaseOf(members)}.json`);
    const wanted: Marker = { version: DATASET_VERSION, members };
    if (fs.existsSync(markerFile)) {
      const found = JSON.parse(fs.readFileSync(markerFile, "utf8")) as Marker;
      if (found.version === wanted.version && found.members === members) continue;
    }
    log(`seeding ${members} demo members into ${databaseOf(members)} (once; reused later)`);
    const started = Date.now();
    await run(
      process.execPath,
      [
        "-r",
        "ts-node/register/transpile-only",
        "scripts/seed-demo.ts",
        String(members),
        "--fresh",
        "--members-only",
      ],
      {
        MONGODB_URI: uri,
        DATA_DIR: dataDir,
        DB_NAME: databaseOf(members),
        BCRYPT_COST: "12",
        DATA_KEY: BENCH_DATA_KEY,
        NODE_ENV: "development",
        LOG_LEVEL: "warn",
      },
    );
    log(`seeded ${databaseOf(members)} in ${Math.round((Date.now() - started) / 1000)} s`);
    fs.writeFileSync(markerFile, JSON.stringify(wanted));
  }
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
 * What an earlier run left in a kept database: its applicants (accounts and their records) and
 * every session (the demo data has none), so each run starts from the seeded data.
 */
export async function removeRunLeftovers(uri: string, members: number): Promise<void> {
  const client = await MongoClient.connect(uri, clientOptionsFor(uri));
  try {
    const db = client.db(databaseOf(members));
    const users = db.collection<{ _id: string; email: string }>("users");
    const pattern = `@${APPLICANT_DOMAIN.replace(/\./g, "\\.")}$`;
    const applicants = await users
      .find({ email: { $regex: pattern } }, { projection: { _id: 1 } })
      .toArray();
    const ids = applicants.map((applicant) => applicant._id);
    if (ids.length > 0) {
      await db.collection<{ userId: string }>("members").deleteMany({ userId: { $in: ids } });
      await users.deleteMany({ _id: { $in: ids } });
    }
    await db.collection("sessions").deleteMany({});
  } finally {
    await client.close();
  }
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
    email: `applicant.${run}.${index}@${APPLICANT_DOMAIN}`,
    passwordHash,
    isEmailVerified: true,
  }));
  await users.insertMany(records);
  return records.map((record) => record.email);
}
