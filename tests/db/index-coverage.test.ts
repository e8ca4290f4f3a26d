import { Schema } from "mongoose";
import {
  describeUnserved,
  queriesOf,
  servingOf,
  shapeOf,
  unservedQueries,
  type DeclaredIndex,
  type MonitoredCommand,
} from "../support/index-coverage";
import { startTestApp, startTwoInstances, type TestApp } from "../support/test-app";

const INDEXES = new Map<string, DeclaredIndex[]>([
  [
    "members",
    [
      { key: { status: 1, archivedAt: 1, createdAt: -1, _id: -1 } },
      { key: { createdAt: -1, _id: -1, searchText: 1 } },
      { key: { userId: 1 } },
      { key: { openKey: 1 }, options: { unique: true } },
      { key: { "address.city": 1 } },
      { key: { email: 1 }, options: { partialFilterExpression: { email: { $type: "string" } } } },
      { key: { nickname: 1 }, options: { sparse: true } },
    ],
  ],
  ["offices", [{ key: { branch: 1, createdAt: -1 } }, { key: { notes: "text" } }]],
]);

type Doc = Record<string, unknown>;

function find(filter: Doc, sort?: Doc, collection = "members"): MonitoredCommand {
  // The driver sends sorts as Maps.
  const command: Doc = { find: collection, filter };
  if (sort) command.sort = new Map(Object.entries(sort));
  return { commandName: "find", command };
}

function aggregate(pipeline: Doc[], collection = "members"): MonitoredCommand {
  return { commandName: "aggregate", command: { aggregate: collection, pipeline, cursor: {} } };
}

function served(command: MonitoredCommand): boolean {
  return unservedQueries([command], INDEXES).length === 0;
}

const countDocuments = (match: Doc) => aggregate([{ $match: match }, { $group: { _id: 1 } }]);

