import type { Model, ProjectionType } from "mongoose";
import { oneOf } from "./operators";

/** Stays under the number of ids the FerretDB patch hands to SQLite as one IN list. */
const IDS_PER_QUERY = 1000;

/**
 * The records with these primary keys, in the order of `ids`, leaving out any that are gone.
 * One `_id $in` query per thousand ids: MongoDB answers it from the _id index, and so does the
 * embedded FerretDB with the pushdown patch of ferretdb-install.ts (an unpatched FerretDB
 * scans the collection, but it scans for a single `_id` lookup as well).
 */
export async function findByIds<T extends { _id: string }>(
  model: Model<T>,
  ids: readonly string[],
  projection?: ProjectionType<T>,
): Promise<T[]> {
  const unique = [...new Set(ids)];
  const found = new Map<string, T>();
  for (let first = 0; first < unique.length; first += IDS_PER_QUERY) {
    const slice = unique.slice(first, first + IDS_PER_QUERY);
    const records = await model.find({ _id: oneOf(slice) }, projection).lean<T[]>();
    for (const record of records) found.set(record._id, record);
  }
  return ids.flatMap((id) => {
    const record = found.get(id);
    return record ? [record] : [];
  });
}
