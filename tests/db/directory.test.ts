/**
 * The change feed and the directory on the real engine: gapless numbering under concurrent
 * writers, writes that never say "done", bulk changes and failed writes.
 */
import { randomBytes } from "node:crypto";
import type { Collection, Connection } from "mongoose";
import { ChangeFeed } from "../../src/db/change-feed";
import { connectDatabase } from "../../src/db/connection";
import { Directory } from "../../src/db/directory";

interface Thing {
  id: string;
  label: string;
}

let connection: Connection;
let things: Collection<{ _id: string; label: string }>;

beforeAll(async () => {
  connection = await connectDatabase({
    uri: process.env.TEST_MONGODB_URI!,
    dbName: `t_directory_${randomBytes(3).toString("hex")}`,
  });
  things = connection.collection("things");
});
afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

/** One "instance": its own feed reader and directory over the shared collection. */
function instance(feedName: string, settleMs = 60_000) {
  return new Directory<Thing>({
    feed: new ChangeFeed(connection, feedName),
    compare: (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    settleMs,
    source: {
      loadAll: async function* () {
        for await (const doc of things.find({})) yield { id: doc._id, label: doc.label };
      },
      loadOne: async (id) => {
        const doc = await things.findOne({ _id: id });
        return doc ? { id: doc._id, label: doc.label } : null;
      },
    },
  });
}

const labels = (entries: readonly Thing[]) => entries.map((entry) => `${entry.id}=${entry.label}`);

test("appends from several writers at once get consecutive numbers, none twice", async () => {
  const writers = [new ChangeFeed(connection, "numbers"), new ChangeFeed(connection, "numbers")];
  const seqs = await Promise.all(
    Array.from({ length: 30 }, (_, index) => writers[index % 2].append("done", `r${index}`)),
  );
  expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(await new ChangeFeed(connection, "numbers").head()).toBe(30);
});

test("a write through one instance is in the other's entries, in order", async () => {
  const feed = `coherent-${randomBytes(2).toString("hex")}`;
  const writer = instance(feed);
  const reader = instance(feed);
  expect(await reader.entries()).toEqual([]);

  await writer.write("b", () => things.insertOne({ _id: "b", label: "second" }));
  await writer.write("a", () => things.insertOne({ _id: "a", label: "first" }));
  expect(labels(await reader.entries())).toEqual(["a=first", "b=second"]);

  await writer.write("a", () => things.updateOne({ _id: "a" }, { $set: { label: "changed" } }));
  await writer.write("b", () => things.deleteOne({ _id: "b" }));
  expect(labels(await reader.entries())).toEqual(["a=changed"]);
  expect(labels(await writer.entries())).toEqual(["a=changed"]);
  await things.deleteMany({});
});

test("a write that was announced but never said done is read again after the settle time", async () => {
  const feed = `unsettled-${randomBytes(2).toString("hex")}`;
  const reader = instance(feed, 300);
  expect(await reader.entries()).toEqual([]);

  // A writer that died between its write and its "done".
  await new ChangeFeed(connection, feed).append("intent", "orphan");
  await things.insertOne({ _id: "orphan", label: "landed" });
  expect(await reader.entries()).toEqual([]);

  await new Promise((resolve) => setTimeout(resolve, 350));
  expect(labels(await reader.entries())).toEqual(["orphan=landed"]);
  await things.deleteMany({});
});

test("a bulk change makes every instance read everything again", async () => {
  const feed = `bulk-${randomBytes(2).toString("hex")}`;
  const reader = instance(feed);
  expect(await reader.entries()).toEqual([]);

  await things.insertMany([
    { _id: "x", label: "seeded" },
    { _id: "y", label: "seeded" },
  ]);
  expect(await reader.entries()).toEqual([]);
  await instance(feed).bulkChanged();
  expect(labels(await reader.entries())).toEqual(["x=seeded", "y=seeded"]);
  await things.deleteMany({});
});

test("a failed write passes its error on and leaves the directory as the data is", async () => {
  const feed = `failing-${randomBytes(2).toString("hex")}`;
  const writer = instance(feed);
  await writer.write("k", () => things.insertOne({ _id: "k", label: "kept" }));

  await expect(
    writer.write("k", () => things.insertOne({ _id: "k", label: "duplicate" })),
  ).rejects.toMatchObject({ code: 11000 });
  expect(labels(await writer.entries())).toEqual(["k=kept"]);
  expect(labels(await instance(feed).entries())).toEqual(["k=kept"]);
  await things.deleteMany({});
});
