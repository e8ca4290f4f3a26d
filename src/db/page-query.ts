import type { Model, SortOrder } from "mongoose";
import { containing } from "./operators";

/** A 1-based page of `limit` records. */
export interface PageWindow {
  page: number;
  limit: number;
}

export interface FoundPage<T> {
  records: T[];
  total: number;
}

/**
 * One page of a sorted query and the count of everything it matches. The caller's sort must
 * end in a unique field (`_id`, or a unique key) so that pages neither repeat nor skip a
 * record, and the schema must declare an index that provides that sort after the filter's
 * equality fields. Without a filter the count is the collection's own, read from its metadata.
 */
export async function findPage<T>(
  model: Model<T>,
  filter: Record<string, unknown>,
  sort: Record<string, SortOrder>,
  window: PageWindow,
): Promise<FoundPage<T>> {
  const [records, total] = await Promise.all([
    model
      .find(filter)
      .sort(sort)
      .skip((window.page - 1) * window.limit)
      .limit(window.limit)
      .lean<T[]>()
      .exec(),
    Object.keys(filter).length === 0
      ? model.estimatedDocumentCount().exec()
      : model.countDocuments(filter).exec(),
  ]);
  return { records, total };
}

/**
 * What the contract's `search` looks in, as one lower-cased field: an index on it lets a
 * count match the text on index keys alone, where a case-insensitive match on each field
 * would read every document.
 */
export function searchableText(...parts: (string | null | undefined)[]): string {
  return parts
    .filter((part) => part)
    .join("\n")
    .toLowerCase();
}

/**
 * The contract's `search`, a case-insensitive substring taken literally, on a field written
 * by searchableText. No condition for a missing or blank search.
 */
export function searchFilter(search: string | null | undefined, field = "searchText") {
  const text = search?.trim().toLowerCase();
  return text ? { [field]: containing(text) } : {};
}
