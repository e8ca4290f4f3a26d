/**
 * The plan MongoDB would give a query, worked out on paper from the declared indexes: the
 * index that binds the most of the filter's equality fields and then gives the sort (ESR),
 * with the stages `explain` would show. MongoDB's planner may race several candidates; of
 * those, this names the one with the tightest bounds (and, for a count, the one that needs
 * no document).
 */
import type { IndexKey } from "./collection-stats";

/** How a filter matches a field: one value (or a few, `$in`), a range, or a regex. */
export type Match = "eq" | "in" | "range" | "regex";

export interface PlannedQuery {
  collection: string;
  /** Only the forms below are planned; a by-`_id` query is always IDHACK or an `_id` IXSCAN. */
  command:
    | "find"
    | "page"
    | "count"
    | "exists"
    | "update"
    | "delete"
    | "metadata count"
    /** An insert or update that a unique index on the filter's field refuses as a duplicate. */
    | "unique write";
  filter: Record<string, Match>;
  sort?: IndexKey;
  /**
   * The fields the command reads besides the filter's (an aggregation's `$group` keys): an
   * index holding them and the filter's fields answers without a FETCH, and is preferred.
   */
  reads?: string[];
}

export interface Plan {
  /** The index scanned; null for a collection scan or the collection's metadata. */
  index: IndexKey | null;
  /** The stages, first to last, as `explain` names them. */
  stages: string[];
  /** False when MongoDB would scan the collection or sort in memory. */
  served: boolean;
}

const ID_INDEX: IndexKey = { _id: 1 };

export function indexText(key: IndexKey): string {
  return `{ ${Object.entries(key)
    .map(([field, direction]) => `${field}: ${direction}`)
    .join(", ")} }`;
}

interface Candidate {
  key: IndexKey;
  /** Equality fields bound by the index's leading keys. */
  bound: number;
  /** Every filtered field is in the index: a count needs no document. */
  covering: boolean;
}

function candidateOf(key: IndexKey, query: PlannedQuery): Candidate | undefined {
  const entries = Object.entries(key);
  const fields = Object.keys(query.filter);
  const isEquality = (field: string) => ["eq", "in"].includes(query.filter[field] ?? "");
  let bound = 0;
  while (bound < entries.length && isEquality(entries[bound][0])) bound += 1;
  const rest = entries.slice(bound);
  const order = Object.entries(query.sort ?? {});
  if (order.length > 0) {
    const same = order.every(([f, d], i) => rest[i]?.[0] === f && rest[i][1] === d);
    const reversed = order.every(([f, d], i) => rest[i]?.[0] === f && rest[i][1] === -d);
    if (!same && !reversed) return undefined;
  } else if (bound === 0) {
    // Without a sort an index is only worth scanning for a field it leads with.
    if (!fields.includes(entries[0][0])) return undefined;
  }
  const covering = [...fields, ...(query.reads ?? [])].every((field) => field in key);
  return { key, bound, covering };
}

function better(a: Candidate, b: Candidate, wantsCovering: boolean): Candidate {
  if (a.bound !== b.bound) return a.bound > b.bound ? a : b;
  if (wantsCovering && a.covering !== b.covering) return a.covering ? a : b;
  return Object.keys(a.key).length <= Object.keys(b.key).length ? a : b;
}

export function planOf(query: PlannedQuery, declared: readonly IndexKey[]): Plan {
  if (query.command === "metadata count") {
    return { index: null, stages: ["COUNT (the collection's metadata)"], served: true };
  }
  if (query.command === "unique write") {
    const field = Object.keys(query.filter)[0];
    const unique = declared.find((key) => Object.keys(key).join() === field);
    return unique
      ? { index: unique, stages: ["the write's own check of the unique index"], served: true }
      : { index: null, stages: ["no unique index: duplicates are not refused"], served: false };
  }
  if (query.filter._id === "eq") {
    return { index: ID_INDEX, stages: ["IDHACK"], served: true };
  }
  const wantsCovering = ["count", "exists"].includes(query.command) || query.reads !== undefined;
  let chosen: Candidate | undefined;
  for (const key of [ID_INDEX, ...declared]) {
    const candidate = candidateOf(key, query);
    if (candidate) chosen = chosen ? better(chosen, candidate, wantsCovering) : candidate;
  }
  if (!chosen) {
    const sort = query.sort && Object.keys(query.sort).length > 0 ? ["SORT"] : [];
    return { index: null, stages: ["COLLSCAN", ...sort, ...tail(query)], served: false };
  }
  return { index: chosen.key, stages: stagesOf(query, chosen), served: true };
}

function stagesOf(query: PlannedQuery, chosen: Candidate): string[] {
  const fields = Object.keys(query.filter);
  const entries = Object.keys(chosen.key);
  const bounds = entries.slice(0, chosen.bound);
  const next = entries[chosen.bound];
  if (next !== undefined && query.filter[next] === "range") bounds.push(next);
  const onKeys = fields.filter((field) => field in chosen.key && !bounds.includes(field));
  const onDocuments = fields.filter((field) => !(field in chosen.key));
  const scan =
    `IXSCAN ${indexText(chosen.key)}` +
    (bounds.length > 0 ? ` (bounds on ${bounds.join(", ")})` : " (every key, in order)") +
    (onKeys.length > 0 ? ` filtering ${onKeys.join(", ")} on the keys` : "");
  const countOnly = query.command === "count" && onDocuments.length === 0;
  if (countOnly) {
    const countScan = onKeys.length === 0 && bounds.length === fields.length;
    return countScan ? [`COUNT_SCAN ${indexText(chosen.key)}`, "COUNT"] : [scan, "COUNT"];
  }
  if (query.reads && chosen.covering) return [scan, "PROJECTION_COVERED", ...tail(query)];
  const fetch = onDocuments.length > 0 ? `FETCH filtering ${onDocuments.join(", ")}` : "FETCH";
  return [scan, fetch, ...tail(query)];
}

function tail(query: PlannedQuery): string[] {
  switch (query.command) {
    case "page":
      return ["SKIP", "LIMIT"];
    case "exists":
      return ["LIMIT 1"];
    case "count":
      return ["COUNT"];
    case "update":
      return ["UPDATE"];
    case "delete":
      return ["DELETE"];
    case "find":
    case "metadata count":
    case "unique write":
      return [];
  }
}
