import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { greaterThan, lessThan, oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { containsText } from "../../graphql/paging";
import type { OfficeHolderModel, OfficeHolderRecord } from "./office-holder.model";

export interface HolderListQuery extends PageWindow {
  /** The holders of one office, or the appointments of one member record. */
  of: { officeId: string } | { memberId: string };
  /** Also the ones that no longer count (ended, or past their end date). */
  includeEnded: boolean;
  search?: string | null;
}

/** The appointments of one office or one member record; none: all of them. */
export type HolderScope = { officeId: string } | { memberId: string } | Record<string, never>;

/**
 * Terms running at `now`, judged from their dates in the query itself: not released, and no
 * end date or one still ahead. A lapsed term nobody has released yet is left out without a
 * write; the indexes leading with `releasedAt` find the candidates, the end date filters them.
 */
export function runningAt(now: Date) {
  return { releasedAt: null, $or: [{ endDate: null }, { endDate: greaterThan(now) }] };
}

/** Terms that still count against their office although their end date is not after `now`. */
function lapsedAt(now: Date) {
  return { releasedAt: null, endDate: lessThan(new Date(now.getTime() + 1)) };
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** Lapsed terms are read a batch at a time rather than all into memory at once. */
const LAPSED_BATCH = 100;

/** Every database call on appointments (office_holders). */
export class OfficeHolderRepository {
  constructor(
    private readonly holders: OfficeHolderModel,
    /** The service's clock: which terms run, and when one was released. */
    private readonly now: () => Date,
  ) {}

  /** `search` matches the holder's name; the office or member narrows the match first. */
  page(query: HolderListQuery): Promise<FoundPage<OfficeHolderRecord>> {
    const search = query.search?.trim();
    const filter = {
      ...query.of,
      ...(query.includeEnded ? {} : runningAt(this.now())),
      ...(search ? { name: containsText(search) } : {}),
    };
    return findPage(this.holders, filter, NEWEST_FIRST, query);
  }

  /** A running term: DUPLICATE when the member already holds the office (its slotKey is taken). */
  async insertRunning(
    record: Omit<OfficeHolderRecord, "createdAt" | "updatedAt">,
  ): Promise<OfficeHolderRecord | Duplicate> {
    const created = await unlessDuplicate(this.holders.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject<OfficeHolderRecord>();
  }

  /** A term over before it was recorded: its slotKey is its own id, so it meets no other. */
  async insertEnded(
    record: Omit<OfficeHolderRecord, "createdAt" | "updatedAt" | "slotKey">,
  ): Promise<OfficeHolderRecord> {
    const created = await this.holders.create({ ...record, slotKey: record._id });
    return created.toObject<OfficeHolderRecord>();
  }

  findBySlotKey(slotKey: string): Promise<OfficeHolderRecord | null> {
    return this.holders.findOne({ slotKey }).lean<OfficeHolderRecord>().exec();
  }

  findOfOffice(id: string, officeId: string): Promise<OfficeHolderRecord | null> {
    return this.holders.findOne({ _id: id, officeId }).lean<OfficeHolderRecord>().exec();
  }

  async deleteById(id: string): Promise<void> {
    await this.holders.deleteOne({ _id: id }).exec();
  }

  /**
   * Marks a counting term as no longer counting. Only one caller can win: null when it had
   * already been released.
   */
  release(id: string): Promise<OfficeHolderRecord | null> {
    return this.releaseWhere(id, { releasedAt: null });
  }

  /**
   * An administrator's ending of a term of the office that is running by its dates, with who
   * ended it and when: null when it does not exist, was released, or has lapsed.
   */
  end(
    id: string,
    officeId: string,
    changes: Pick<OfficeHolderRecord, "endedAt" | "endedBy">,
  ): Promise<OfficeHolderRecord | null> {
    return this.releaseWhere(id, { officeId, endedAt: null, ...runningAt(this.now()) }, changes);
  }

  private releaseWhere(
    id: string,
    condition: Record<string, unknown>,
    changes: Partial<Pick<OfficeHolderRecord, "endedAt" | "endedBy">> = {},
  ): Promise<OfficeHolderRecord | null> {
    return this.holders
      .findOneAndUpdate(
        { _id: id, ...condition },
        { $set: { ...changes, releasedAt: this.now(), slotKey: id } },
        { returnDocument: "after" },
      )
      .lean<OfficeHolderRecord>()
      .exec();
  }

  /** Terms that still count although their end date has come, of `scope` (a batch of them). */
  lapsed(now: Date, scope: HolderScope = {}): Promise<Pick<OfficeHolderRecord, "_id">[]> {
    return this.holders
      .find({ ...lapsedAt(now), ...scope }, { _id: 1 })
      .limit(LAPSED_BATCH)
      .lean<Pick<OfficeHolderRecord, "_id">[]>()
      .exec();
  }

  /**
   * How many lapsed terms each of these offices still counts in its slots (offices with none
   * are absent): what a read takes off the stored count instead of releasing them.
   */
  async lapsedPerOffice(officeIds: string[], now: Date): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (officeIds.length === 0) return counts;
    const lapsed = await this.holders
      .find({ ...lapsedAt(now), officeId: oneOf(officeIds) }, { officeId: 1 })
      .lean<Pick<OfficeHolderRecord, "_id" | "officeId">[]>()
      .exec();
    for (const { officeId } of lapsed) counts.set(officeId, (counts.get(officeId) ?? 0) + 1);
    return counts;
  }

  /**
   * How many appointments of the office hold a slot as far as the office's count can know:
   * the counting ones, and those released after `since` whose slot may not be given back yet.
   */
  async holdingSlots(officeId: string, since: Date): Promise<number> {
    const [counting, justReleased] = await Promise.all([
      this.holders.countDocuments({ officeId, releasedAt: null }).exec(),
      this.holders.countDocuments({ officeId, releasedAt: greaterThan(since) }).exec(),
    ]);
    return counting + justReleased;
  }

  countingOfUser(userId: string): Promise<Pick<OfficeHolderRecord, "_id">[]> {
    return this.holders
      .find({ userId, releasedAt: null }, { _id: 1 })
      .lean<Pick<OfficeHolderRecord, "_id">[]>()
      .exec();
  }

  allOfUser(userId: string): Promise<OfficeHolderRecord[]> {
    return this.holders.find({ userId }).sort(NEWEST_FIRST).lean<OfficeHolderRecord[]>().exec();
  }

  async deleteAllOfOffice(officeId: string): Promise<void> {
    await this.holders.deleteMany({ officeId }).exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.holders.deleteMany({ userId }).exec();
  }

  /** Appointments written by an earlier version, which had no slotKey. */
  unmigrated(): AsyncIterable<OfficeHolderRecord> {
    return this.holders
      .find({ slotKey: null })
      .lean<OfficeHolderRecord[]>()
      .cursor({ batchSize: 500 });
  }

  /** Sets the migrated fields once; false when another instance got there first. */
  async migrate(id: string, fields: Pick<OfficeHolderRecord, "releasedAt" | "slotKey">) {
    const { modifiedCount } = await this.holders
      .updateOne({ _id: id, slotKey: null }, { $set: fields }, { timestamps: false })
      .exec();
    return modifiedCount === 1;
  }
}