describe("the index-coverage checker", () => {
  it("serves any filter on _id by equality or $in, sorted or not", () => {
    expect(served(find({ _id: "a" }))).toBe(true);
    expect(served(find({ _id: { $in: ["a", "b"] }, status: { $gt: 1 } }, { name: 1 }))).toBe(true);
    expect(served(find({ _id: { $in: ["a"] } }, { _id: 1 }))).toBe(true);
  });

  it("without a sort, needs an index leading with a field of the filter", () => {
    expect(served(find({ userId: "u" }))).toBe(true);
    expect(served(find({ userId: { $gt: "u" }, name: "n" }))).toBe(true);
    expect(served(find({ "address.city": "Lyon" }))).toBe(true);
    expect(served(find({ name: "n" }))).toBe(false);
    expect(served(find({ archivedAt: null }))).toBe(false);
    expect(served(find({ searchText: { $regex: "ab" } }))).toBe(false);
  });

  it("takes an empty filter for a scan, except the metadata count", () => {
    expect(served(find({}))).toBe(false);
    expect(served({ commandName: "count", command: { count: "members" } })).toBe(true);
    expect(served({ commandName: "count", command: { count: "members", query: {} } })).toBe(true);
    const byName = { commandName: "count", command: { count: "members", query: { name: "n" } } };
    expect(served(byName)).toBe(false);
  });

  it("serves a sort an index gives, in its directions or all reversed", () => {
    expect(served(find({}, { createdAt: -1, _id: -1 }))).toBe(true);
    expect(served(find({}, { createdAt: 1, _id: 1 }))).toBe(true);
    expect(served(find({}, { createdAt: -1 }))).toBe(true);
    expect(served(find({}, { createdAt: -1, _id: 1 }))).toBe(false);
    expect(served(find({}, { _id: -1, createdAt: -1 }))).toBe(false);
  });

  it("lets equality fields, in any order and by $in too, come before the sort", () => {
    const newest = { createdAt: -1, _id: -1 };
    expect(served(find({ archivedAt: null, status: "active" }, newest, "members"))).toBe(true);
    expect(served(find({ status: { $in: ["a", "b"] }, archivedAt: null }, newest))).toBe(true);
    expect(served(find({ branch: "b" }, { createdAt: 1 }, "offices"))).toBe(true);
    expect(served(find({ branch: { $eq: "b" } }, { branch: 1, createdAt: -1 }, "offices"))).toBe(
      true,
    );
    expect(served(find({ branch: { $gt: "b" } }, { createdAt: -1 }, "offices"))).toBe(false);
    expect(served(find({ branch: { $in: [/b/] } }, { createdAt: -1 }, "offices"))).toBe(false);
    expect(served(find({ branch: "b" }, { name: 1 }, "offices"))).toBe(false);
    expect(served(find({}, { createdAt: -1 }, "offices"))).toBe(false);
  });

  it("drops from the sort, and from the index, the fields the filter pins to one value", () => {
    expect(served(find({ userId: "u" }, { userId: 1 }))).toBe(true);
    expect(served(find({ archivedAt: null }, { status: 1, createdAt: -1 }))).toBe(true);
    expect(served(find({ archivedAt: { $in: [null] } }, { status: 1, createdAt: -1 }))).toBe(false);
  });

  it("serves a regex on a field after a served sort, not one on its own", () => {
    const newest = { createdAt: -1, _id: -1 };
    expect(served(find({ searchText: /ab/ }, newest))).toBe(true);
    expect(served(find({ searchText: { $regex: "ab" }, status: { $ne: "x" } }, newest))).toBe(true);
    expect(served(find({ notes: /ab/ }, {}, "offices"))).toBe(false);
  });

  it("judges $and by its parts, an $or beside fields not at all, an $or alone by its branches", () => {
    expect(served(find({ $and: [{ userId: "u" }, { name: "n" }] }))).toBe(true);
    expect(served(find({ userId: "u", $or: [{ name: "n" }, { email: "e" }] }))).toBe(true);
    expect(served(find({ name: "n", $or: [{ userId: "u" }] }))).toBe(false);
    expect(served(find({ $or: [{ userId: "u" }, { openKey: "k" }] }))).toBe(true);
    expect(served(find({ $or: [{ userId: "u" }, { name: "n" }] }))).toBe(false);
    expect(served(find({ $nor: [{ userId: "u" }] }))).toBe(false);
  });

  it("uses a partial index only for its condition's fields, a sparse one only for its own", () => {
    expect(served(find({ email: "e" }))).toBe(true);
    expect(served(find({ nickname: "n" }))).toBe(true);
    expect(served(find({}, { nickname: 1 }))).toBe(false);
  });

  it("never uses a text index for a plain filter or a sort", () => {
    expect(served(find({ notes: "n" }, undefined, "offices"))).toBe(false);
  });

  it("judges countDocuments by its $match and other pipelines by a leading $match and $sort", () => {
    expect(served(countDocuments({ userId: "u" }))).toBe(true);
    expect(served(countDocuments({ name: "n" }))).toBe(false);
    expect(served(countDocuments({}))).toBe(false);
    expect(served(aggregate([{ $group: { _id: "$status" } }]))).toBe(false);
    expect(served(aggregate([{ $sort: { createdAt: -1 } }, { $limit: 5 }]))).toBe(true);
    const byBranch = [{ $match: { branch: "b" } }, { $sort: { createdAt: -1 } }, { $limit: 5 }];
    expect(served(aggregate(byBranch, "offices"))).toBe(true);
    const byName = [{ $match: { branch: "b" } }, { $sort: { name: 1 } }];
    expect(served(aggregate(byName, "offices"))).toBe(false);
  });

  it("judges each statement of updates and deletes, findAndModify, and distinct", () => {
    const updates = [{ q: { _id: "a" } }, { q: { name: "n" }, u: { $set: { a: 1 } } }];
    const update = { commandName: "update", command: { update: "members", updates } };
    expect(unservedQueries([update], INDEXES)).toHaveLength(1);
    const deletes = [{ q: { userId: "u" }, limit: 0 }];
    expect(served({ commandName: "delete", command: { delete: "members", deletes } })).toBe(true);
    const claim = { findAndModify: "offices", query: { branch: "b" }, sort: { createdAt: -1 } };
    expect(served({ commandName: "findAndModify", command: claim })).toBe(true);
    const byName = { findAndModify: "offices", query: { name: "n" }, update: {} };
    expect(served({ commandName: "findAndModify", command: byName })).toBe(false);
    const distinct = (key: string, query?: Doc) => ({
      commandName: "distinct",
      command: { distinct: "members", key, ...(query ? { query } : {}) },
    });
    expect(served(distinct("status", { userId: "u" }))).toBe(true);
    expect(served(distinct("userId"))).toBe(true);
    expect(served(distinct("name"))).toBe(false);
  });

  it("reports every query on a collection no model declares, and ignores other commands", () => {
    expect(served(find({ _id: "a" }, undefined, "locks"))).toBe(false);
    const others: MonitoredCommand[] = [
      { commandName: "insert", command: { insert: "members", documents: [{}] } },
      { commandName: "getMore", command: { getMore: 1, collection: "members" } },
      { commandName: "createIndexes", command: { createIndexes: "members", indexes: [] } },
      { commandName: "ping", command: { ping: 1 } },
    ];
    expect(unservedQueries(others, INDEXES)).toEqual([]);
  });

  it("lists each unserved shape once, with values replaced by their kind", () => {
    const at = new Date();
    const unserved = unservedQueries(
      [
        find({ name: "a", at: { $gt: at } }, { score: 1 }),
        find({ name: "b", at: { $gt: at } }, { score: 1 }),
      ],
      INDEXES,
    );
    expect(unserved).toEqual([
      {
        collection: "members",
        command: "find",
        filter: { name: "<string>", at: { $gt: "<date>" } },
        sort: { score: 1 },
        reason: expect.stringMatching(/in-memory sort/) as unknown,
      },
    ]);
    expect(describeUnserved(unserved)).toMatch(
      /members find filter \{"name":"<string>","at":\{"\$gt":"<date>"\}\} sort \{"score":1\}/,
    );
  });

  it("names the index it plans a query on, from the query or its shape alike", () => {
    const declared = INDEXES.get("members")!;
    const plan = (filter: Doc, sort?: Doc) => {
      const [query] = queriesOf(find(filter, sort));
      const shaped = { ...query, filter: shapeOf(query.filter) as Doc };
      expect(servingOf(shaped, declared)).toEqual(servingOf(query, declared));
      return servingOf(query, declared);
    };
    // Of two that give the sort, the one binding the equality fields first.
    expect(plan({ status: "APPROVED", archivedAt: null }, { createdAt: -1, _id: -1 })).toEqual({
      indexes: [{ status: 1, archivedAt: 1, createdAt: -1, _id: -1 }],
    });
    expect(plan({ searchText: /ab/ }, { createdAt: -1, _id: -1 })).toEqual({
      indexes: [{ createdAt: -1, _id: -1, searchText: 1 }],
    });
    expect(plan({ $or: [{ userId: "u" }, { openKey: "k" }] })).toEqual({
      indexes: [{ userId: 1 }, { openKey: 1 }],
    });
    expect(plan({ _id: "a" })).toEqual({ indexes: [{ _id: 1 }] });
    expect(plan({ searchText: /ab/ })).toEqual({
      reason: "no index leads with a field of the filter",
    });
  });
});

