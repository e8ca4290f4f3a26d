/**
 * The report's capacity plan stays true to the declared indexes: every index some model
 * declares appears in it and serves one of the API's queries, and every listed query is served
 * by one, with no in-memory sort. The indexes come from the service's own composition root on
 * the suite's engine (an empty database: sizes are then the assumed ones).
 */
import { MongoClient } from "mongodb";
import { renderCapacityPlan, capacityProblems } from "../../bench/capacity-plan";
import { sampleCollections, type CapacityInput } from "../../bench/collection-stats";
import { indexText, planOf } from "../../bench/query-plan";

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

it("serves every listed API query from a declared index, and uses every declared index", () => {
  expect(capacityProblems(capacity)).toEqual([]);
  expect(renderCapacityPlan(capacity).join("\n")).not.toContain("not served");
});

describe("the plan worked out for one query", () => {
  const members = [
    { archivedAt: 1, createdAt: -1, _id: -1, searchText: 1 },
    { searchText: 1 },
  ] as const;

  it("binds the equality fields, walks the sort and tests a regex on the keys", () => {
    const plan = planOf(
      {
        collection: "members",
        command: "page",
        filter: { archivedAt: "eq", searchText: "regex" },
        sort: { createdAt: -1, _id: -1 },
      },
      [...members],
    );
    expect(plan.served).toBe(true);
    expect(plan.stages).toEqual([
      "IXSCAN { archivedAt: 1, createdAt: -1, _id: -1, searchText: 1 } (bounds on archivedAt) filtering searchText on the keys",
      "FETCH",
      "SKIP",
      "LIMIT",
    ]);
  });

  it("counts on the keys alone when the index holds every filtered field", () => {
    const plan = planOf(
      { collection: "members", command: "count", filter: { searchText: "regex" } },
      [...members],
    );
    expect(plan.index).toEqual({ searchText: 1 });
    expect(plan.stages).not.toContain("FETCH");
  });

  it("says so when no index gives the sort, or none leads with a filtered field", () => {
    const sorted = planOf(
      { collection: "members", command: "page", filter: {}, sort: { lastName: 1 } },
      [...members],
    );
    expect(sorted).toMatchObject({ index: null, served: false });
    expect(sorted.stages.slice(0, 2)).toEqual(["COLLSCAN", "SORT"]);
    const filtered = planOf({ collection: "members", command: "find", filter: { gender: "eq" } }, [
      ...members,
    ]);
    expect(filtered.stages[0]).toBe("COLLSCAN");
  });
});
