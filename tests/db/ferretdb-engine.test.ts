/**
 * The embedded engine finds records by primary key through its index. FerretDB v1.24.2 as
 * released scans the whole table instead (see PATCHES in src/db/ferretdb-install.ts).
 */
import { randomBytes } from "node:crypto";
import type { Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";

let connection: Connection;

beforeAll(async () => {
  connection = await connectDatabase({
    uri: process.env.TEST_MONGODB_URI!,
    dbName: `t_engine_${randomBytes(3).toString("hex")}`,
  });
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

test("a primary-key lookup uses the _id index", async () => {
  const db = connection.db!;
  await db
    .collection("lookups")
    .insertMany(
      Array.from({ length: 50 }, (_, index) => ({ _id: `key-${index}` as never, n: index })),
    );
  const buildInfo = await db.command({ buildInfo: 1 });
  const explained = await db.command({
    explain: { find: "lookups", filter: { _id: "key-42" }, limit: 1 },
    verbosity: "queryPlanner",
  });
  const plan = JSON.stringify(explained.queryPlanner);
  if (buildInfo.ferretdbVersion) {
    // SQLite's own plan, as FerretDB reports it.
    expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
    expect(plan).not.toMatch(/\bSCAN\b/);
  } else {
    expect(plan).toMatch(/IDHACK|EXPRESS_IXSCAN|IXSCAN/);
  }
  const found = await db.collection("lookups").findOne({ _id: "key-42" as never });
  expect(found?.n).toBe(42);
});
