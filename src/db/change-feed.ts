import { Schema, type Connection, type Model } from "mongoose";
import { isDuplicateKeyError } from "./errors";
import { findByIds } from "./by-ids";

export type ChangeKind =
  /** A write to this record is about to happen. */
  | "intent"
  /** The write is over (it may have failed): read the record again. */
  | "done"
  /** Records changed in bulk (a seed, a restore): read everything again. */
  | "resync";

export interface Change {
  seq: number;
  kind: ChangeKind;
  recordId: string | null;
}

interface ChangeRecord {
  _id: string;
  kind: ChangeKind;
  recordId: string | null;
  at: Date;
}

const changeSchema = new Schema<ChangeRecord>(
  {
    _id: { type: String, required: true },
    kind: { type: String, required: true },
    recordId: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);

const SEQ_DIGITS = 12;

/**
 * An append-only, gapless log of which records of one collection changed, shared by every
 * instance of the service. Entries are addressed by primary key only (`<feed>:<seq>`), the one
 * lookup FerretDB v1 answers from an index: appending is an insert that the key makes unique,
 * reading the next entry is a lookup of the next key (of several feeds' next keys at once, see
 * FeedFollower). Entries hold ids, never personal data.
 */
export class ChangeFeed {
  private readonly changes: Model<ChangeRecord>;
  /** The highest sequence number this process has seen taken; appends start above it. */
  private known = 0;
  private located: Promise<number> | null = null;

  constructor(
    readonly connection: Connection,
    readonly feed: string,
  ) {
    this.changes =
      (connection.models.Change as Model<ChangeRecord> | undefined) ??
      connection.model<ChangeRecord>("Change", changeSchema, "changes");
  }

  /** The last sequence number written. The feed has no gaps, so probing finds it quickly. */
  async head(): Promise<number> {
    let low = this.known;
    let high = Math.max(1, low * 2);
    while (await this.exists(high)) {
      low = high;
      high *= 2;
    }
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await this.exists(middle)) low = middle;
      else high = middle;
    }
    this.noteTaken(low);
    return low;
  }

  /**
   * The change at `seq` of each of these feeds (null where there is none yet), with one
   * lookup of their keys: all feeds of a connection share one collection.
   */
  static async readEach(
    wanted: readonly { feed: ChangeFeed; seq: number }[],
  ): Promise<(Change | null)[]> {
    if (wanted.length === 0) return [];
    const keys = wanted.map(({ feed, seq }) => feed.keyOf(seq));
    const records = await findByIds(wanted[0].feed.changes, keys);
    const byKey = new Map(records.map((record) => [record._id, record] as const));
    return wanted.map(({ feed, seq }, index): Change | null => {
      const record = byKey.get(keys[index]);
      if (!record) return null;
      feed.noteTaken(seq);
      return { seq, kind: record.kind, recordId: record.recordId };
    });
  }

  /** Appends at the first free sequence number and returns it. */
  async append(kind: ChangeKind, recordId: string | null = null): Promise<number> {
    // Start near the end, not at 1: probing forward one taken number at a time is for races.
    this.located ??= this.head().catch((error: unknown) => {
      this.located = null;
      throw error;
    });
    await this.located;
    for (let seq = this.known + 1; ; seq += 1) {
      try {
        await this.changes.create({ _id: this.keyOf(seq), kind, recordId, at: new Date() });
        this.noteTaken(seq);
        return seq;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // Another writer took this number: the one after it may be free.
      }
    }
  }

  private async exists(seq: number): Promise<boolean> {
    return (await this.changes.exists({ _id: this.keyOf(seq) })) !== null;
  }

  private noteTaken(seq: number): void {
    if (seq > this.known) this.known = seq;
  }

  private keyOf(seq: number): string {
    return `${this.feed}:${String(seq).padStart(SEQ_DIGITS, "0")}`;
  }
}
