import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import { TooManyRequestsError } from "../../errors/app-errors";

/*
 * bcrypt is slow on purpose, and bcryptjs is JavaScript, so on the event loop one sign-in
 * would stall every other request while it hashes. The hashing runs in piscina's worker
 * threads instead, one per core (defaultBcryptWorkers).
 *
 * In front of the threads sits a bounded, fair queue: each client (address of the caller) has
 * a lane, and the lanes take turns (start-time fair queueing: a task's turn comes after its
 * client's previous task, never before the task now running), and a client, an account or the
 * whole queue past its share is answered 429 at once. So a stranger flooding sign-ins keeps
 * at most one thread busy at a time while anyone else waits, and the flood's backlog past its
 * share is refused instead of held.
 */

type Operation =
  | { op: "hash"; password: string; cost: number }
  | { op: "compare"; password: string; hash: string };

/** Whose work a task is: the caller's address and, for a sign-in, the account's address. */
export interface HashingShare {
  client: string;
  account?: string;
}

export interface HashingQueueLimits {
  /** Tasks waiting for a thread, over every client. */
  waiting: number;
  /** Tasks (waiting or running) of one client. */
  perClient: number;
  /** Tasks (waiting or running) for one account, from whichever clients. */
  perAccount: number;
}

/**
 * Fair turns already keep one client's backlog from delaying the others beyond the hash that is
 * running; the shares bound that backlog, and leave room for other clients in a full queue. A
 * proxy or an office behind one address signs several people in at once, so a share is wide.
 */
export const HASHING_QUEUE_LIMITS: HashingQueueLimits = {
  waiting: 64,
  perClient: 32,
  perAccount: 32,
};

interface Task {
  /** Its turn: after its client's previous task, and not before the last task started. */
  turn: number;
  operation: Operation;
  share: HashingShare;
  queuedAt: number;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

/** When a task was queued, given a thread and done (performance.now()), and whose it was. */
export interface HashTiming {
  client: string;
  queuedAt: number;
  startedAt: number;
  endedAt: number;
}

/** How many of the latest tasks' timings are kept: enough to see one full queue go through. */
const TIMINGS_KEPT = 256;

/**
 * The service's own work, which names no client (the bootstrap administrator, the throwaway
 * hash unknown addresses are compared with): one lane, never refused.
 */
const OWN_WORK: HashingShare = { client: "(service)" };
/** A first guess of one hash's time, for Retry-After before any hash has been timed. */
const FIRST_HASH_MS = 250;

/**
 * Threads per process: one per core, shared among the processes of a cluster, so a burst of
 * sign-ins is answered at the rate the cores allow. The event loop keeps up beside them: its
 * share of a request is small next to a hash, and the per-client queue bounds what waits.
 */
export function defaultBcryptWorkers(processes = 1): number {
  return Math.max(1, Math.floor(os.availableParallelism() / processes));
}

export class BcryptPool {
  private readonly piscina: Piscina;
  /** Waiting tasks per client, in the order the lanes take turns. */
  private readonly lanes = new Map<string, Task[]>();
  private readonly perClient = new Map<string, number>();
  private readonly perAccount = new Map<string, number>();
  /** The turn after each client's latest task. */
  private readonly nextTurn = new Map<string, number>();
  /** The turn of the task started last. */
  private now = 0;
  private waiting = 0;
  private running = 0;
  private hashMs = FIRST_HASH_MS;
  private closed = false;
  private readonly timings: HashTiming[] = [];

  constructor(
    private readonly threads = defaultBcryptWorkers(),
    private readonly limits: HashingQueueLimits = HASHING_QUEUE_LIMITS,
  ) {
    this.piscina = new Piscina({
      filename: path.join(__dirname, "bcrypt-worker.js"),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
    });
  }

  hash(password: string, cost: number, share?: HashingShare): Promise<string> {
    return this.run({ op: "hash", password, cost }, share) as Promise<string>;
  }

  compare(password: string, hash: string, share?: HashingShare): Promise<boolean> {
    return this.run({ op: "compare", password, hash }, share) as Promise<boolean>;
  }

