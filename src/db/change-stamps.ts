import { createHash } from "node:crypto";
import { Schema, type Connection, type Model, type Query } from "mongoose";

/**
 * Change stamps: one small document per source collection, `{_id: <collection>, n}`, whose `n`
 * goes up by one after every write to that collection. A public read names the collections its
 * answer is made of; the stamps of those (one read by `_id`) name the answer's version, so a
 * client's If-None-Match is answered without running the read itself.
 */
export const CHANGE_STAMPS = "change_stamps";

/** The collections public reads are made of; each carries the plugin below on its schema. */
export type StampedSource =
  | "members"
  | "events"
  | "news_posts"
  | "branch_services"
  | "offices"
  | "office_holders"
  | "member_requirements"
  | "files"
  | "users"
  | "member_certificates"
  | "member_public_records"
  | "member_follows"
  | "membership_terms";

interface StampRecord {
  _id: string;
  n: number;
}

/**
 * A source whose public answer changes with time alone (a post scheduled for later comes out
 * without any write): the newest `field` at or before now, among records matching `filter`,
 * is part of its version. The schema must hold an index on the filter's fields then `field`.
 */
export interface DueRule {
  filter: Record<string, unknown>;
  field: string;
}

const dueRules = new Map<StampedSource, DueRule>();
const sources = new Set<StampedSource>();

/** Every mongoose write path: document, query and model middleware. */
const DOCUMENT_WRITES = ["save", "deleteOne", "updateOne"] as const;
const QUERY_WRITES = [
  "updateOne",
  "updateMany",
  "findOneAndUpdate",
  "findOneAndDelete",
  "findOneAndReplace",
  "replaceOne",
  "deleteOne",
  "deleteMany",
] as const;
const MODEL_WRITES = ["insertMany", "bulkWrite"] as const;

/**
 * How long a replica may answer revalidations from a version it read, when it made no write
 * since: a write through another replica is seen here at most this much later. Safe beside
 * `max-age=60` (docs/decisions.md, "The ETag is a version").
 */
export const VERSION_MAX_AGE_MS = 1000;

/**
 * Bumps made through each connection (a replica's own writes), counted once acknowledged: a
 * version read before the count moved is not used again, so a replica answers its own writes
 * at once. On the connection object itself: one process may hold several (tests run replicas).
 */
const LOCAL_BUMPS = Symbol("localBumps");
type Counted = Connection & { [LOCAL_BUMPS]?: number };
const localBumpsOf = (connection: Counted) => connection[LOCAL_BUMPS] ?? 0;

/** Adds one to the source's stamp: an atomic upsert, so concurrent writers never lose a bump. */
export async function bumpStamp(connection: Connection, source: string): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error("the database connection is not open");
  await db
    .collection<StampRecord>(CHANGE_STAMPS)
    .updateOne({ _id: source }, { $inc: { n: 1 } }, { upsert: true });
  (connection as Counted)[LOCAL_BUMPS] = localBumpsOf(connection) + 1;
}

/**
 * Writes that go around mongoose (the driver, migrations at start) cannot be seen one by one:
 * after them every source is bumped once, so no answer read before them is taken as current.
 */
export async function bumpEverySource(connection: Connection): Promise<void> {
  await Promise.all([...sources].map((source) => bumpStamp(connection, source)));
}

/**
 * The schema plugin: after any write through mongoose, the collection's stamp goes up. A post
 * hook runs once the write is acknowledged, so a reader that sees the old stamp may at worst
 * see the new data with it (a 200 it did not need), never an old answer under a new stamp.
 */
export function changeStamped(schema: Schema, options: { source: StampedSource; due?: DueRule }) {
  sources.add(options.source);
  if (options.due) dueRules.set(options.source, options.due);
  const bump = (connection: Connection) => bumpStamp(connection, options.source);
  for (const name of DOCUMENT_WRITES) {
    schema.post(
      name,
      { document: true, query: false },
      async function (this: { constructor: Model<unknown> }) {
        await bump(this.constructor.db);
      },
    );
  }
  for (const name of QUERY_WRITES) {
    schema.post(
      name,
      { document: false, query: true },
      async function (this: Query<unknown, unknown>, result: unknown) {
        if (!changedNothing(result, this.getOptions().upsert === true)) await bump(this.model.db);
      },
    );
  }
  for (const name of MODEL_WRITES) {
    schema.post(name, async function (this: Model<unknown>) {
      await bump(this.db);
    });
  }
}

