/**
 * What the capacity plan is worked out from: every model's declared indexes, the sizes of the
 * stored values in a benchmark database after the run, and the queries the tests recorded.
 */
import { BSON, type Document } from "mongodb";
import type { Connection, Schema } from "mongoose";
import { loadConfig } from "../src/config";
import { connectDatabase } from "../src/db/connection";
import { createLogger } from "../src/logger";
import { resolveJwtSecret } from "../src/modules/auth/jwt-secret";
import { createServices } from "../src/services";
import { readRecorded } from "../tests/support/recorded-queries";
import { sum } from "./report-sections";

export type CapacityInput = Awaited<ReturnType<typeof sampleCollections>>;
export type CollectionStats = CapacityInput["collections"][number];
/** As the schema declares it (`unique`, `sparse`, a partial filter, a TTL). */
export type DeclaredIndex = { key: Record<string, 1 | -1>; options: Record<string, unknown> };

/** A value's size as an index key, with its type byte (and a string's terminator). */
function keyBytesOf(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === "string") return Buffer.byteLength(value) + 2;
  if (typeof value === "boolean") return 2;
  if (typeof value === "number" || value instanceof Date) return 9;
  return BSON.calculateObjectSize({ value }) - 7;
}

function fieldSize(schema: Schema, field: string, sample: Document[]) {
  if (sample.length === 0) {
    const instance = (schema.path(field) as { instance?: string } | undefined)?.instance;
    // Most string keys are UUIDs (36 characters).
    const keyBytes =
      instance === "Date" || instance === "Number" ? 9 : instance === "Boolean" ? 2 : 38;
    return { keyBytes, entriesPerDocument: 1, measured: false };
  }
  // An array gives a key per element; an empty one is indexed as one undefined key.
  const keys = sample.flatMap((document): unknown[] => {
    const value: unknown = document[field];
    return !Array.isArray(value) ? [value] : value.length > 0 ? value : [undefined];
  });
  const keyBytes = sum(keys.map(keyBytesOf)) / keys.length;
  return { keyBytes, entriesPerDocument: keys.length / sample.length, measured: true };
}

/** The service's own services over `env`'s database in this process, for `use`. */
export async function withServices<T>(
  uri: string,
  env: Record<string, string>,
  use: (services: ReturnType<typeof createServices>, connection: Connection) => Promise<T>,
  monitorCommands = false,
): Promise<T> {
  const config = loadConfig(env);
  const connection = await connectDatabase({ uri, dbName: config.dbName, monitorCommands });
  const secret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const services = createServices(connection, config, secret, createLogger(config));
  try {
    return await use(services, connection);
  } finally {
    await services.close();
    await connection.close();
  }
}

/**
 * Every model's declared indexes and, for each field one names, the mean bytes of a key value
 * and index entries per document in up to 1 000 documents (assumed when there are none).
 */
export function sampleCollections(uri: string, env: Record<string, string>, members: number) {
  return withServices(uri, env, async (services) => {
    const collections = [];
    for (const model of services.models) {
      const schema = model.schema as Schema;
      const sample = await model.collection.find({}, { limit: 1000 }).toArray();
      const indexes: DeclaredIndex[] = schema
        .indexes()
        .map(([key, options]) => ({ key: key as DeclaredIndex["key"], options: { ...options } }));
      const fields = new Set(["_id", ...indexes.flatMap((index) => Object.keys(index.key))]);
      const bytes = sum(sample.map((document) => BSON.calculateObjectSize(document)));
      collections.push({
        name: model.collection.collectionName,
        documents: await model.collection.estimatedDocumentCount(),
        documentBytes: sample.length === 0 ? null : bytes / sample.length,
        indexes,
        fields: Object.fromEntries(
          [...fields].map((field) => [field, fieldSize(schema, field, sample)]),
        ),
      });
    }
    return { members, collections, recorded: readRecorded() };
  });
}