const probeSchema = new Schema({
  key: { type: String, unique: true },
  group: String,
  at: Date,
  name: String,
});
probeSchema.index({ group: 1, at: -1 });

describe("the guard on a running app", () => {
  it("sees what the app's connection sends, and fails the close on a query no index serves", async () => {
    const app = await startTestApp();
    let closed = false;
    try {
      await useProbes(app);
      const probes = app.unservedQueries().filter((q) => q.collection === "coverage_probes");
      expect(probes.map(({ command, filter, sort }) => ({ command, filter, sort }))).toEqual([
        { command: "find", filter: { name: "<string>" }, sort: undefined },
        { command: "find", filter: { group: "<string>" }, sort: { name: 1 } },
        { command: "aggregate", filter: {}, sort: undefined },
      ]);
      closed = true;
      await expect(app.close()).rejects.toThrow(
        /coverage_probes find filter \{"name":"<string>"\}: no index leads/,
      );
    } finally {
      if (!closed) await app.close().catch(() => undefined);
    }
  });

  it("records both of two instances and closes both when they fail", async () => {
    const { first, second, closeBoth } = await startTwoInstances();
    await first.connection.collection("users").find({ byFirst: "x" }).toArray();
    await second.connection.collection("users").find({ bySecond: "x" }).toArray();
    const closing = closeBoth();
    await expect(closing).rejects.toThrow(/users find filter \{"byFirst":"<string>"\}/);
    await expect(closing).rejects.toThrow(/users find filter \{"bySecond":"<string>"\}/);
  });
});

/** Served and unserved queries through mongoose and the driver, as the app's code sends them. */
async function useProbes(app: TestApp): Promise<void> {
  const Probe = app.connection.model("CoverageProbe", probeSchema, "coverage_probes");
  await Probe.insertMany([{ key: "k", group: "g", at: new Date(), name: "n" }]);
  await Probe.find({ group: "g" }).sort({ at: -1 }).lean();
  await Probe.findOne({ key: "k" }).lean();
  await Probe.countDocuments({ group: "g" });
  await Probe.estimatedDocumentCount();
  await Probe.updateOne({ key: "k" }, { $set: { name: "m" } });
  await Probe.findOneAndUpdate({ group: "g" }, { $set: { name: "o" } }, { sort: { at: 1 } });
  await Probe.deleteMany({ group: "h" });
  await Probe.find({ name: "n" }).lean();
  await Probe.find({ group: "g" }).sort({ name: 1 }).lean();
  await Probe.countDocuments();
}
