/**
 * The capacity plan for MongoDB: the declared indexes' sizes at larger member counts, from the
 * sampled values (collection-stats.ts), and the index each query the tests recorded walks there.
 */
import path from "node:path";
import { servingOf, type PlannedQuery } from "../tests/support/index-coverage";
import { RECORDED_QUERIES_FILE } from "../tests/support/recorded-queries";
import type { CapacityInput, CollectionStats, DeclaredIndex } from "./collection-stats";
import { heading, sum } from "./report-sections";

const PLAN_SIZES = [100_000, 1_000_000] as const;
/** What a B-tree takes beyond its raw keys (page fill, internal pages), lowest and highest. */
const OVERHEAD = [1.3, 2] as const;
const RECORD_ID_BYTES = 8;
/** The share of accounts and member records read often enough to stay in the cache. */
const HOT_SHARE = 0.1;
/** The document size of a collection the sampled database had none of. */
const ASSUMED_DOCUMENT_BYTES = 300;

/** How a collection grows with the membership, where the demo data cannot say. */
const ASSUMED_GROWTH: Record<string, { perMember: number; why: string }> = {
  sessions: { perMember: 1, why: "one live session per member" },
  audit_logs: { perMember: 2, why: "two entries per member (a decision and one more act)" },
};
/** Collections that grow with the membership as in the demo data. */
const MEASURED_GROWTH = new Set(["members", "users"]);

const ID_INDEX: DeclaredIndex = { key: { _id: 1 }, options: { unique: true } };

export function indexText(key: Record<string, unknown>): string {
  const fields = Object.entries(key).map(([field, direction]) => `${field}: ${String(direction)}`);
  return `{ ${fields.join(", ")} }`;
}

function documentsAt(collection: CollectionStats, members: number, input: CapacityInput) {
  const assumed = ASSUMED_GROWTH[collection.name];
  if (assumed) return assumed.perMember * members;
  if (MEASURED_GROWTH.has(collection.name)) {
    return (collection.documents * members) / Math.max(input.members, 1);
  }
  return collection.documents;
}

/** Bytes of one entry, and entries per document (an array field gives one per element). */
function entryOf(collection: CollectionStats, key: DeclaredIndex["key"]) {
  const fields = Object.keys(key).map((field) => collection.fields[field]);
  const keyBytes = fields.reduce((total, field) => total + (field?.keyBytes ?? 38), 0);
  const perDocument = Math.max(1, ...fields.map((field) => field?.entriesPerDocument ?? 1));
  return { bytes: keyBytes + RECORD_ID_BYTES, perDocument };
}

/** MB; KB below a tenth of one, so small collections do not all read 0.0; GB from 1 024 MB. */
const mb = (bytes: number) => {
  const value = bytes / 2 ** 20;
  if (value < 0.1) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} GB`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} MB`;
};
const range = ([low, high]: readonly [number, number]) =>
  mb(low) === mb(high) ? mb(low) : `${mb(low)}–${mb(high)}`;

function indexRows(input: CapacityInput) {
  return input.collections.flatMap((collection) =>
    [ID_INDEX, ...collection.indexes].map((index) => {
      const entry = entryOf(collection, index.key);
      const sizes = PLAN_SIZES.map((members): [number, number] => {
        const bytes = documentsAt(collection, members, input) * entry.perDocument * entry.bytes;
        return [bytes * OVERHEAD[0], bytes * OVERHEAD[1]];
      });
      return { collection, index, entryBytes: entry.bytes, sizes };
    }),
  );
}

/** The bytes of the documents read often; audit entries are read a page at a time. */
function hotBytes(input: CapacityInput, members: number): number {
  const share = (name: string) =>
    MEASURED_GROWTH.has(name) ? HOT_SHARE : name === "audit_logs" ? 0 : 1;
  const bytes = (collection: CollectionStats) =>
    documentsAt(collection, members, input) *
    share(collection.name) *
    (collection.documentBytes ?? ASSUMED_DOCUMENT_BYTES);
  return sum(input.collections.map(bytes));
}

type Served = ReturnType<typeof servingOf>;

const isIdOnly = (served: Served) =>
  "indexes" in served && served.indexes.every((key) => indexText(key) === "{ _id: 1 }");

/**
 * Each recorded query on the service's collections once, but reads by `_id`, with the first
 * test file (by name) that sent it and the index that serves it.
 */
function plans(input: CapacityInput) {
  const first = new Map<string, { query: PlannedQuery; sentBy: string }>();
  for (const [sentBy, queries] of Object.entries(input.recorded).sort()) {
    for (const query of queries) {
      const key = JSON.stringify(query);
      if (!first.has(key)) first.set(key, { query, sentBy });
    }
  }
  return [...first.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([, { query, sentBy }]) => {
      const collection = input.collections.find((one) => one.name === query.collection);
      if (!collection) return [];
      const served = servingOf(query, [ID_INDEX, ...collection.indexes]);
      return isIdOnly(served) ? [] : [{ query, sentBy, served }];
    });
}

/** Recorded queries no declared index serves. */
export function capacityProblems(input: CapacityInput): string[] {
  return plans(input).flatMap(({ query, sentBy, served }) =>
    "reason" in served
      ? [`${query.collection} ${filterText(query)} (${sentBy}): ${served.reason}`]
      : [],
  );
}

/** Declared indexes no recorded query walks, each costing every write; unique ones keep a rule. */
export function unusedIndexes(input: CapacityInput): string[] {
  const used = new Set(
    plans(input).flatMap(({ query, served }) =>
      "indexes" in served
        ? served.indexes.map((key) => `${query.collection} ${indexText(key)}`)
        : [],
    ),
  );
  return input.collections.flatMap((collection) =>
    collection.indexes
      .filter((index) => !index.options.unique)
      .map((index) => `${collection.name} ${indexText(index.key)}`)
      .filter((name) => !used.has(name)),
  );
}

