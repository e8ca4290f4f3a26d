/**
 * The report's capacity plan stays true to the declared indexes and to the queries the test
 * suite records: every index some model declares appears in it with its sizes, and each
 * recorded query is planned on the index that serves it. The indexes come from the service's
 * own composition root on the suite's engine (an empty database: sizes are then the assumed
 * ones).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import {
  capacityProblems,
  indexText,
  renderCapacityPlan,
  unusedIndexes,
} from "../../bench/capacity-plan";
import { sampleCollections, type CapacityInput } from "../../bench/collection-stats";
import type { PlannedQuery } from "../support/index-coverage";
import { mergeRecorded, readRecorded, saveRecorded } from "../support/recorded-queries";

const DB_NAME = "bench-capacity-plan";
let capacity: CapacityInput;

beforeAll(async () => {
  capacity = await sampleCollections(
    process.env.TEST_MONGODB_URI!,
    {
      NODE_ENV: "test",
      DB_NAME,
      JWT_SECRET: "capacity-plan-secret-0123456789-abcdefghij",
      DATA_KEY: Buffer.alloc(32, 5).toString("base64"),
      LOG_LEVEL: "warn",
    },
    10_000,
  );
});

afterAll(async () => {
  const client = await MongoClient.connect(process.env.TEST_MONGODB_URI!, {
    directConnection: true,
  });
  await client.db(DB_NAME).dropDatabase();
  await client.close();
});

it("names every declared index of every model, with its sizes", () => {
  const plan = renderCapacityPlan(capacity).join("\n");
  const declared = capacity.collections.flatMap((collection) =>
    collection.indexes.map((index) => ({ collection: collection.name, key: index.key })),
  );
  expect(declared.length).toBeGreaterThan(20);
  for (const { collection, key } of declared) {
    expect(plan).toContain(`| ${collection} | \`${indexText(key)}\` |`);
  }
  expect(plan).toContain("| Working set |");
});

const page = (filter: Record<string, unknown>): PlannedQuery => ({
  collection: "members",
  command: "find",
  filter,
  sort: { createdAt: -1, _id: -1 },
});

it("plans each recorded query once on the index that serves it, and says which none serves", () => {
  const recorded = {
    "tests/a.test.ts": [page({ archivedAt: null }), page({ _id: "<string>" })],
    "tests/b.test.ts": [
      page({ archivedAt: null }),
      { collection: "members", command: "find", filter: { gender: "<string>" } },
    ],
  };
  const plan = renderCapacityPlan({ ...capacity, recorded }).join("\n");
  const rows = plan.split("\n").filter((line) => line.startsWith("| members | find |"));
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatch(
    /`\{"archivedAt":null\}`; sort \{ createdAt: -1, _id: -1 \} \| `\{ archivedAt: 1, .*\}` \| tests\/a\.test\.ts \|$/,
  );
  expect(rows[1]).toContain("**not served by an index**");
  expect(capacityProblems({ ...capacity, recorded })).toEqual([
    expect.stringContaining('members `{"gender":"<string>"}` (tests/b.test.ts)'),
  ]);
  expect(plan).toContain("Does not hold:");
  // Unique indexes keep invariants; the others each need a query that walks them.
  expect(unusedIndexes({ ...capacity, recorded })).toContain("users { deletingSince: 1, role: 1 }");
});

it("says where the queries come from when none were recorded", () => {
  const plan = renderCapacityPlan({ ...capacity, recorded: {} }).join("\n");
  expect(plan).toContain("No queries recorded: the test suite writes them to reports/queries.json");
  expect(plan).not.toContain("Does not hold:");
});

it("merges what a run recorded into the file, keeping the entries of test files that did not run", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "recorded-"));
  const into = path.join(dir, "queries.json");
  const runDir = path.join(dir, "run");
  const previous = process.env.TEST_DATA_DIR;
  try {
    fs.writeFileSync(
      into,
      JSON.stringify({
        "tests/bench/capacity-plan.test.ts": [page({ old: "<string>" })],
        "tests/db/index-coverage.test.ts": [page({ kept: "<string>" })],
        "tests/gone.test.ts": [page({ gone: "<string>" })],
      }),
    );
    process.env.TEST_DATA_DIR = runDir;
    const find = (filter: Record<string, unknown>) => ({
      commandName: "find",
      command: { find: "members", filter },
    });
    const testPath = path.join(__dirname, "capacity-plan.test.ts");
    saveRecorded(testPath, [find({ archivedAt: null, name: "Ana" }), find({ _id: "a" })]);
    saveRecorded(testPath, [find({ archivedAt: null, name: "Ben" })]);
    mergeRecorded(runDir, into);
    expect(readRecorded(into)).toEqual({
      "tests/bench/capacity-plan.test.ts": [
        { collection: "members", command: "find", filter: { archivedAt: null, name: "<string>" } },
        { collection: "members", command: "find", filter: { _id: "<string>" } },
      ],
      "tests/db/index-coverage.test.ts": [page({ kept: "<string>" })],
    });
  } finally {
    process.env.TEST_DATA_DIR = previous;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
