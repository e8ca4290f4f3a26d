import type { Connection } from "mongoose";
import type { Logger } from "../logger";
import { bumpEverySource } from "./change-stamps";

/**
 * Collections that no code reads or writes (a change log, claim and lock records, email key
 * documents and their backfill record), which a database written by an earlier version still
 * holds: dropped at start, since what they hold would be kept for no purpose.
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
  // Steps may write through the driver, unseen by the change-stamp plugin: whatever a public
  // read answered before this start is not taken as current after it.
  await bumpEverySource(connection);
}