  /** The threads hashes run on at once. */
  get threadCount(): number {
    return this.threads;
  }

  /**
   * The latest tasks done, oldest first: what the queue actually did (which task waited for
   * which, how long one hash takes under the load of the moment), not an estimate.
   */
  recentTimings(): readonly HashTiming[] {
    return [...this.timings];
  }

  /** Throws the 429 a task of this share would get now, so a refused request does no other work. */
  assertRoom(share: HashingShare): void {
    const refusal = this.refusal(share);
    if (refusal) throw refusal;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lane of this.lanes.values()) {
      for (const task of lane) task.reject(new Error("The password hasher is shut down"));
    }
    this.lanes.clear();
    // Lets the hashes already running finish and then stops the threads: destroying them would
    // fail a thread still starting up with nobody left to hear it, and end the process badly.
    await this.piscina.close();
  }

  private run(operation: Operation, named?: HashingShare): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error("The password hasher is shut down"));
    const refusal = named && this.refusal(named);
    if (refusal) return Promise.reject(refusal);
    const share = named ?? OWN_WORK;
    return new Promise((resolve, reject) => {
      this.count(share, +1);
      const lane = this.lanes.get(share.client);
      const turn = Math.max(this.now, this.nextTurn.get(share.client) ?? 0);
      this.nextTurn.set(share.client, turn + 1);
      const task = { turn, operation, share, queuedAt: performance.now(), resolve, reject };
      if (lane) lane.push(task);
      else this.lanes.set(share.client, [task]);
      this.waiting += 1;
      this.dispatch();
    });
  }

  private refusal(share: HashingShare): TooManyRequestsError | undefined {
    const full =
      this.waiting >= this.limits.waiting ||
      (this.perClient.get(share.client) ?? 0) >= this.limits.perClient ||
      (share.account !== undefined &&
        (this.perAccount.get(share.account) ?? 0) >= this.limits.perAccount);
    if (!full) return undefined;
    // About when a thread will be free for one more: what waits ahead of it, spread over the threads.
    const seconds = ((this.waiting / this.threads + 1) * this.hashMs) / 1000;
    return new TooManyRequestsError(
      "Too many sign-ins are being checked; try again shortly",
      seconds,
    );
  }

  /** Hands free threads the waiting task whose turn is earliest (the first lane on a tie). */
  private dispatch(): void {
    while (this.running < this.threads && this.waiting > 0) {
      let client = "";
      let earliest = Number.POSITIVE_INFINITY;
      for (const [name, lane] of this.lanes) {
        if (lane[0].turn < earliest) [client, earliest] = [name, lane[0].turn];
      }
      const lane = this.lanes.get(client)!;
      const task = lane.shift()!;
      if (lane.length === 0) this.lanes.delete(client);
      this.now = task.turn;
      this.waiting -= 1;
      this.running += 1;
      void this.execute(task);
    }
  }

  private async execute(task: Task): Promise<void> {
    const started = performance.now();
    try {
      const value = (await this.piscina.run(task.operation)) as string | boolean;
      // A running average of one hash's time, for Retry-After.
      this.hashMs = 0.8 * this.hashMs + 0.2 * (performance.now() - started);
      task.resolve(value);
    } catch (error) {
      task.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      const { client } = task.share;
      this.timings.push({
        client,
        queuedAt: task.queuedAt,
        startedAt: started,
        endedAt: performance.now(),
      });
      if (this.timings.length > TIMINGS_KEPT) this.timings.shift();
      this.running -= 1;
      this.count(task.share, -1);
      if (!this.closed) this.dispatch();
    }
  }

  private count(share: HashingShare, by: 1 | -1): void {
    adjust(this.perClient, share.client, by);
    // A client with nothing left has no turn to keep; its next task starts from now.
    if (!this.perClient.has(share.client)) this.nextTurn.delete(share.client);
    if (share.account !== undefined) adjust(this.perAccount, share.account, by);
  }
}

function adjust(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