/** Read and written by `_id` only: the implicit index is all it needs. */
const changeStampSchema = new Schema<StampRecord>(
  { _id: { type: String, required: true }, n: { type: Number, required: true } },
  { versionKey: false },
);

/**
 * An update or delete the server reports as matching nothing (a conditional write that lost, a
 * sweep that found nothing due) leaves every answer as it was: no bump, so periodic sweeps do
 * not make every client download again. So does a findOneAnd… that found no document (null),
 * unless it upserts: then null is the document before an insert. Anything else bumps.
 */
export function changedNothing(result: unknown, upsert = false): boolean {
  if (result === null) return !upsert;
  if (typeof result !== "object") return false;
  const counts = result as {
    matchedCount?: unknown;
    upsertedCount?: unknown;
    deletedCount?: unknown;
  };
  if (typeof counts.deletedCount === "number") return counts.deletedCount === 0;
  return counts.matchedCount === 0 && (counts.upsertedCount ?? 0) === 0;
}

/** A version read, kept for the revalidations that follow it closely. */
interface RememberedVersion {
  version: Promise<string>;
  /** When it was read (the `now` it was read as of), in ms. */
  readAt: number;
  /** This replica's bumps when the read began. */
  bumps: number;
}

/**
 * Reads the version of a public answer made of some sources, as of `now`. A version read is
 * remembered per set of sources (a handful: those the routes declare) for VERSION_MAX_AGE_MS,
 * and until this replica writes to any source: concurrent and following revalidations share
 * it instead of each reading the stamps. It names a state; no answer or record is kept.
 */
export class ChangeStamps {
  private readonly remembered = new Map<string, RememberedVersion>();

  constructor(
    private readonly connection: Connection,
    /** The service's time, so a scheduled post's due time passes when the service says it has. */
    private readonly clock: () => Date = () => new Date(),
  ) {
    // Declared as a model so the collection's queries are known to be served by `_id`.
    if (!connection.models.ChangeStamp)
      connection.model<StampRecord>("ChangeStamp", changeStampSchema, CHANGE_STAMPS);
  }

  /** The sources' version as of `now`, read at most VERSION_MAX_AGE_MS earlier (see above). */
  version(names: readonly StampedSource[], now: Date = this.clock()): Promise<string> {
    const key = names.join("|");
    const at = now.getTime();
    const bumps = localBumpsOf(this.connection);
    const known = this.remembered.get(key);
    if (
      known &&
      known.bumps === bumps &&
      at >= known.readAt &&
      at - known.readAt < VERSION_MAX_AGE_MS
    )
      return known.version;
    const read: RememberedVersion = { version: this.read(names, now), readAt: at, bumps };
    this.remembered.set(key, read);
    // A failed read is not kept: the next request reads again.
    read.version.catch(() => {
      if (this.remembered.get(key) === read) this.remembered.delete(key);
    });
    return read.version;
  }

  /**
   * An opaque text naming the sources' state: their stamps (one query by `_id`) and, for a
   * time-dependent source, the newest due time already past (one indexed point read).
   */
  private async read(names: readonly StampedSource[], now: Date): Promise<string> {
    const db = this.connection.db;
    if (!db) throw new Error("the database connection is not open");
    const [stamps, ...dues] = await Promise.all([
      db
        .collection<StampRecord>(CHANGE_STAMPS)
        .find({ _id: { $in: [...names] } })
        .toArray(),
      ...names.map(async (name) => {
        const rule = dueRules.get(name);
        if (!rule) return "";
        const newest = await db
          .collection(name)
          .find({ ...rule.filter, [rule.field]: { $lte: now } })
          .sort({ [rule.field]: -1 })
          .limit(1)
          .project({ [rule.field]: 1 })
          .toArray();
        return `${name}@${(newest[0]?.[rule.field] as Date | undefined)?.toISOString() ?? "-"}`;
      }),
    ]);
    const byName = new Map(stamps.map((stamp) => [stamp._id, stamp.n]));
    const parts = names.map((name) => `${name}:${byName.get(name) ?? 0}`);
    return createHash("sha256")
      .update([...parts, ...dues].join("|"))
      .digest("base64url")
      .slice(0, 32);
  }
}
