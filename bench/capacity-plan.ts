import { API_QUERIES, type ApiQuery } from "./api-queries";
import type { CapacityInput, CollectionStats, DeclaredIndex, IndexKey } from "./collection-stats";
import { indexText, planOf, type Plan } from "./query-plan";

/** The member counts the plan is worked out for. */
export const PLAN_SIZES = [100_000, 1_000_000] as const;
/** What a B-tree takes beyond its raw keys (page fill, internal pages), lowest and highest. */
const OVERHEAD = [1.3, 2] as const;
/** Bytes of record id in each index entry. */
const RECORD_ID_BYTES = 8;
/** Accounts and member records read often enough to stay in the cache. */
const HOT_SHARE = 0.1;
/** Assumed document size of a collection the sampled database had none of. */
const ASSUMED_DOCUMENT_BYTES = 300;

/** How a collection grows with the membership, where the demo data cannot say. */
const ASSUMED_GROWTH: Record<string, { perMember: number; why: string }> = {
  sessions: { perMember: 1, why: "one live session per member" },
  audit_logs: { perMember: 2, why: "two entries per member (a decision and one more act)" },
};
/** Collections that grow with the membership as in the demo data. */
const MEASURED_GROWTH = new Set(["members", "users"]);

const ID_INDEX: DeclaredIndex = { key: { _id: 1 }, unique: true };

function documentsAt(collection: CollectionStats, members: number, input: CapacityInput) {
  const assumed = ASSUMED_GROWTH[collection.name];
  if (assumed) return assumed.perMember * members;
  if (MEASURED_GROWTH.has(collection.name)) {
    return (collection.documents * members) / Math.max(input.members, 1);
  }
  return collection.documents;
}

/** Bytes of one entry, and entries per document (an array field gives one per element). */
function entryOf(collection: CollectionStats, key: IndexKey) {
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

interface IndexRow {
  collection: CollectionStats;
  index: DeclaredIndex;
  entryBytes: number;
  sizes: [number, number][];
}

function indexRows(input: CapacityInput): IndexRow[] {
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

function hotBytes(input: CapacityInput, members: number): number {
  return input.collections.reduce((total, collection) => {
    const share = MEASURED_GROWTH.has(collection.name)
      ? HOT_SHARE
      : collection.name === "audit_logs"
        ? 0
        : 1;
    const bytes = collection.documentBytes ?? ASSUMED_DOCUMENT_BYTES;
    return total + documentsAt(collection, members, input) * share * bytes;
  }, 0);
}

const sameKey = (a: IndexKey, b: IndexKey) => indexText(a) === indexText(b);

function plans(input: CapacityInput): { query: ApiQuery; plan: Plan }[] {
  return API_QUERIES.map((query) => {
    const collection = input.collections.find((one) => one.name === query.collection);
    const declared = collection?.indexes.map((index) => index.key) ?? [];
    return { query, plan: planOf(query, declared) };
  });
}

/**
 * What does not hold: API queries no declared index serves, and declared indexes no API
 * query uses (each costs every write).
 */
export function capacityProblems(input: CapacityInput): string[] {
  const planned = plans(input);
  const unserved = planned
    .filter(({ plan }) => !plan.served)
    .map(({ query }) => `${query.api}: no declared index serves it`);
  const unused = input.collections.flatMap((collection) =>
    collection.indexes
      .filter((index) => !planned.some(({ plan }) => plan.index && sameKey(plan.index, index.key)))
      .map((index) => `${collection.name} ${indexText(index.key)}: no API query uses it`),
  );
  return [...unserved, ...unused];
}

function filterText(query: ApiQuery): string {
  const symbols = { eq: "= …", in: "in […]", range: "range", regex: "~ /…/" };
  const filter = Object.entries(query.filter).map(([field, match]) => `${field} ${symbols[match]}`);
  const sort = query.sort ? `; sort ${indexText(query.sort)}` : "";
  return `${filter.length > 0 ? filter.join(", ") : "(none)"}${sort}`;
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
  const lines = [
    "",
    "## Capacity plan for MongoDB (on paper)",
    "",
    `Worked out by bench/capacity-plan.ts from every model's declared indexes (\`schema.indexes()\`, plus \`_id\`) and from the values stored in the ${sampled}-member benchmark database after the run (up to 1 000 documents read per collection). Assumptions: an index entry is its key values (a string's UTF-8 bytes plus 2, a date or number 9 bytes, null 1) and ${RECORD_ID_BYTES} bytes of record id, one entry per element of an array; a B-tree takes ${OVERHEAD[0]}–${OVERHEAD[1]} × its raw entries (page fill, internal pages), and WiredTiger's prefix compression of keys, left out here, would make indexes smaller. Accounts and member records grow with the membership as in the demo data; office titles, appointments and branches of service stay as seeded; assumed: ${assumedGrowth}. Fields a collection had no document for are taken as 36-character ids.`,
    "",
    "| Collection | Index | Kind | Bytes per entry | Size at 100,000 members | Size at 1,000,000 members |",
    "|---|---|---|---:|---:|---:|",
    ...rows.map(({ collection, index, entryBytes, sizes }) => {
      const kind =
        index.expireAfterSeconds !== undefined ? "TTL" : index.unique ? "unique" : "list";
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
    "",
    "What `explain` would show on MongoDB for each query the API sends other than by `_id` (bench/api-queries.ts, planned by bench/query-plan.ts from the declared indexes: the index binding most equality fields before the sort): an IXSCAN, then FETCH for the documents returned, and no SORT stage. `~ /…/` is the unanchored regex of a search: it cannot bound a scan, so it is tested on the index keys where the index holds the field, before any document is fetched.",
    "",
    "| API | Collection | Filter; sort | Plan on MongoDB |",
    "|---|---|---|---|",
    ...plans(input).map(
      ({ query, plan }) =>
        `| ${query.api} | ${query.collection} | ${filterText(query)} | ${plan.stages.join(" → ")}${plan.served ? "" : " **(not served by an index)**"} |`,
    ),
    "| Every read and conditional write by `_id` (a signed-in request's account and session, a record by id, a page's accounts and branches by `_id $in`) | all | `_id` = … or in […] | IDHACK, or IXSCAN `{ _id: 1 }` → FETCH |",
  ];
  const problems = capacityProblems(input);
  if (problems.length > 0) {
    lines.push("", "Does not hold:", "", ...problems.map((problem) => `- ${problem}`));
  }
  return lines;
}
