import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { Schema, type Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { ensureIndexes } from "../../src/db/indexes";

/*
 * Index upkeep at start (src/db/indexes.ts) on the suite's real engine: declared indexes are
 * built, undeclared ones dropped, and where the engine refuses TTL indexes (FerretDB) the field
 * still gets its index.
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
  await connection?.close();
});

const keysOf = async () =>
  (await connection.collection("leases").indexes()).map((index) => index.key).sort();

it("builds the declared indexes and drops the ones no longer declared", async () => {
  const indexed = leaseModel(true);
  await ensureIndexes([indexed], log);
  expect(await keysOf()).toEqual(
    expect.arrayContaining([{ _id: 1 }, { expiresAt: 1 }, { holder: 1, expiresAt: -1 }]),
  );

  await ensureIndexes([leaseModel(false)], log);
  const keys = await keysOf();
  expect(keys).toHaveLength(2);
  expect(keys).toEqual(expect.arrayContaining([{ _id: 1 }, { expiresAt: 1 }]));
});

it("indexes a TTL field where the engine has no TTL index, and says so once", async () => {
  lines.length = 0;
  await ensureIndexes([leaseModel(false)], log);
  const ttl = (await connection.collection("leases").indexes()).find(
    (index) => index.key.expiresAt === 1,
  );
  expect(ttl).toBeDefined();
  const said = lines.filter((line) => line.includes("has no TTL indexes"));
  // MongoDB builds the TTL index itself; FerretDB gets a plain one, and the log says so.
  expect(said).toHaveLength(ttl?.expireAfterSeconds === undefined ? 1 : 0);
});
