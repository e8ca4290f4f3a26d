/**
 * The embedded engine finds records by primary key, one or a list of them, through its index.
 * FerretDB v1.24.2 as released scans the whole table instead (see PATCHES in
 * src/db/ferretdb-install.ts). It also reads stored documents with a reader of our own
 * (ferretdb-patches/sjson_fast.go), which must give back exactly what was written, and runs
 * write commands one at a time (ferretdb-patches/write_lock.go), so that concurrent writes to
 * one document all land, as on MongoDB.
 */
import { randomBytes } from "node:crypto";
import { Binary, BSON, BSONRegExp, Double, Int32, Long, ObjectId, Timestamp } from "mongodb";
import { Schema, type Connection } from "mongoose";
import { findByIds } from "../../src/db/by-ids";
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

test("a list of primary keys is read through the _id index, and only exactly those match", async () => {
  const db = connection.db!;
  const lookups = db.collection<{ _id: string; n: number }>("listed");
  await lookups.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `key-${n}`, n })));
  const buildInfo = await db.command({ buildInfo: 1 });
  const explained = await db.command({
    explain: { find: "listed", filter: { _id: { $in: ["key-7", "key-42", "gone"] } } },
    verbosity: "queryPlanner",
  });
  if (buildInfo.ferretdbVersion) {
    expect(explained.filterPushdown).toBe(true);
    expect(JSON.stringify(explained.queryPlanner)).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
  }
  const numbers = async (filter: object) =>
    (await lookups.find(filter).toArray()).map((doc) => doc.n).sort((a, b) => a - b);
  expect(await numbers({ _id: { $in: ["key-42", "key-7", "gone"] } })).toEqual([7, 42]);
  // Narrowing never decides what matches: the rest of the filter still applies...
  expect(await numbers({ _id: { $in: ["key-42", "key-7"], $nin: ["key-7"] } })).toEqual([42]);
  // ...and a list that cannot be narrowed (a number among the strings) is read in full.
  expect(await numbers({ _id: { $in: ["key-3", 3] } })).toEqual([3]);
  expect(await numbers({ _id: { $in: [] } })).toEqual([]);
});

test("findByIds answers in the order asked, without the missing ones", async () => {
  const model = connection.model<{ _id: string; n: number }>(
    "Ordered",
    new Schema({ _id: String, n: Number }),
  );
  await model.insertMany(Array.from({ length: 30 }, (_, n) => ({ _id: `o-${n}`, n })));
  const found = await findByIds(model, ["o-20", "gone", "o-3", "o-11"], { n: 1 });
  expect(found.map((record) => [record._id, record.n])).toEqual([
    ["o-20", 20],
    ["o-3", 3],
    ["o-11", 11],
  ]);
  expect(await findByIds(model, [])).toEqual([]);
});

test("stored documents read back exactly as written, every type and awkward text included", async () => {
  const awkward = [
    "",
    "plain",
    'quote " and backslash \\',
    "<b>&amp;</b>",
    "line\nbreak\ttab\u0001",
    "Peñaflor, Dasmariñas",
    "日本語 😀 \u2028",
  ];
  const record = (n: number) => ({
    _id: `doc-${n}`,
    texts: awkward,
    text: awkward[n % awkward.length],
    double: new Double(n + 0.5),
    whole: new Double(2),
    huge: new Double(1.7976931348623157e308),
    int: new Int32(-2147483648 + n),
    long: Long.fromString("9007199254740993"),
    when: new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999) + n),
    flags: [true, false],
    nothing: null,
    oid: new ObjectId("64b7f0c2a1b2c3d4e5f60718"),
    bytes: new Binary(Buffer.from([0, 1, 2, 254, 255, n]), 0),
    uuid: new Binary(Buffer.alloc(16, n), 4),
    empty: { doc: {}, list: [] },
    nested: { a: [{ b: [1, "two", { c: null }] }, new Int32(3)], 'key with "quote"': "x" },
    pattern: new BSONRegExp("^a.c\\d$", "im"),
    stamp: new Timestamp({ t: 1_700_000_000, i: n + 1 }),
    // The engine writes a top-level key unescaped but its schema's copy escaped, which our
    // reader leaves to FerretDB's own: one document takes that path, the rest ours.
    ...(n === 0 ? { "<angle & amp>": "top-level key that JSON escapes" } : {}),
  });
  const written = Array.from({ length: 5 }, (_, n) => record(n));
  const collection = connection.db!.collection<{ _id: string }>("roundtrip");
  await collection.insertMany(written);
  const canonical = (value: unknown) => BSON.EJSON.stringify(value, { relaxed: false });
  // Unpromoted, so a whole-number double must come back a double, not just the same number.
  const options = { promoteValues: false };
  const byKey = await Promise.all(
    written.map((doc) => collection.findOne({ _id: doc._id }, options)),
  );
  expect(byKey.map(canonical)).toEqual(written.map(canonical));
  const listed = await collection
    .find({ _id: { $in: written.map((doc) => doc._id) } }, options)
    .toArray();
  expect(listed.map(canonical).sort()).toEqual(written.map(canonical).sort());
});

test("concurrent writes to one document all land", async () => {
  const collection = connection.db!.collection<{
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
