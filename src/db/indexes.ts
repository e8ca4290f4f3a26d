import type { Collection } from "mongodb";
import type { Schema } from "mongoose";
import type { Logger } from "../logger";

/** How often the service deletes expired documents where the engine has no TTL indexes. */
const SWEEP_INTERVAL_MS = 60_000;

/** MongoDB's codes for "not implemented" (FerretDB v1 on `expireAfterSeconds`). */
const NOT_IMPLEMENTED = new Set([115, 238]);
/** An index on the same keys exists with other options (IndexOptionsConflict, IndexKeySpecsConflict). */
const CONFLICTING = new Set([85, 86]);

/** What index upkeep needs of a model: its declarations and its collection. */
export interface IndexedModel {
  schema: Pick<Schema, "indexes">;
  collection: Collection;
}

interface Expiry {
  model: IndexedModel;
  field: string;
  afterSeconds: number;
}

/** Stops the expiry sweep, if the engine needed one. */
export interface IndexMaintenance {
  /** Collections whose expired documents the service deletes itself (none on MongoDB). */
  sweptCollections: string[];
  /** Deletes what has expired now; the timer calls it too. */
  sweep(): Promise<void>;
  stop(): void;
}

/**
 * Builds every index the models declare (mongoose's autoIndex is off, so this is the one place
 * that does) and drops the ones no model declares any more. A TTL index the engine refuses
 * becomes a plain index on the same field, and the service then deletes expired documents
 * itself with one indexed deleteMany per collection.
 */
export async function ensureIndexes(
  models: readonly IndexedModel[],
  log: Logger,
): Promise<IndexMaintenance> {
  const swept: Expiry[] = [];
  for (const model of models) {
    const declared = model.schema.indexes();
    for (const [fields, options = {}] of declared) {
      if (!(await createIndex(model, fields, options))) {
        swept.push({
          model,
          field: Object.keys(fields)[0],
          afterSeconds: options.expireAfterSeconds as number,
        });
      }
    }
    await dropUndeclared(
      model,
      declared.map(([fields]) => keyOf(fields)),
    );
  }
  const sweep = async () => {
    for (const { model, field, afterSeconds } of swept) {
      const cutoff = new Date(Date.now() - afterSeconds * 1000);
      await model.collection.deleteMany({ [field]: { $lt: cutoff } });
    }
  };
  const sweptCollections = swept.map(({ model }) => model.collection.collectionName);
  if (swept.length === 0) return { sweptCollections, sweep, stop: () => undefined };
  log.info(
    { collections: sweptCollections, everySeconds: SWEEP_INTERVAL_MS / 1000 },
    "the database engine has no TTL indexes; the service deletes expired documents itself",
  );
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => log.warn({ err: error }, "expired documents not deleted"));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return { sweptCollections, sweep, stop: () => clearInterval(timer) };
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
