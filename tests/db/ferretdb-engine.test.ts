/**
 * What the data layer relies on from its database engine, and what the embedded FerretDB
 * v1.24.2 is patched for (tools/dev-db/ferretdb-patches.ts, tools/dev-db/ferretdb/): reads by `_id` (one,
 * a list, or beside a precondition) go through the `_id` index, and a conditional update is
 * atomic, and an update that breaks a unique index fails with MongoDB's code 11000. On MongoDB
 * all of this holds as released. Each FerretDB patch has a test here that fails without it; to
 * see it fail, build and serve FerretDB without that patch (id-index, id-pushdown, write-lock,
 * duplicate-key; `all` for FerretDB as released) and run this file against it:
 *
 *   npx ts-node --transpile-only tools/dev-db/ferretdb-without.ts write-lock tests/db/ferretdb-engine
 */
import { randomBytes } from "node:crypto";
import { MongoClient, type Db, type Document } from "mongodb";

let client: MongoClient;
let db: Db;
let ferretdb: boolean;

beforeAll(async () => {
  // Connections opened beforehand, so that the racing writes below really run at once.
  client = new MongoClient(process.env.TEST_MONGODB_URI!, {
    directConnection: true,
    minPoolSize: 20,
  });
  db = client.db(`t_engine_${randomBytes(3).toString("hex")}`);
  ferretdb = Boolean((await db.command({ buildInfo: 1 })).ferretdbVersion);
  await db
    .collection<{ _id: string; n: number }>("keyed")
    .insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `key-${n}`, n })));
});
afterAll(async () => {
  await db.dropDatabase();
  await client?.close();
});

/** How the engine plans a find; FerretDB reports SQLite's own plan. */
async function planOf(filter: Document): Promise<{ plan: string; filterPushdown?: boolean }> {
  const explained = await db.command({
    explain: { find: "keyed", filter },
    verbosity: "queryPlanner",
  });
  return {
    plan: JSON.stringify(explained.queryPlanner),
    filterPushdown: explained.filterPushdown as boolean | undefined,
  };
}

function expectIdIndex(plan: string): void {
  if (ferretdb) {
    expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
    expect(plan).not.toMatch(/\bSCAN\b/);
  } else {
    expect(plan).toMatch(/IDHACK|EXPRESS_IXSCAN|IXSCAN/);
    expect(plan).not.toMatch(/COLLSCAN/);
  }
}

async function numbers(filter: Document): Promise<number[]> {
  const found = await db.collection<{ n: number }>("keyed").find(filter).toArray();
  return found.map((doc) => doc.n).sort((a, b) => a - b);
}

// id-index
test("a read by _id goes through the _id index", async () => {
  expectIdIndex((await planOf({ _id: "key-42" })).plan);
  expect(await numbers({ _id: "key-42" })).toEqual([42]);
});

// id-pushdown (and id-index)
test("a list of ids goes through the _id index, and only exactly those match", async () => {
  const { plan, filterPushdown } = await planOf({ _id: { $in: ["key-7", "key-42", "gone"] } });
  expectIdIndex(plan);
  if (ferretdb) expect(filterPushdown).toBe(true);
  expect(await numbers({ _id: { $in: ["key-42", "key-7", "gone"] } })).toEqual([7, 42]);
  // Narrowing never decides what matches: the rest of the filter still applies...
  expect(await numbers({ _id: { $in: ["key-42", "key-7"], $nin: ["key-7"] } })).toEqual([42]);
  // ...and a list that cannot be narrowed (a number among the strings) is read in full.
  expect(await numbers({ _id: { $in: ["key-3", 3] } })).toEqual([3]);
  expect(await numbers({ _id: { $in: [] } })).toEqual([]);
});

// id-pushdown (and id-index)
test("an _id beside a precondition goes through the _id index, and the precondition applies", async () => {
  expectIdIndex((await planOf({ _id: "key-5", n: { $lt: 10 } })).plan);
  expectIdIndex((await planOf({ _id: { $in: ["key-5", "key-6"] }, n: 6 })).plan);
  expect(await numbers({ _id: "key-5", n: { $lt: 10 } })).toEqual([5]);
  expect(await numbers({ _id: "key-5", n: { $gt: 10 } })).toEqual([]);
  expect(await numbers({ _id: { $in: ["key-5", "key-6"] }, n: 6 })).toEqual([6]);
});

// write-lock
test("of racing conditional updates to one document, exactly one succeeds", async () => {
  const collection = db.collection<{ _id: string; n: number }>("claimed");
  for (let round = 0; round < 10; round += 1) {
    const _id = `claim-${round}`;
    await collection.insertOne({ _id, n: 0 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        collection.findOneAndUpdate({ _id, n: 0 }, { $inc: { n: 1 } }),
      ),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect((await collection.findOne({ _id }))?.n).toBe(1);
  }
});

// write-lock
test("racing capped increments stop exactly at the cap", async () => {
  const collection = db.collection<{ _id: string; n: number }>("capped");
  for (let round = 0; round < 10; round += 1) {
    const _id = `cap-${round}`;
    await collection.insertOne({ _id, n: 0 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        collection.updateOne({ _id, n: { $lt: 5 } }, { $inc: { n: 1 } }),
      ),
    );
    expect(results.reduce((sum, result) => sum + result.modifiedCount, 0)).toBe(5);
    expect((await collection.findOne({ _id }))?.n).toBe(5);
  }
});

// write-lock
test("racing writes to one document all land", async () => {
  const collection = db.collection<{
    _id: string;
    count: number;
    seen: number[];
    flags: Record<string, boolean>;
  }>("concurrent");
  await collection.insertOne({ _id: "one", count: 0, seen: [], flags: {} });
  const writers = Array.from({ length: 10 }, (_, n) => [
    collection.updateOne({ _id: "one" }, { $inc: { count: 1 } }),
    collection.findOneAndUpdate({ _id: "one" }, { $push: { seen: n } }),
    collection.updateOne({ _id: "one" }, { $set: { [`flags.f${n}`]: true } }),
  ]);
  await Promise.all(writers.flat());
  const stored = await collection.findOne({ _id: "one" });
  expect(stored?.count).toBe(10);
  expect([...stored!.seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(Object.keys(stored!.flags).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `f${n}`));
});

// duplicate-key
test("an update that breaks a unique index fails with E11000, as an insert does", async () => {
  const collection = db.collection<{ _id: string; email: string }>("unique");
  await collection.createIndex({ email: 1 }, { unique: true });
  await collection.insertMany([
    { _id: "a", email: "a@example.org" },
    { _id: "b", email: "b@example.org" },
  ]);
  const taken = { $set: { email: "a@example.org" } };
  await expect(collection.insertOne({ _id: "c", email: "a@example.org" })).rejects.toMatchObject({
    code: 11000,
  });
  await expect(collection.updateOne({ _id: "b" }, taken)).rejects.toMatchObject({ code: 11000 });
  await expect(collection.findOneAndUpdate({ _id: "b" }, taken)).rejects.toMatchObject({
    code: 11000,
  });
  expect((await collection.findOne({ _id: "b" }))?.email).toBe("b@example.org");
});
