/*
 * The guard that production never scans a collection: every query the suite sends must be one
 * MongoDB's planner answers from a declared index, with no COLLSCAN and no in-memory SORT.
 * - `_id` by equality or `$in` is always served.
 * - A filter's top-level fields (dotted paths, `$and` flattened) are equalities (a plain value,
 *   null, `$eq`, `$in` of plain values) or other predicates; an `$or`/`$nor` beside fields only
 *   filters what the index found, and a filter that is only an `$or` needs every branch served.
 * - No sort: some index must lead with a field of the filter. An empty filter is a scan (a
 *   `count` with no query reads the collection's metadata; a `distinct` with none walks an
 *   index leading with its key).
 * - A sort: some index must give its order, after a prefix of the filter's equality fields, in
 *   the same directions or all reversed; fields the filter pins to one value drop out of both.
 * - A partial index counts only where the filter names its condition's fields, a sparse one
 *   only where the filter names one of its fields.
 */

export type IndexKey = Record<string, unknown>;

export interface DeclaredIndex {
  key: IndexKey;
  options?: { unique?: unknown; sparse?: unknown; partialFilterExpression?: unknown };
}

/** Declared indexes by collection name; `{_id: 1}` is implicit on every collection. */
export type IndexesByCollection = ReadonlyMap<string, readonly DeclaredIndex[]>;

/** A command as the driver's `commandStarted` event names and carries it. */
export interface MonitoredCommand {
  commandName: string;
  command: Record<string, unknown>;
}

export interface UnservedQuery {
  collection: string;
  command: string;
  /** The filter with every value replaced by its kind. */
  filter: unknown;
  sort?: Record<string, unknown>;
  reason: string;
}

type Doc = Record<string, unknown>;

/** One query of a command: what the planner has to answer from an index. */
export interface PlannedQuery {
  collection: string;
  command: string;
  filter: Doc;
  sort?: Doc;
  /** `count` without a query, answered from the collection's metadata. */
  metadataOnly?: boolean;
  /** The field a `distinct` returns the values of. */
  distinctKey?: string;
}

/** The queries a command makes; none for commands that do not look documents up. */
export function queriesOf({ commandName, command }: MonitoredCommand): PlannedQuery[] {
  const collection = command[commandName];
  if (typeof collection !== "string") return [];
  const query = (filter: unknown, sort?: unknown): PlannedQuery => {
    // The driver sends sorts as Maps, to keep their order.
    const order = sort instanceof Map ? (Object.fromEntries(sort) as Doc) : sort;
    return {
      collection,
      command: commandName,
      filter: isDoc(filter) ? filter : {},
      ...(isDoc(order) && Object.keys(order).length > 0 ? { sort: order } : {}),
    };
  };
  switch (commandName) {
    case "find":
      return [query(command.filter, command.sort)];
    case "count": {
      const counted = query(command.query);
      return [{ ...counted, metadataOnly: Object.keys(counted.filter).length === 0 }];
    }
    case "distinct":
      return [{ ...query(command.query), distinctKey: String(command.key) }];
    case "findAndModify":
      return [query(command.query, command.sort)];
    case "update":
      return statements(command.updates).map((s) => query(s.q, s.sort));
    case "delete":
      return statements(command.deletes).map((s) => query(s.q));
    case "aggregate":
      return [aggregateQuery(query, statements(command.pipeline))];
    default:
      return [];
  }
}

/**
 * A pipeline's leading `$match` (and the `$sort` right after it) is what reaches the planner;
 * countDocuments sends `$match` then `$group` and is judged by the `$match`.
 */
function aggregateQuery(
  query: (filter: unknown, sort?: unknown) => PlannedQuery,
  stages: Doc[],
): PlannedQuery {
  const [first, second] = stages;
  if (first?.$match !== undefined) return query(first.$match, second?.$sort);
  if (first?.$sort !== undefined) return query(second?.$match, first.$sort);
  return query({});
}

