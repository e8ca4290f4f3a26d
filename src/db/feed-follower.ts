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

  /**
   * Callers queued behind a read that fails get its error at once instead of a read of their
   * own: the engine has just failed to answer, and with a lost engine each read waits for the
   * driver's timeout, which queued callers would otherwise wait out twice.
   */
  catchUp(): Promise<void> {
    if (!this.queued) {
      const run = this.tail.then(
        () => {
          this.queued = null;
          return this.readChanges();
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
