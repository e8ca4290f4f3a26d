import type { Change, ChangeFeed } from "./change-feed";
import { FeedFollower } from "./feed-follower";

export interface DirectorySource<E> {
  /** Every record of the collection, as entries. */
  loadAll(): AsyncIterable<E>;
  /** One record as it is now; null when it is gone. */
  loadOne(id: string): Promise<E | null>;
}

export interface DirectoryOptions<E> {
  feed: ChangeFeed;
  source: DirectorySource<E>;
  /** The order entries are kept in; must depend only on what never changes in a record. */
  compare: (a: E, b: E) => number;
  /**
   * How long an announced write may take to land. A write whose "done" never comes (its
   * process died) is read again after this long.
   */
  settleMs?: number;
}

/**
 * An in-memory copy of a few fields of every record of a collection, kept in order, for the
 * lists, counts and searches the database cannot answer from an index: FerretDB v1 over
 * SQLite answers only primary-key lookups from one and scans every document for anything else
 * (seconds per query at 100 000 records).
 *
 * Instances stay in step through a ChangeFeed: a writer announces a write ("intent"), writes,
 * and says it is over ("done"); before answering, every instance reads the feed it has not
 * seen and reads each record named by a "done" again from the database. What an instance
 * holds is therefore never older than the last change it read; its own writes are visible to
 * it at once, other instances' writes at their next read.
 */
export class Directory<E extends { id: string }> {
  private readonly byId = new Map<string, E>();
  private ordered: E[] = [];
  /** Records with an announced write not yet done, and when to stop waiting for it. */
  private readonly unsettled = new Map<string, number>();
  private loading: Promise<void> | null = null;
  private loaded = false;
  private changes = 0;
  private readonly follower: FeedFollower;
  private readonly settleMs: number;

  constructor(private readonly options: DirectoryOptions<E>) {
    this.settleMs = options.settleMs ?? 120_000;
    this.follower = new FeedFollower(
      options.feed,
      (change) => this.apply(change),
      () => this.refreshUnsettled(),
    );
  }

  /** Grows with every change to the entries: what was derived from them at another is stale. */
  get version(): number {
    return this.changes;
  }

  /** All entries, in order, as of now. The array is the directory's own: read, never change. */
  async entries(): Promise<readonly E[]> {
    await this.load();
    await this.catchUp();
    return this.ordered;
  }

  async get(id: string): Promise<E | undefined> {
    await this.load();
    await this.catchUp();
    return this.byId.get(id);
  }

  /**
   * Runs one write to the record `id`, announced on the feed before and after, so every
   * instance reads the record again once it has landed.
   */
  async write<T>(id: string, write: () => Promise<T>): Promise<T> {
    await this.options.feed.append("intent", id);
    let result: T;
    try {
      result = await write();
    } catch (error) {
      await this.options.feed.append("done", id).catch(() => undefined);
      throw error;
    }
    await this.options.feed.append("done", id);
    if (this.loaded) await this.catchUp();
    return result;
  }

  /** After a bulk change (seeding, restoring): every instance reads everything again. */
  async bulkChanged(): Promise<void> {
    await this.options.feed.append("resync");
  }

  /** Loads the directory once; later calls wait for the same load. */
  load(): Promise<void> {
    this.loading ??= this.reloadAll().catch((error: unknown) => {
      this.loading = null;
      throw error;
    });
    return this.loading;
  }

  private async reloadAll(): Promise<void> {
    // The head first: a change made while loading is read again afterwards, never lost.
    const head = await this.options.feed.head();
    const entries: E[] = [];
    for await (const entry of this.options.source.loadAll()) entries.push(entry);
    entries.sort(this.options.compare);
    this.byId.clear();
    for (const entry of entries) this.byId.set(entry.id, entry);
    this.ordered = entries;
    this.changes += 1;
    this.follower.skipTo(head);
    this.loaded = true;
  }

  /** Reads the changes this instance has not seen (see FeedFollower). */
  private catchUp(): Promise<void> {
    return this.follower.catchUp();
  }

  private async apply(change: Change): Promise<void> {
    if (change.kind === "resync") await this.reloadAll();
    else if (change.recordId && change.kind === "intent") {
      this.unsettled.set(change.recordId, Date.now() + this.settleMs);
    } else if (change.recordId) {
      this.unsettled.delete(change.recordId);
      await this.refresh(change.recordId);
    }
  }

  /** Writes whose "done" never came (their process died) are read again after settleMs. */
  private async refreshUnsettled(): Promise<void> {
    const now = Date.now();
    for (const [id, deadline] of this.unsettled) {
      if (deadline > now) continue;
      this.unsettled.delete(id);
      await this.refresh(id);
    }
  }

  private async refresh(id: string): Promise<void> {
    const entry = await this.options.source.loadOne(id);
    this.changes += 1;
    const index = this.positionOf(id);
    if (index !== -1) this.ordered.splice(index, 1);
    this.byId.delete(id);
    if (!entry) return;
    this.byId.set(id, entry);
    this.ordered.splice(this.insertionPoint(entry), 0, entry);
  }

  private positionOf(id: string): number {
    const existing = this.byId.get(id);
    if (!existing) return -1;
    const index = this.insertionPoint(existing);
    return this.ordered[index]?.id === id ? index : this.ordered.indexOf(existing);
  }

  /** The first position whose entry sorts at or after `entry` (binary search). */
  private insertionPoint(entry: E): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.options.compare(this.ordered[middle], entry) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
