import { MongoClient } from "mongodb";
import type { Connection } from "mongoose";
import type { Logger } from "../logger";
import { clientOptionsFor } from "./connection";

/*
 * The mongodb driver can lose a server for good. Observed with mongodb 7.8 on FerretDB: when
 * the engine closes the monitor's socket just as a heartbeat is written, the heartbeat waits
 * for a 'drain' that never comes, the monitor never checks again, and every operation fails
 * server selection although the engine is back. A monitor whose handshake went into a network
 * black hole is stuck the same way until connectTimeoutMS (30 s).
 *
 * The watchdog notices that state, the driver calling the server Unknown while a fresh
 * connection to the same address answers, and replaces the client's topology (close, then
 * connect). Mongoose's models keep working: they reach the topology through the same client.
 *
 * A database restarted on the same address (as the development engine of tools/dev-db is) meets
 * the same client again after every restart, and any restart can strand it this way.
 */

export interface WatchdogOptions {
  uri: string;
  log: Pick<Logger, "warn" | "info">;
  /** How often the state is looked at. */
  intervalMs?: number;
  /** How long the engine must answer fresh connections while the driver says Unknown. */
  stuckAfterMs?: number;
}

export interface Watchdog {
  /** Times the client was replaced so far. */
  reconnects: () => number;
  stop: () => void;
}

const PROBE_TIMEOUT_MS = 1_000;
const CLOSE_TIMEOUT_MS = 2_000;

export function watchConnection(connection: Connection, options: WatchdogOptions): Watchdog {
  const intervalMs = options.intervalMs ?? 1_000;
  const stuckAfterMs = options.stuckAfterMs ?? 3_000;
  const client = connection.getClient();
  let unknownSince: number | undefined;
  let reachableSince: number | undefined;
  let reconnects = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  client.on("serverDescriptionChanged", (event) => {
    if (event.newDescription.type !== "Unknown") {
      unknownSince = undefined;
      reachableSince = undefined;
    } else unknownSince ??= Date.now();
  });

  const check = async () => {
    if (unknownSince === undefined) return;
    if (!(await answersFreshConnection(options.uri))) {
      reachableSince = undefined;
      return;
    }
    reachableSince ??= Date.now();
    if (Date.now() - reachableSince < stuckAfterMs || unknownSince === undefined) return;
    options.log.warn(
      { unknownForMs: Date.now() - unknownSince },
      "database client stuck although the engine answers; replacing its connections",
    );
    await replaceTopology(connection);
    reconnects += 1;
    unknownSince = undefined;
    reachableSince = undefined;
    options.log.info("database client reconnected");
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      check()
        .catch((error: unknown) =>
          options.log.warn({ err: error }, "database watchdog check failed"),
        )
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  connection.once("close", () => stop());

  function stop() {
    stopped = true;
    if (timer) clearTimeout(timer);
  }
  return { reconnects: () => reconnects, stop };
}

/** A ping over a connection of its own, short-lived, independent of the service's pool. */
async function answersFreshConnection(uri: string): Promise<boolean> {
  const probe = new MongoClient(uri, {
    ...clientOptionsFor(uri),
    serverSelectionTimeoutMS: PROBE_TIMEOUT_MS,
    connectTimeoutMS: PROBE_TIMEOUT_MS,
    socketTimeoutMS: PROBE_TIMEOUT_MS,
  });
  try {
    await probe.connect();
    await probe.db("admin").command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

async function replaceTopology(connection: Connection): Promise<void> {
  const client = connection.getClient();
  // A stuck monitor must not keep the close from finishing; the old topology is dropped anyway.
  await Promise.race([
    client.close(),
    new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
  ]);
  await client.connect();
}
