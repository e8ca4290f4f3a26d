/**
 * What the capacity plan is worked out from: every model's declared indexes, read from the
 * schemas of the service's own composition root, the sizes of the stored values, sampled
 * from a benchmark database after the run, and the queries the test suite recorded.
 */
import { BSON, type Document } from "mongodb";
import type { Connection, Schema } from "mongoose";
import { loadConfig } from "../src/config";
import { connectDatabase } from "../src/db/connection";
import { createLogger } from "../src/logger";
import { resolveJwtSecret } from "../src/modules/auth/jwt-secret";
import { createServices } from "../src/services";
import { readRecorded, type RecordedQueries } from "../tests/support/recorded-queries";

/** Documents read from each collection to measure its values. */
const SAMPLE = 1000;

export type IndexKey = Record<string, 1 | -1>;

export interface DeclaredIndex {
  key: IndexKey;
  /** As the schema declares them (`unique`, `sparse`, a partial filter, a TTL). */
  options: Record<string, unknown>;
}

interface FieldSize {
  /** Average bytes of one index key value of the field (one element of an array). */
  keyBytes: number;
  /** Average index entries a document gives for the field: its elements, for an array. */
  entriesPerDocument: number;
  /** False when the collection was empty and the size is the schema type's assumed one. */
  measured: boolean;
}

export interface CollectionStats {
  name: string;
  documents: number;
  /** Average BSON size of a document; null when the collection was empty. */
  documentBytes: number | null;
  indexes: DeclaredIndex[];
  /** Every field an index names, `_id` included. */
  fields: Record<string, FieldSize>;
}

export interface CapacityInput {
  /** The member count of the sampled database. */
  members: number;
  collections: CollectionStats[];
  /** The queries the test suite sent, for the plan of each on MongoDB. */
  recorded: RecordedQueries;
}

/**
 * A value's size as an index key: strings by their UTF-8 length and a type byte and
 * terminator, dates and numbers as 8 bytes and a type byte, null and booleans about a byte.
 */
function keyBytesOf(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === "string") return Buffer.byteLength(value) + 2;
  if (typeof value === "boolean") return 2;
  if (typeof value === "number" || value instanceof Date) return 9;
  return BSON.calculateObjectSize({ value }) - 7;
}

/** What a schema type's value is assumed to take when no document shows one. */
function assumedKeyBytes(schema: Schema, field: string): number {
  const instance = (schema.path(field) as { instance?: string } | undefined)?.instance;
  if (instance === "Date" || instance === "Number") return 9;
  if (instance === "Boolean") return 2;
  // Most of our string keys are UUIDs (36 characters).
  return 38;
}

function fieldSize(schema: Schema, field: string, sample: Document[]): FieldSize {
  if (sample.length === 0) {
    return { keyBytes: assumedKeyBytes(schema, field), entriesPerDocument: 1, measured: false };
  }
  let bytes = 0;
  let entries = 0;
  for (const document of sample) {
    const value: unknown = document[field];
    const values = Array.isArray(value) ? value : [value];
    // An empty array is indexed as one undefined key.
    if (values.length === 0) values.push(undefined);
    for (const one of values) bytes += keyBytesOf(one);
    entries += values.length;
  }
  return { keyBytes: bytes / entries, entriesPerDocument: entries / sample.length, measured: true };
}

/**
 * The service's own services (its composition root) over `env`'s database in this process,
 * for `use`; closed afterwards. `monitorCommands`: the driver reports every command.
 */
export async function withServices<T>(
  uri: string,
  env: Record<string, string>,
  use: (services: ReturnType<typeof createServices>, connection: Connection) => Promise<T>,
  monitorCommands = false,
): Promise<T> {
  const config = loadConfig(env);
  const connection = await connectDatabase({ uri, dbName: config.dbName, monitorCommands });
  const services = createServices(
    connection,
    config,
    resolveJwtSecret(config.jwtSecret, config.dataDir),
    createLogger(config),
  );
  try {
    return await use(services, connection);
  } finally {
    await services.close();
    await connection.close();
  }
}

/** The declared indexes and sampled sizes of every model's collection in `env`'s database. */
export function sampleCollections(
  uri: string,
  env: Record<string, string>,
  members: number,
): Promise<CapacityInput> {
  return withServices(uri, env, async (services) => {
    const collections: CollectionStats[] = [];
    for (const model of services.models) {
      const schema = model.schema as Schema;
      const sample = await model.collection.find({}, { limit: SAMPLE }).toArray();
      const indexes: DeclaredIndex[] = schema.indexes().map(([key, options]) => ({
        key: key as IndexKey,
        options: { ...options },
      }));
      const fields = new Set(["_id", ...indexes.flatMap((index) => Object.keys(index.key))]);
      collections.push({
        name: model.collection.collectionName,
        documents: await model.collection.estimatedDocumentCount(),
        documentBytes:
          sample.length === 0
            ? null
            : sample.reduce((total, document) => total + BSON.calculateObjectSize(document), 0) /
              sample.length,
        indexes,
        fields: Object.fromEntries(
          [...fields].map((field) => [field, fieldSize(schema, field, sample)]),
        ),
      });
    }
    return { members, collections, recorded: readRecorded() };
  });
}
