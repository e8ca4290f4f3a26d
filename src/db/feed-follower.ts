import type { Connection } from "mongoose";
import { ChangeFeed, type Change } from "./change-feed";

/**
 * Reads one ChangeFeed in order, from where this process stopped, and hands each new change
 * to `apply`. Callers arriving while a read is running share the next one, so a caller never
 * acts on a state older than its own arrival, and a burst of callers costs one read of the
 * feed, not one each.
 *
 * The reads themselves are made by the connection's FeedReader, for every feed the process
 * follows at once (see there).
 */
export class FeedFollower {
  private seen = 0;
  /** The connection's reader, once this follower has joined its reads. */
  private reader: FeedReader | null = null;

  constructor(
    readonly feed: ChangeFeed,
    /**
     * Runs inside the connection's read: it must not wait for a catch-up itself (of any feed),
     * which would wait for the read it runs in.
     */
    private readonly apply: (change: Change) => Promise<void>,
    /** Runs after each read of the feed, whether or not it found changes. */
    readonly afterRead: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** The sequence number of the last change applied (or skipped by `skipTo`). */
  get position(): number {
    return this.seen;
  }

  /** Changes up to `seq` are already reflected (a full reload read them); do not apply them. */
  skipTo(seq: number): void {
    this.seen = Math.max(this.seen, seq);
  }

  /**
   * Applies every change written before this call. The first call also starts this follower's
   * part in the connection's reads: only then is its position where its owner wants reading
   * to start (after a full load, or at the feed's head).
   */
  catchUp(): Promise<void> {
    this.reader ??= FeedReader.of(this.feed.connection).follow(this);
    return this.reader.catchUp();
  }

  /** Applies `change` if it is the next one (a reload may have moved the position past it). */
  async take(change: Change): Promise<void> {
    if (change.seq !== this.seen + 1) return;
    await this.apply(change);
    this.skipTo(change.seq);
  }
}

const readers = new WeakMap<Connection, FeedReader>();

/**
 * Reads, for every feed followed on one connection, the next change in one query (the
 * change feeds share a collection, so one `_id $in` lookup serves them all), applies what it
 * found, and reads on only for the feeds that had a change, until none has.
 *
 * A signed-in read of an office title needs the accounts feed and the offices feed read
 * since it arrived; a member search needs three. Read one query per feed, each read cost a
 * round trip and some 200–350 µs of the service's CPU in the driver; read together, a burst
 * of requests on different feeds shares one.
 *
 * Followers stay for the connection's life: a process has a handful (its directories and its
 * access cache).
 */
class FeedReader {
  private readonly followers: FeedFollower[] = [];
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  static of(connection: Connection): FeedReader {
    let reader = readers.get(connection);
    if (!reader) {
      reader = new FeedReader();
      readers.set(connection, reader);
    }
    return reader;
  }

  follow(follower: FeedFollower): this {
    this.followers.push(follower);
    return this;
  }

  /**
   * A round of reads that starts after this call. Callers queued behind a round that fails
   * get its error at once instead of a round of their own: the engine has just failed to
   * answer, and with a lost engine each read waits for the driver's timeout, which queued
   * callers would otherwise wait out twice.
   */
  catchUp(): Promise<void> {
    if (!this.queued) {
      const run = this.tail.then(
        () => {
          this.queued = null;
          return this.readRound();
        },
        (error: unknown) => {
          this.queued = null;
          throw error;
        },
      );
      this.queued = run;
      this.tail = run;
      // Only the callers queued meanwhile share a failure; later ones read afresh.
      const settled = () => {
        if (this.tail === run) this.tail = Promise.resolve();
      };
      run.then(settled, settled);
    }
    return this.queued;
  }

  private async readRound(): Promise<void> {
    const everyone = [...this.followers];
    let reading = everyone;
    while (reading.length > 0) {
      const changes = await ChangeFeed.readEach(
        reading.map((follower) => ({ feed: follower.feed, seq: follower.position + 1 })),
      );
      const readOn: FeedFollower[] = [];
      for (const [index, follower] of reading.entries()) {
        const change = changes[index];
        if (!change) continue;
        // `take` skips a change its follower's position has moved past; read on from there.
        await follower.take(change);
        readOn.push(follower);
      }
      reading = readOn;
    }
    for (const follower of everyone) await follower.afterRead();
  }
}
