import type { Collection } from "mongodb";
import { containing } from "./operators";

/** Joins the searchable parts; no search term can contain it (see searchTerm). */
const SEPARATOR = "\u001f";

/**
 * What the contract's `search` (a case-insensitive substring) looks in, as one stored field:
 * the parts NFKC-normalised and lower-cased, so a search is a plain regex on one indexed field
 * and a count with a search matches index keys alone.
 */
export function searchableText(...parts: (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => Boolean(part))
    .map(normalise)
    .join(SEPARATOR);
}

/** A client's search as searchableText holds text; empty when nothing is left to match. */
export function searchTerm(search: string | null | undefined): string {
  // Control characters (the separator among them) never match across two parts.
  const printable = [...(search ?? "")].filter((char) => char >= " ").join("");
  return normalise(printable).trim();
}

/** The filter for `search` on a field written by searchableText; none for a blank search. */
export function searchFilter(search: string | null | undefined, field = "searchText") {
  const term = searchTerm(search);
  return term ? { [field]: containing(term) } : {};
}

function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/**
 * Records written before `searchText` existed get it from their `fields` (a migration step);
 * returns how many. Through the driver, so the records' `updatedAt` stays as it was.
 */
export async function backfillSearchText(
  collection: Collection<{ _id: string }>,
  fields: readonly string[],
): Promise<number> {
  const projection = Object.fromEntries(fields.map((field) => [field, 1]));
  const stale = collection.find({ searchText: null }, { projection, batchSize: 500 });
  let changed = 0;
  for await (const record of stale) {
    const parts = fields.map(
      (field) => (record as Record<string, unknown>)[field] as string | null,
    );
    const { modifiedCount } = await collection.updateOne(
      { _id: record._id, searchText: null },
      { $set: { searchText: searchableText(...parts) } },
    );
    changed += modifiedCount;
  }
  return changed;
}
