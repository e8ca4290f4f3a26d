import type { Collection } from "mongodb";
import type { Schema } from "mongoose";
import type { Logger } from "../logger";

/** MongoDB's codes for "not implemented" (the development database on `expireAfterSeconds`). */
const NOT_IMPLEMENTED = new Set([115, 238]);
/** An index on the same keys exists with other options (IndexOptionsConflict, IndexKeySpecsConflict). */
const CONFLICTING = new Set([85, 86]);

/** What index upkeep needs of a model: its declarations and its collection. */
export interface IndexedModel {
  schema: Pick<Schema, "indexes">;
  collection: Collection;
}

/**
 * Builds every index the models declare (mongoose's autoIndex is off, so this is the one place
 * that does) and drops the ones no model declares any more. Expiry by a TTL index is the
 * database's housekeeping, never what a rule rests on (a session past its `expiresAt` is
 * refused whether or not it is still stored): where the engine has no TTL indexes (the
 * development database) the field gets a plain index and expired documents stay until deleted.
 */
export async function ensureIndexes(models: readonly IndexedModel[], log: Logger): Promise<void> {
  const withoutExpiry: string[] = [];
  for (const model of models) {
    const declared = model.schema.indexes();
    for (const [fields, options = {}] of declared) {
      if (!(await createIndex(model, fields, options)))
        withoutExpiry.push(model.collection.collectionName);
    }
    await dropUndeclared(
      model,
      declared.map(([fields]) => keyOf(fields)),
    );
  }
  if (withoutExpiry.length > 0) {
    log.info(
      { collections: withoutExpiry },
      "the database has no TTL indexes; expired documents stay stored (and refused)",
    );
  }
}

type IndexFields = Record<string, unknown>;
type IndexOptions = Record<string, unknown> & { expireAfterSeconds?: number };

/** False when the engine refused the index's TTL and a plain index was built instead. */
async function createIndex(
  model: IndexedModel,
  fields: IndexFields,
  options: IndexOptions,
): Promise<boolean> {
  try {
    await model.collection.createIndex(fields as never, options);
    return true;
  } catch (error) {
    if (codeIn(error, CONFLICTING)) {
      // Declared anew with other options (say, unique or TTL added): the declaration wins.
      const existing = (await model.collection.indexes()).find(
        (index) => keyOf(index.key) === keyOf(fields),
      );
      if (existing?.name) await model.collection.dropIndex(existing.name);
      return createIndex(model, fields, options);
    }
    if (options.expireAfterSeconds === undefined || !codeIn(error, NOT_IMPLEMENTED)) throw error;
    const plain = Object.fromEntries(
      Object.entries(options).filter(([option]) => option !== "expireAfterSeconds"),
    );
    await model.collection.createIndex(fields as never, plain);
    return false;
  }
}

/** Indexes an earlier version declared: kept, they would cost every write for nothing. */
async function dropUndeclared(model: IndexedModel, declared: string[]): Promise<void> {
  for (const index of await model.collection.indexes()) {
    const key = keyOf(index.key);
    if (key === keyOf({ _id: 1 }) || declared.includes(key) || !index.name) continue;
    await model.collection.dropIndex(index.name);
  }
}

function keyOf(fields: IndexFields): string {
  return JSON.stringify(Object.entries(fields));
}

function codeIn(error: unknown, codes: Set<number>): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" && codes.has(code);
}