/** Every query of `commands` that no declared index serves, each shape once. */
export function unservedQueries(
  commands: readonly MonitoredCommand[],
  indexesByCollection: IndexesByCollection,
): UnservedQuery[] {
  const found = new Map<string, UnservedQuery>();
  for (const planned of commands.flatMap(queriesOf)) {
    const declared = indexesByCollection.get(planned.collection);
    const reason = declared
      ? whyUnserved(planned, [{ key: { _id: 1 } }, ...declared])
      : "no model declares this collection";
    if (!reason) continue;
    const unserved: UnservedQuery = {
      collection: planned.collection,
      command: planned.command,
      filter: shapeOf(planned.filter),
      ...(planned.sort ? { sort: planned.sort } : {}),
      reason,
    };
    found.set(JSON.stringify(unserved), unserved);
  }
  return [...found.values()];
}

/** One line per unserved query, for the error that fails the test file. */
export function describeUnserved(unserved: readonly UnservedQuery[]): string {
  const lines = unserved.map(
    (q) =>
      `- ${q.collection} ${q.command} filter ${JSON.stringify(q.filter)}` +
      `${q.sort ? ` sort ${JSON.stringify(q.sort)}` : ""}: ${q.reason}`,
  );
  const count = unserved.length === 1 ? "1 query" : `${unserved.length} queries`;
  return [`${count} that no declared index serves:`, ...lines].join("\n");
}

function whyUnserved(planned: PlannedQuery, indexes: DeclaredIndex[]): string | undefined {
  const served = servingOf(planned, indexes);
  return "reason" in served ? served.reason : undefined;
}

/**
 * How the planner can answer a query from `indexes` (`{_id: 1}` among them): the index it walks
 * (none for a count from the collection's metadata, one per branch of an `$or`), or why no
 * index serves it. Of several that serve, the one binding the most equality fields, then the
 * shortest. `planned` may hold a filter's shape (shapeOf) instead of the filter.
 */
export function servingOf(
  planned: PlannedQuery,
  indexes: readonly DeclaredIndex[],
): { indexes: IndexKey[] } | { reason: string } {
  if (planned.metadataOnly) return { indexes: [] };
  const { filter, sort } = planned;
  const onlyOr = Object.keys(filter).length === 1 && Array.isArray(filter.$or);
  if (onlyOr) {
    const branches = statements(filter.$or).map((branch) =>
      servingOf({ ...planned, filter: branch }, indexes),
    );
    if (branches.every((branch) => "indexes" in branch)) {
      return { indexes: branches.flatMap((branch) => ("indexes" in branch ? branch.indexes : [])) };
    }
  }
  const fields = classify(filter);
  const id = fields.get("_id");
  if (id === "point" || id === "equality") return { indexes: [{ _id: 1 }] };
  const usable = indexes.filter((index) => isUsable(index, fields));
  const order = sortEntries(sort).filter(([field]) => fields.get(field) !== "point");
  const chosen = (candidates: DeclaredIndex[], reason: string) => {
    const size = (index: DeclaredIndex) => Object.keys(index.key).length;
    const bound = (index: DeclaredIndex) => {
      const unbound = Object.keys(index.key).findIndex((field) => !fields.has(field));
      return unbound < 0 ? size(index) : unbound;
    };
    const [best] = [...candidates].sort((a, b) => bound(b) - bound(a) || size(a) - size(b));
    return best ? { indexes: [best.key] } : { reason };
  };
  if (order.length === 0) {
    if (fields.size === 0) {
      const key = planned.distinctKey;
      return chosen(
        key ? usable.filter((index) => leadingField(index) === key) : [],
        onlyOr
          ? "a branch of the $or reads the whole collection"
          : "nothing in the filter can use an index: it reads the whole collection",
      );
    }
    return chosen(
      usable.filter((index) => fields.has(leadingField(index))),
      "no index leads with a field of the filter",
    );
  }
  return chosen(
    usable.filter((index) => givesOrder(index, fields, order)),
    "no index gives the sort after the filter's equality fields (an in-memory sort)",
  );
}

type Predicate = "point" | "equality" | "other";
const STRENGTH: Record<Predicate, number> = { point: 2, equality: 1, other: 0 };

/** The filter's top-level fields and how each is matched; `$or`, `$nor`, `$expr`... are residual. */
function classify(filter: Doc, into = new Map<string, Predicate>()): Map<string, Predicate> {
  for (const [field, value] of Object.entries(filter)) {
    if (field === "$and") {
      for (const part of statements(value)) classify(part, into);
      continue;
    }
    if (field.startsWith("$")) continue;
    const predicate = predicateOf(value);
    const before = into.get(field);
    if (!before || STRENGTH[predicate] > STRENGTH[before]) into.set(field, predicate);
  }
  return into;
}

