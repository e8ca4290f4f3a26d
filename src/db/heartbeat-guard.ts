import type { MongoClient } from "mongodb";

export interface HeartbeatGuardOptions {
  /** A heartbeat still running after this is stranded (see below). */
  strandedAfterMs: number;
  /** How often running heartbeats are looked at. */
  checkEveryMs: number;
  /** Told each time the client's topology is replaced. */
  onReplaced?: (strandedForMs: number) => void;
  /** Told after each look at the running heartbeats, so a caller can wait for looks, not time. */
  onChecked?: () => void;
}

export interface HeartbeatGuard {
  /** Times the topology was replaced so far. */
  replacements(): number;
  stop(): void;
}

const CLOSE_TIMEOUT_MS = 2_000;

/*
 * Only the driver's monitor turns an Unknown server back into a usable one, and server selection
 * can only ask it to check: a check requested while one runs is dropped. A heartbeat written to
 * a socket that the database has just closed, after Node destroyed the socket but before it
 * emitted 'close', fails without an 'error' event, and the driver then waits for a 'drain' that
 * a destroyed socket never emits. That check never ends, so the server stays Unknown for the
 * life of the process although the database answers again, and every request answers 503.
 *
 * On a working socket the driver ends every heartbeat within its own time-outs (connectTimeoutMS
 * to connect, the same as the socket time-out of a polled hello, plus the awaited time of a
 * streamed one), so a heartbeat still running well after that cannot end by itself. The guard
 * then replaces the client's topology through the public API (close, connect): a new monitor
 * checks at once, and mongoose's models reach the new topology through the same client.
 * A stranded heartbeat must be seen on two checks in a row, so that an event loop that was
 * merely late to read an answer does not count as a stranded one.
 */
export function guardHeartbeats(
  client: MongoClient,
  options: HeartbeatGuardOptions,
): HeartbeatGuard {
  /** When the heartbeat now running on each server started. */
  const running = new Map<string, number>();
  /** Servers whose heartbeat was already too old at the previous check. */
  let overdue = new Set<string>();
  let replacing = false;
  let replacements = 0;

  client.on("serverHeartbeatStarted", (event) => {
    if (!running.has(event.connectionId)) running.set(event.connectionId, Date.now());
  });
  const ended = (event: { connectionId: string }) => running.delete(event.connectionId);
  client.on("serverHeartbeatSucceeded", ended);
  client.on("serverHeartbeatFailed", ended);

  const replace = async (strandedForMs: number) => {
    replacing = true;
    try {
      // The stranded check would keep close() waiting; the old topology is dropped either way.
      await Promise.race([
        client.close(),
        new Promise((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
      ]);
      running.clear();
      overdue = new Set();
      await client.connect();
      replacements += 1;
      options.onReplaced?.(strandedForMs);
    } catch {
      // connect() failed because the database is down right now: try again at a later check.
    } finally {
      replacing = false;
    }
  };

  const timer = setInterval(() => {
    if (replacing) return;
    const now = Date.now();
    const tooOld = new Set(
      [...running].filter(([, since]) => now - since > options.strandedAfterMs).map(([id]) => id),
    );
    const stranded = [...tooOld].filter((id) => overdue.has(id));
    overdue = tooOld;
    if (stranded.length > 0) void replace(now - running.get(stranded[0])!);
    options.onChecked?.();
  }, options.checkEveryMs);
  timer.unref();

  return {
    replacements: () => replacements,
    stop: () => clearInterval(timer),
  };
}
