import { getNamedType, isEnumType, type GraphQLObjectType } from "graphql";
import { MOCK_TOTAL, recordOf } from "./mock-records";
import { ENTITY_OF_TYPE, mockId } from "./mock-values";

type Args = Record<string, unknown>;
type Row = Record<string, unknown>;

/** Arguments that shape a page rather than pick records. */
const NOT_FILTERS = new Set(["id", "page", "limit", "offset", "search", "sortBy", "sortOrder"]);
/** `sortBy: title` sorts offices by name, as the service does. */
const SORT_ALIASES: Record<string, string> = { title: "name" };

/** The roster's index-th record of a type: what its list row and its detail both answer. */
export function rosterRecord(type: GraphQLObjectType, index: number, seed: string): Row {
  return recordOf(type, { seed, index, key: String(index) });
}

/** The number of the roster record a type's id names, or undefined for an id of no record. */
export function rosterIndexOf(
  type: GraphQLObjectType,
  id: string,
  seed: string,
): number | undefined {
  const entity = ENTITY_OF_TYPE[type.name];
  if (!entity) return undefined;
  const index = Array.from({ length: MOCK_TOTAL }, (_, i) => i).find(
    (i) => mockId(seed, entity, i) === id,
  );
  return index;
}

/**
 * Every record a list would hold with these arguments, in its order: the roster of MOCK_TOTAL
 * records filtered as the service filters (an enum or id argument naming a field, `search` as
 * a case-insensitive substring, `from`/`to` on the time), then sorted (`sortBy`/`sortOrder`,
 * newest first otherwise, which is the roster's own order).
 */
export function listRecords(type: GraphQLObjectType, args: Args, seed: string): Row[] {
  const fields = type.getFields();
  let rows = Array.from({ length: MOCK_TOTAL }, (_, i) => rosterRecord(type, i, seed));
  for (const [name, value] of Object.entries(args)) {
    if (NOT_FILTERS.has(name) || typeof value !== "string" || !fields[name]) continue;
    rows = rows.filter((row) => row[name] === value);
  }
  if (args.includeArchived !== true && fields.archivedAt)
    rows = rows.filter((row) => row.archivedAt === null);
  if (args.from instanceof Date || args.to instanceof Date) rows = rows.filter(within(args));
  const needle = typeof args.search === "string" ? args.search.trim().toLowerCase() : "";
  if (needle) rows = rows.filter((row) => searchTextOf(row).includes(needle));
  return sorted(rows, type, args);
}

/** What `search` looks through: the record's text, its people's names and emails. */
function searchTextOf(row: Row): string {
  const texts: string[] = [];
  if (typeof row.firstName === "string" && typeof row.lastName === "string")
    texts.push(`${row.firstName} ${row.lastName}`);
  for (const value of Object.values(row)) {
    if (typeof value === "string") texts.push(value);
    else if (value && typeof value === "object" && !Array.isArray(value))
      texts.push(...Object.values(value).filter((inner) => typeof inner === "string"));
  }
  return texts.join("\n").toLowerCase();
}

function within(args: Args) {
  return (row: Row) => {
    const at = typeof row.at === "string" ? new Date(row.at) : undefined;
    if (!at) return true;
    if (args.from instanceof Date && at < args.from) return false;
    return !(args.to instanceof Date && at >= args.to);
  };
}

function sorted(rows: Row[], type: GraphQLObjectType, args: Args): Row[] {
  if (typeof args.sortBy !== "string") return rows;
  const key = SORT_ALIASES[args.sortBy] ?? args.sortBy;
  const field = type.getFields()[key];
  if (!field) return rows;
  const named = getNamedType(field.type);
  // An enum sorts by its declared order (office levels: the hierarchy), not by its letters.
  const rank = isEnumType(named)
    ? new Map(named.getValues().map((value, i) => [value.value as unknown, i]))
    : undefined;
  const valueOf = (row: Row) => {
    const value = row[key];
    if (rank) return rank.get(value) ?? 0;
    return typeof value === "string" || typeof value === "number" ? value : "";
  };
  const direction = args.sortOrder === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [valueOf(a), valueOf(b)];
    return x < y ? -direction : x > y ? direction : 0;
  });
}