function predicateOf(value: unknown): Predicate {
  if (isRegex(value)) return "other";
  if (!isDoc(value)) return "point";
  const operators = Object.keys(value).filter((key) => key.startsWith("$"));
  if (operators.length === 0) return "point";
  if (operators.length > 1 || operators.length !== Object.keys(value).length) return "other";
  if (operators[0] === "$eq") return "point";
  if (operators[0] === "$in" && Array.isArray(value.$in)) {
    return value.$in.every((item) => !isRegex(item)) ? "equality" : "other";
  }
  return "other";
}

function isUsable(index: DeclaredIndex, fields: Map<string, Predicate>): boolean {
  if (!directions(index)) return false;
  const partial = index.options?.partialFilterExpression;
  if (isDoc(partial) && ![...classify(partial).keys()].every((field) => fields.has(field))) {
    return false;
  }
  if (
    index.options?.sparse === true &&
    !Object.keys(index.key).some((field) => fields.has(field))
  ) {
    return false;
  }
  return true;
}

/** Whether the index, after some prefix of equality fields, yields `order` (or its reverse). */
function givesOrder(
  index: DeclaredIndex,
  fields: Map<string, Predicate>,
  order: [string, number][],
): boolean {
  const entries = directions(index) ?? [];
  for (let prefix = 0; prefix <= entries.length; prefix += 1) {
    if (prefix > 0) {
      const predicate = fields.get(entries[prefix - 1][0]);
      if (predicate !== "point" && predicate !== "equality") return false;
    }
    const rest = entries.slice(prefix).filter(([field]) => fields.get(field) !== "point");
    if (rest.length < order.length) continue;
    const same = order.every(([f, d], i) => rest[i][0] === f && rest[i][1] === d);
    const reversed = order.every(([f, d], i) => rest[i][0] === f && rest[i][1] === -d);
    if (same || reversed) return true;
  }
  return false;
}

/** The index's fields and directions; undefined for text, hashed and geo indexes. */
function directions(index: DeclaredIndex): [string, number][] | undefined {
  const entries = Object.entries(index.key);
  if (!entries.every(([, d]) => d === 1 || d === -1)) return undefined;
  return entries as [string, number][];
}

function leadingField(index: DeclaredIndex): string {
  return Object.keys(index.key)[0] ?? "";
}

function sortEntries(sort: Doc | undefined): [string, number][] {
  return Object.entries(sort ?? {}).map(([field, d]) => [
    field,
    d === -1 || d === "desc" || d === "descending" ? -1 : 1,
  ]);
}

/** A regex in a filter's shape: the planner reads it as the regex it stands for. */
const REGEX_SHAPE = "<regex>";

/** A value with every leaf replaced by its kind, so that the shape names the query, not the data. */
export function shapeOf(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (value instanceof Date) return "<date>";
  if (isRegex(value)) return REGEX_SHAPE;
  if (Array.isArray(value)) {
    const kinds = new Map(value.map((item) => [JSON.stringify(shapeOf(item)), shapeOf(item)]));
    return [...kinds.values()];
  }
  if (typeof value !== "object") return `<${typeof value}>`;
  const bsonType = bsonTypeOf(value);
  if (typeof bsonType === "string") return `<${bsonType}>`;
  if (ArrayBuffer.isView(value)) return "<binary>";
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]));
}

function isDoc(value: unknown): value is Doc {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp) &&
    !ArrayBuffer.isView(value) &&
    bsonTypeOf(value) === undefined
  );
}

/** A regex, or a regex's place in a filter's shape. */
function isRegex(value: unknown): boolean {
  return value instanceof RegExp || bsonTypeOf(value) === "BSONRegExp" || value === REGEX_SHAPE;
}

function bsonTypeOf(value: unknown): unknown {
  return typeof value === "object" && value !== null
    ? (value as { _bsontype?: unknown })._bsontype
    : undefined;
}

function statements(value: unknown): Doc[] {
  return Array.isArray(value) ? value.filter(isDoc) : [];
}
