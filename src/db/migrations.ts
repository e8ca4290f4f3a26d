import type { Connection } from "mongoose";
import type { Logger } from "../logger";

/**
 * Collections of the layout before the data layer used the database's own indexes: a change
 * log that instances polled, claim and lock records, email key documents, and the record that
 * the email keys had been backfilled. Nothing reads them any more.
 */
const RETIRED_COLLECTIONS = ["changes", "claims", "locks", "user_email_keys", "migrations"];

/** One domain's part of a migration: brings its records up to date, says how many it changed. */
export interface MigrationStep {
  name: string;
  run(): Promise<number>;
}

/**
 * Brings a database written by an earlier version to the current layout, at start, before
 * indexes are built. Each step finds nothing to do once done, so every instance may run it.
 */
export async function migrateDatabase(
  connection: Connection,
  steps: readonly MigrationStep[],
  log: Logger,
): Promise<void> {
  const db = connection.db;
  if (!db) throw new Error("the database connection is not open");
  const present = new Set(
    (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name),
  );
  for (const name of RETIRED_COLLECTIONS) {
    if (!present.has(name)) continue;
    await db.dropCollection(name);
    log.info({ collection: name }, "retired collection dropped");
  }
  for (const step of steps) {
    const changed = await step.run();
    if (changed > 0) log.info({ records: changed }, `migrated: ${step.name}`);
  }
}