function filterText(query: PlannedQuery): string {
  const sort = query.sort ? `; sort ${indexText(query.sort)}` : "";
  const distinct = query.distinctKey ? `; values of ${query.distinctKey}` : "";
  return `\`${JSON.stringify(query.filter)}\`${sort}${distinct}`;
}

function servedText(served: Served): string {
  if ("reason" in served) return `**not served by an index**: ${served.reason}`;
  if (served.indexes.length === 0) return "the collection's metadata";
  return served.indexes.map((key) => `\`${indexText(key)}\``).join(" and ");
}

function queriesPart(input: CapacityInput): string[] {
  const planned = plans(input);
  const files = Object.keys(input.recorded).length;
  if (planned.length === 0) {
    return [
      "",
      `No queries recorded: the test suite writes them to ${path.relative(process.cwd(), RECORDED_QUERIES_FILE)} (\`npm test\`); run it before the benchmark for the plan of each.`,
    ];
  }
  const unused = unusedIndexes(input);
  return [
    "",
    `The index MongoDB would walk for each query the test suite sent other than by \`_id\` (recorded by ${files} test file${files === 1 ? "" : "s"} into reports/queries.json by tests/support/recorded-queries.ts, planned from the declared indexes by tests/support/index-coverage.ts, the guard that fails a test file whose queries no index serves): the one binding the most equality fields before the sort, with no in-memory sort. A filter shows each value's kind. Reads by \`_id\` (every signed-in request's account and session, a record by id, a page's accounts and branches by \`_id $in\`) walk \`{ _id: 1 }\`.`,
    "",
    "| Collection | Command | Filter; sort | Index on MongoDB | First sent by |",
    "|---|---|---|---|---|",
    ...planned.map(
      ({ query, sentBy, served }) =>
        `| ${query.collection} | ${query.command} | ${filterText(query)} | ${servedText(served)} | ${sentBy} |`,
    ),
    ...(unused.length > 0
      ? [
          "",
          `Declared indexes, not unique, that no recorded query walks (each costs every write; a test file that would use one may not have run since the file was written): ${unused.map((name) => `\`${name}\``).join(", ")}.`,
        ]
      : []),
  ];
}

const assumedGrowth = Object.entries(ASSUMED_GROWTH)
  .map(([name, growth]) => `${name}, ${growth.why}`)
  .join("; ");

export function renderCapacityPlan(input: CapacityInput): string[] {
  const rows = indexRows(input);
  const totals = PLAN_SIZES.map((_, at) =>
    [0, 1].map((end) => rows.reduce((total, row) => total + row.sizes[at][end], 0)),
  ) as [number, number][];
  const hot = PLAN_SIZES.map((members) => hotBytes(input, members));
  const sampled = input.members.toLocaleString("en");
  const problems = capacityProblems(input);
  return [
    ...heading("Capacity plan for MongoDB (on paper)"),
    `Worked out by bench/capacity-plan.ts from every model's declared indexes (\`schema.indexes()\`, plus \`_id\`) and from the values stored in the ${sampled}-member benchmark database after the run (up to 1 000 documents read per collection). Assumptions: an index entry is its key values (a string's UTF-8 bytes plus 2, a date or number 9 bytes, null 1) and ${RECORD_ID_BYTES} bytes of record id, one entry per element of an array; a B-tree takes ${OVERHEAD[0]}–${OVERHEAD[1]} × its raw entries (page fill, internal pages), and WiredTiger's prefix compression of keys, left out here, would make indexes smaller. Accounts and member records grow with the membership as in the demo data; office titles, appointments and branches of service stay as seeded; assumed: ${assumedGrowth}. Fields a collection had no document for are taken as 36-character ids.`,
    "",
    "| Collection | Index | Kind | Bytes per entry | Size at 100,000 members | Size at 1,000,000 members |",
    "|---|---|---|---:|---:|---:|",
    ...rows.map(({ collection, index, entryBytes, sizes }) => {
      const { expireAfterSeconds, unique } = index.options;
      const kind = expireAfterSeconds !== undefined ? "TTL" : unique ? "unique" : "list";
      return `| ${collection.name} | \`${indexText(index.key)}\` | ${kind} | ${Math.round(entryBytes)} | ${range(sizes[0])} | ${range(sizes[1])} |`;
    }),
    `| **all** | | | | **${range(totals[0])}** | **${range(totals[1])}** |`,
    "",
    `The working set is the indexes and the documents read often: every session (each signed-in request reads its own), every office title, appointment and branch of service, and ${HOT_SHARE * 100} % of accounts and member records (the recently active; a page reads only the 10 documents its index walk lands on). Audit entries are read a page at a time and stay out of it. WiredTiger's cache is half of (RAM − 1 GB) by default, so the RAM that keeps the working set cached is about twice it plus 1 GB.`,
    "",
    "| | 100,000 members | 1,000,000 members |",
    "|---|---:|---:|",
    `| Indexes | ${range(totals[0])} | ${range(totals[1])} |`,
    `| Hot documents | ${mb(hot[0])} | ${mb(hot[1])} |`,
    `| Working set | ${range([totals[0][0] + hot[0], totals[0][1] + hot[0]])} | ${range([totals[1][0] + hot[1], totals[1][1] + hot[1]])} |`,
    `| RAM for it | ${mb(2 * (totals[0][1] + hot[0]) + 2 ** 30)} | ${mb(2 * (totals[1][1] + hot[1]) + 2 ** 30)} |`,
    ...queriesPart(input),
    ...(problems.length > 0 ? ["", "Does not hold:", ""] : []),
    ...problems.map((problem) => `- ${problem}`),
  ];
}
