import { greaterThan, lessThan } from "../../db/operators";
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

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** Lapsed terms are read a batch at a time rather than all into memory at once. */
const LAPSED_BATCH = 100;

/** Every database call on appointments (office_holders). */
export class OfficeHolderRepository {
  constructor(private readonly holders: OfficeHolderModel) {}

  /** `search` matches the holder's name; the office or member narrows the match first. */
  page(query: HolderListQuery): Promise<FoundPage<OfficeHolderRecord>> {
    const search = query.search?.trim();
    const filter = {
      ...query.of,
      ...(query.includeEnded ? {} : { releasedAt: null }),
      ...(search ? { name: containsText(search) } : {}),
    };
    return findPage(this.holders, filter, NEWEST_FIRST, query);
  }

  /** Fails with a duplicate key error when the member already holds the office. */
  async insert(record: Omit<OfficeHolderRecord, "createdAt" | "updatedAt">) {
    return (await this.holders.create(record)).toObject<OfficeHolderRecord>();
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
   * Marks a counting term as no longer counting, with `changes` (an ending's endedAt and
   * endedBy). Only one caller can win: null when it had already been released, or when it
   * does not match `condition`.
   */
  release(
    id: string,
    condition: Partial<Pick<OfficeHolderRecord, "officeId" | "endedAt">> = {},
    changes: Partial<Pick<OfficeHolderRecord, "endedAt" | "endedBy">> = {},
  ): Promise<OfficeHolderRecord | null> {
    return this.holders
      .findOneAndUpdate(
        { _id: id, releasedAt: null, ...condition },
        { $set: { ...changes, releasedAt: new Date(), slotKey: id } },
        { returnDocument: "after" },
      )
      .lean<OfficeHolderRecord>()
      .exec();
  }

  /** Terms that still count although their end date is before `now`. */
  lapsed(now: Date): Promise<Pick<OfficeHolderRecord, "_id">[]> {
    return this.holders
      .find({ releasedAt: null, endDate: lessThan(now) }, { _id: 1 })
      .limit(LAPSED_BATCH)
      .lean<Pick<OfficeHolderRecord, "_id">[]>()
      .exec();
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
