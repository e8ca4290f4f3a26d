import type { Collection } from "mongodb";
import type { Model } from "mongoose";

/** Stays under the number of ids the FerretDB patch hands to SQLite as one IN list. */
const IDS_PER_QUERY = 1000;

/**
 * The records with these primary keys, in the order of `ids`, leaving out any that are gone.
 * One `_id $in` query per thousand ids, which MongoDB answers from the _id index (and so does
 * the embedded FerretDB, through its `id-pushdown` patch). Sent through the driver: every `_id`
 * here is a string built by the service, so there is nothing for mongoose to cast or sanitise.
 */
export async function findByIds<T extends { _id: string }>(
  model: Model<T>,
  ids: readonly string[],
  projection?: Record<string, 1>,
): Promise<T[]> {
  // mongoose types every model's collection as holding ObjectId keys; these hold strings.
  const collection = model.collection as unknown as Collection<{ _id: string }>;
  const unique = [...new Set(ids)];
  const found = new Map<string, T>();
  for (let first = 0; first < unique.length; first += IDS_PER_QUERY) {
    const slice = unique.slice(first, first + IDS_PER_QUERY);
    const records = await collection.find<T>({ _id: { $in: slice } }, { projection }).toArray();
    for (const record of records) found.set(record._id, record);
  }
  return ids.flatMap((id) => {
    const record = found.get(id);
    return record ? [record] : [];
  });
}
