import type { Change, ChangeFeed } from "./change-feed";

/**
 * Reads one ChangeFeed in order, from where this process stopped, and hands each new change
 * to `apply`. Callers arriving while a read is running share the next one, so a caller never
 * acts on a state older than its own arrival, and a burst of callers costs one read of the
 * feed, not one each.
 */
export class FeedFollower {
  private seen = 0;
  private tail: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly apply: (change: Change) => Promise<void>,
    /** Runs after each read of the feed, whether or not it found changes. */
    private readonly afterRead: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** The sequence number of the last change applied (or skipped by `skipTo`). */
  get position(): number {
    return this.seen;
  }

  /** Changes up to `seq` are already reflected (a full reload read them); do not apply them. */
  skipTo(seq: number): void {
    this.seen = Math.max(this.seen, seq);
  }

  catchUp(): Promise<void> {
    if (!this.queued) {
      const run = this.tail.then(() => {
        this.queued = null;
        return this.readChanges();
      });
      this.queued = run;
      this.tail = run.catch(() => undefined);
    }
    return this.queued;
  }

  private async readChanges(): Promise<void> {
    for (;;) {
      const change = await this.feed.read(this.seen + 1);
      if (!change) break;
      await this.apply(change);
      this.skipTo(change.seq);
    }
    await this.afterRead();
  }
}
