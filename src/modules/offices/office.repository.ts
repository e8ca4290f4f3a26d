import type { Collection } from "mongodb";
import type { SortOrder } from "mongoose";
import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { greaterThan, lessThan, oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { backfillSearchText, searchFilter } from "../../db/search-text";
import type { OfficeModel, OfficeRecord } from "./office.model";

export type OfficeSortField = "createdAt" | "updatedAt" | "nameKey" | "levelRank";

export interface OfficeListQuery extends PageWindow {
  search?: string | null;
  sortBy: OfficeSortField;
  direction: 1 | -1;
}

export type OfficeChanges = Partial<
  Pick<
    OfficeRecord,
    | "name"
    | "nameKey"
    | "level"
    | "levelRank"
    | "description"
    | "searchText"
    | "maxSlots"
    | "sections"
  >
>;

/** Slot counts are bookkeeping, not an edit of the title: they leave updatedAt alone. */
const KEEP_UPDATED_AT = { timestamps: false } as const;

/**
 * The sort of each sortBy, ending in a unique field; the schema declares an index for each
 * (office.model.ts).
 */
function sortOf(field: OfficeSortField, direction: 1 | -1): Record<string, SortOrder> {
  switch (field) {
    case "nameKey":
      return { nameKey: direction };
    case "levelRank":
      return { levelRank: direction, nameKey: 1 };
    case "createdAt":
    case "updatedAt":
      return { [field]: direction, _id: direction };
  }
}

/** Every database call on office titles. */
export class OfficeRepository {
  constructor(
    private readonly offices: OfficeModel,
    /** The service's clock: when a slot count changed, as settling (office-slots.ts) reads it. */
    private readonly now: () => Date,
  ) {}

  page(query: OfficeListQuery): Promise<FoundPage<OfficeRecord>> {
    return findPage(
      this.offices,
      searchFilter(query.search),
      sortOf(query.sortBy, query.direction),
      query,
    );
  }

  findById(id: string): Promise<OfficeRecord | null> {
    return this.offices.findById(id).lean<OfficeRecord>().exec();
  }

  /** Name and level of each title that still exists. */
  namesAndLevels(ids: string[]): Promise<Pick<OfficeRecord, "_id" | "name" | "level">[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.offices
      .find({ _id: oneOf(ids) }, { name: 1, level: 1 })
      .lean<Pick<OfficeRecord, "_id" | "name" | "level">[]>()
      .exec();
  }

  /** Fails with a duplicate key error when another title has the same nameKey. */
  /** DUPLICATE when another title has the same nameKey. */
  async insert(
    record: Omit<OfficeRecord, "createdAt" | "updatedAt">,
  ): Promise<OfficeRecord | Duplicate> {
    const created = await unlessDuplicate(this.offices.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
  }

  /**
   * Applies the changes; with `slotsAtMost`, only while no more slots than that are taken
   * (lowering maxSlots). Null when the title is gone or the condition did not hold; DUPLICATE
   * when another title has the new nameKey.
   */
  update(
    id: string,
    changes: OfficeChanges,
    slotsAtMost?: number,
  ): Promise<OfficeRecord | null | Duplicate> {
    const condition = slotsAtMost === undefined ? {} : { activeHolders: lessThan(slotsAtMost + 1) };
    return unlessDuplicate(
      this.offices
        .findOneAndUpdate({ _id: id, ...condition }, { $set: changes }, { returnDocument: "after" })
        .lean<OfficeRecord>()
        .exec(),
    );
  }

  /** Deletes the title only while no slot of it is taken. */
  async deleteUnheld(id: string): Promise<boolean> {
    const { deletedCount } = await this.offices.deleteOne({ _id: id, activeHolders: 0 }).exec();
    return deletedCount === 1;
  }

  /**
   * Takes one slot, as the title was read: the update applies only if maxSlots is still the
   * same and (for a limit) a slot is free, so concurrent appointments cannot overfill it.
   */
  async takeSlot(office: Pick<OfficeRecord, "_id" | "maxSlots">): Promise<OfficeRecord | null> {
    // A title written by another program may lack maxSlots: that reads as null, no limit.
    const maxSlots = office.maxSlots ?? null;
    const free =
      maxSlots === null ? { maxSlots: null } : { maxSlots, activeHolders: lessThan(maxSlots) };
    return this.offices
      .findOneAndUpdate(
        { _id: office._id, ...free },
        { $inc: { activeHolders: 1 }, $set: { slotsChangedAt: this.now() } },
        { returnDocument: "after", ...KEEP_UPDATED_AT },
      )
      .lean<OfficeRecord>()
      .exec();
  }

  async giveBackSlot(id: string): Promise<void> {
    await this.offices
      .updateOne(
        { _id: id, activeHolders: greaterThan(0) },
        { $inc: { activeHolders: -1 }, $set: { slotsChangedAt: this.now() } },
        KEEP_UPDATED_AT,
      )
      .exec();
  }

  /** A slot an appointment of an earlier version held, counted once when it is migrated. */
  async countTakenSlot(id: string): Promise<void> {
    await this.offices
      .updateOne(
        { _id: id },
        { $inc: { activeHolders: 1 }, $set: { slotsChangedAt: this.now() } },
        KEEP_UPDATED_AT,
      )
      .exec();
  }

  /** Sets the count to `count` if it has not changed since `seen` was read. */
  async correctSlots(
    seen: Pick<OfficeRecord, "_id" | "activeHolders" | "slotsChangedAt">,
    count: number,
  ): Promise<boolean> {
    const { modifiedCount } = await this.offices
      .updateOne(
        {
          _id: seen._id,
          activeHolders: seen.activeHolders ?? null,
          slotsChangedAt: seen.slotsChangedAt ?? null,
        },
        { $set: { activeHolders: count } },
        KEEP_UPDATED_AT,
      )
      .exec();
    return modifiedCount === 1;
  }

  /** Titles written before searchText existed get it (a migration step). Returns how many. */
  backfillSearchText(): Promise<number> {
    return backfillSearchText(this.offices.collection as unknown as Collection<{ _id: string }>, [
      "name",
      "description",
    ]);
  }
}
