import { Schema, type Connection } from "mongoose";

/**
 * The scheduler's collection, declared here only for its index: agenda writes and reads the
 * documents itself (src/jobs/scheduler.ts), and this service builds every index it queries by,
 * so agenda's own index creation is off and start-up keeps this one.
 */
const jobSchema = new Schema({}, { strict: false, versionKey: false, autoCreate: false });
// agenda's "find and lock the next job": one name, due first (ties by priority), unlocked or
// with a lock past its lifetime. Also serves the upsert of a recurring job by name.
jobSchema.index({ name: 1, nextRunAt: 1, priority: -1, lockedAt: 1, disabled: 1 });

export const JOBS_COLLECTION = "jobs";

export function createJobModel(connection: Connection) {
  return connection.model("ScheduledJob", jobSchema, JOBS_COLLECTION);
}
