import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { Schema, type Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { ensureIndexes } from "../../src/db/indexes";

/*
 * Index upkeep at start (src/db/indexes.ts) on the suite's real engine: declared indexes are
 * built, undeclared ones dropped, and where the engine refuses TTL indexes (FerretDB) expired
 * documents are deleted by the service's own sweep.
 */

interface Lease {
  _id: string;
  holder: string;
  expiresAt: Date;
}

let connection: Connection;
const lines: string[] = [];
const log = pino(
  { level: "info" },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  }),
);

function leaseModel(withHolderIndex: boolean) {
  const schema = new Schema<Lease>(
    { _id: String, holder: String, expiresAt: Date },
    { versionKey: false },
  );
  schema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
  if (withHolderIndex) schema.index({ holder: 1, expiresAt: -1 });
  const name = `Lease${withHolderIndex ? "Indexed" : "Plain"}`;
  return connection.model<Lease>(name, schema, "leases");
}

beforeAll(async () => {
  connection = await connectDatabase({
    uri: process.env.TEST_MONGODB_URI!,
    dbName: `t_indexes_${randomBytes(3).toString("hex")}`,
  });
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

const keysOf = async () =>
  (await connection.collection("leases").indexes()).map((index) => index.key).sort();

it("builds the declared indexes and drops the ones no longer declared", async () => {
  const indexed = leaseModel(true);
  const first = await ensureIndexes([indexed], log);
  first.stop();
  expect(await keysOf()).toEqual(
    expect.arrayContaining([{ _id: 1 }, { expiresAt: 1 }, { holder: 1, expiresAt: -1 }]),
  );

  const maintenance = await ensureIndexes([leaseModel(false)], log);
  maintenance.stop();
  const keys = await keysOf();
  expect(keys).toHaveLength(2);
  expect(keys).toEqual(expect.arrayContaining([{ _id: 1 }, { expiresAt: 1 }]));
});

it("deletes expired documents itself where the engine has no TTL index, and says so once", async () => {
  const leases = leaseModel(false);
  lines.length = 0;
  const maintenance = await ensureIndexes([leases], log);
  maintenance.stop();
  const ttl = (await connection.collection("leases").indexes()).find(
    (index) => index.key.expiresAt === 1,
  );
  if (ttl?.expireAfterSeconds !== undefined) {
    // A MongoDB server built the TTL index: it expires documents itself, nothing to sweep.
    expect(maintenance.sweptCollections).toEqual([]);
    return;
  }
  expect(maintenance.sweptCollections).toEqual(["leases"]);
  expect(lines.filter((line) => line.includes("deletes expired documents itself"))).toHaveLength(1);

  const now = Date.now();
  await leases.insertMany([
    { _id: "gone", holder: "a", expiresAt: new Date(now - 1000) },
    { _id: "kept", holder: "b", expiresAt: new Date(now + 60_000) },
  ]);
  await maintenance.sweep();
  const left = await leases.find({}, { _id: 1 }).lean();
  expect(left.map((lease) => lease._id)).toEqual(["kept"]);
});
