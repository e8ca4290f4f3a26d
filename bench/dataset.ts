import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import { MongoClient, type Db } from "mongodb";
import type { Connection } from "mongoose";
import { clientOptionsFor } from "../src/db/connection";
import { uuidv7 } from "../src/db/uuid";
import { createUserModel } from "../src/modules/users/user.model";
import { COMPILED } from "../tests/support/service-build";
import { log } from "./options";

/** Bump when the seed's shape changes, so an old benchmark database is seeded again. */
const DATASET_VERSION = 7;
export const BENCH_PASSWORD = "Bench#Applicant1";
/** The benchmark databases' data key (demo data only): the seed seals, the service opens. */
export const BENCH_DATA_KEY = Buffer.alloc(32, 7).toString("base64");
/** Where the applicants a run creates get their addresses, so the next run can remove them. */
const APPLICANT_DOMAIN = "bench.example.org";

type Seed = (db: Db) => Promise<void>;

/** Each member count has a database of its own in the one engine of a run. */
export const databaseOf = (members: number) => `bench-${members}`;

/**
 * The demo data (`npm run seed:demo`) of each member count, seeded once and reused while its
 * marker matches; bcrypt cost 12, as production's, so sign-ins cost what they cost there.
 */
export async function ensureDatasets(uri: string, dataDir: string, sizes: readonly number[]) {
  for (const members of sizes) {
    const markerFile = path.join(dataDir, `${databaseOf(members)}.json`);
    const marker = JSON.stringify({ version: DATASET_VERSION, members });
    if (fs.existsSync(markerFile) && fs.readFileSync(markerFile, "utf8") === marker) continue;
    log(`seeding ${members} demo members into ${databaseOf(members)} (once; reused later)`);
    const started = Date.now();
    const args = [COMPILED.seedDemo, String(members), "--fresh", "--members-only"];
    const seed = spawn(process.execPath, args, {
      cwd: path.join(__dirname, ".."),
      env: {
        ...process.env,
        MONGODB_URI: uri,
        DATA_DIR: dataDir,
        DB_NAME: databaseOf(members),
        BCRYPT_COST: "12",
        DATA_KEY: BENCH_DATA_KEY,
        NODE_ENV: "development",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const code = await new Promise((resolve) => seed.once("exit", resolve));
    if (code !== 0) throw new Error(`seeding ${members} members exited with ${String(code)}`);
    log(`seeded ${databaseOf(members)} in ${Math.round((Date.now() - started) / 1000)} s`);
    fs.writeFileSync(markerFile, marker);
  }
}

/**
 * Removes what an earlier run left (its applicants, every session: the seed has none), then
 * writes what `seeds` add to the demo data.
 */
export async function resetDatabase(uri: string, members: number, seeds: Iterable<Seed>) {
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
    for (const seed of seeds) await seed(db);
  } finally {
    await client.close();
  }
}

/**
 * Verified accounts without an application, written directly (registering through the API needs
 * a mailed code), at bcrypt cost 4: each signs in once.
 */
export async function createApplicants(connection: Connection, count: number): Promise<string[]> {
  const passwordHash = await bcrypt.hash(BENCH_PASSWORD, 4);
  const run = Date.now().toString(36);
  const records = Array.from({ length: count }, (_, index) => ({
    _id: uuidv7(),
    name: `Bench Applicant ${index}`,
    email: `applicant.${run}.${index}@${APPLICANT_DOMAIN}`,
    passwordHash,
    isEmailVerified: true,
  }));
  await createUserModel(connection).insertMany(records);
  return records.map((record) => record.email);
}
