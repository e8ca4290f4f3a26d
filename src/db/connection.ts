import mongoose, { type Connection } from "mongoose";
import { guardHeartbeats } from "./heartbeat-guard";

// Inputs never become query operators: a {"$gt": ""} where a string belongs is data, not a filter.
mongoose.set("sanitizeFilter", true);
mongoose.set("strictQuery", true);
// An operation while the driver has no server goes to the driver, which fails it within the
// bounds below; mongoose's own buffering would hold it (10 s by default) instead.
mongoose.set("bufferCommands", false);

export interface DatabaseOptions {
  uri: string;
  dbName: string;
  /** Emit the driver's command events on the client (the test suite's index-coverage guard). */
  monitorCommands?: boolean;
  /** Told when the driver's stranded monitor was replaced (see heartbeat-guard.ts). */
  onMonitorReplaced?: (strandedForMs: number) => void;
  /** Told after each look of that guard at the running heartbeats. */
  onHeartbeatsChecked?: () => void;
}

/**
 * How long an operation may wait on a lost database before it fails (and its request answers
 * 503) instead of hanging: for a server to select, for a connection to open (a server that
 * accepts but does not answer), and for a connection of the pool (all busy or being
 * re-opened). A server that dies silently under an operation in flight is noticed by the next
 * heartbeat failing within the connect bound, which interrupts that operation; a heartbeat
 * that can never end is replaced (heartbeat-guard.ts). So a request meets the lost database
 * within a heartbeat and a connect bound (3 s). The interrupted read is retried once and waits
 * for a server to select before it fails: selection gets less than the other bounds so that
 * those three waits in a row (4.5 s) stay inside the 5 s promised (docs/decisions.md).
 * Queries that are merely slow are not cut short: there is no socket time-out.
 */
const LOST_DATABASE_TIMEOUTS = {
  serverSelectionTimeoutMS: 1_500,
  connectTimeoutMS: 2_000,
  waitQueueTimeoutMS: 2_000,
  heartbeatFrequencyMS: 1_000,
};

/**
 * The heartbeat guard's looks: one a heartbeat interval, replacing a heartbeat that has run past
 * its connect bound and an interval, plus a second (one the driver ends by itself ends within
 * its connect bound, a streamed one after the awaited interval too).
 */
export const HEARTBEAT_GUARD = {
  strandedAfterMs:
    LOST_DATABASE_TIMEOUTS.connectTimeoutMS + LOST_DATABASE_TIMEOUTS.heartbeatFrequencyMS + 1_000,
  checkEveryMs: LOST_DATABASE_TIMEOUTS.heartbeatFrequencyMS,
};

/** Driver options every client of `uri` needs, the service's own and short-lived probes. */
export function clientOptionsFor(uri: string): { directConnection: boolean } {
  // The development database and a single mongod are not replica sets; talk to the one server directly
  // unless the URI names a replica set.
  return { directConnection: !/replicaSet=|mongodb\+srv:/.test(uri) };
}

export async function connectDatabase(options: DatabaseOptions): Promise<Connection> {
  const connection = mongoose.createConnection(options.uri, {
    ...clientOptionsFor(options.uri),
    dbName: options.dbName,
    ...LOST_DATABASE_TIMEOUTS,
    bufferCommands: false,
    monitorCommands: options.monitorCommands ?? false,
    // Indexes are built once at start by src/db/indexes.ts, which also handles engines
    // without TTL indexes.
    autoIndex: false,
  });
  await connection.asPromise();
  const guard = guardHeartbeats(connection.getClient(), {
    ...HEARTBEAT_GUARD,
    onReplaced: options.onMonitorReplaced,
    onChecked: options.onHeartbeatsChecked,
  });
  connection.once("close", () => guard.stop());
  return connection;
}

/** True when the database answers a ping right now. */
export async function isDatabaseUp(connection: Connection): Promise<boolean> {
  try {
    const db = connection.db;
    if (!db) return false;
    // Cleared with the answer, so that an answered probe holds nothing until the time-out.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      db.command({ ping: 1 }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("ping timeout")), 1_000);
      }),
    ]).finally(() => clearTimeout(timer));
    return true;
  } catch {
    return false;
  }
}
