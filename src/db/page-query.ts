import type { Model, SortOrder } from "mongoose";

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
