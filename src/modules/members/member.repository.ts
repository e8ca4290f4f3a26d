import type { UpdateQuery } from "mongoose";
import { absent, greaterThan, notEqual } from "../../db/operators";
import { findPage, type FoundPage } from "../../db/page-query";
import { searchFilter } from "../../db/search-text";
import { MemberStatus } from "./member.enums";
import { searchTextOf, type MemberModel, type MemberRecord } from "./member.model";

/** What a list of member records may be narrowed by (GET /members, /members/me, the export). */
export interface MemberQuery {
  status?: MemberStatus | null;
  includeArchived?: boolean;
  userId?: string;
  /** The contract's `search` (see searchFilter). */
  search?: string | null;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** Every database call on member records. */
export class MemberRepository {
  constructor(private readonly members: MemberModel) {}

  /** Inserts a new application; a second open one of the same applicant fails on openKey. */
  async insert(record: Omit<MemberRecord, "createdAt" | "updatedAt">): Promise<MemberRecord> {
    const created = await this.members.create(record);
    return created.toObject();
  }

  findById(id: string): Promise<MemberRecord | null> {
    return this.members.findById(id).lean<MemberRecord>().exec();
  }

  page(query: MemberQuery, page: number, limit: number): Promise<FoundPage<MemberRecord>> {
    return findPage(this.members, filterOf(query), NEWEST_FIRST, { page, limit });
  }

  /** Every record the query selects, newest first, read from the database a batch at a time. */
  stream(query: MemberQuery, batchSize: number): AsyncIterable<MemberRecord> {
    return this.members
      .find(filterOf(query))
      .sort(NEWEST_FIRST)
      .lean<MemberRecord[]>()
      .cursor({ batchSize });
  }

  ofUser(userId: string): Promise<MemberRecord[]> {
    return this.members.find({ userId }).sort(NEWEST_FIRST).lean<MemberRecord[]>().exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.members.deleteMany({ userId }).exec();
  }

  async namesBranch(branchId: string): Promise<boolean> {
    return (await this.members.exists({ preferredBranchIds: branchId }).exec()) !== null;
  }

  /** The applicant's records follow the account's new email, in what they show and search. */
  async setEmailOfUser(userId: string, email: string): Promise<void> {
    const records = await this.members
      .find({ userId }, { firstName: 1, lastName: 1, mobilePhoneNumber: 1 })
      .lean<Pick<MemberRecord, "_id" | "firstName" | "lastName" | "mobilePhoneNumber">[]>()
      .exec();
    for (const record of records) {
      await this.members
        .updateOne(
          { _id: record._id },
          { $set: { searchEmail: email, searchText: searchTextOf(record, email) } },
        )
        .exec();
    }
  }

  /**
   * Records written before searchText and activeOffices existed get them (a migration step;
   * an office count of 0 is then corrected by the offices' own step). Returns how many.
   */
  async backfillSearchFields(): Promise<number> {
    const stale = this.members
      .find(
        { searchText: absent() },
        { firstName: 1, lastName: 1, mobilePhoneNumber: 1, searchEmail: 1 },
      )
      .lean<
        Pick<MemberRecord, "_id" | "firstName" | "lastName" | "mobilePhoneNumber" | "searchEmail">[]
      >()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of stale) {
      await this.members
        .updateOne(
          { _id: record._id },
          {
            $set: { searchText: searchTextOf(record, record.searchEmail) },
            $unset: { revision: 1 },
            $max: { activeOffices: 0 },
          },
          { strict: false },
        )
        .exec();
      changed += 1;
    }
    return changed;
  }

  /**
   * A review decision, applied only if the record is still in the state it was decided from
   * (and, when it leaves APPROVED, holds no office). Null when that no longer holds.
   */
  changeStatus(
    current: Pick<MemberRecord, "_id" | "status">,
    update: UpdateQuery<MemberRecord>,
  ): Promise<MemberRecord | null> {
    const leavesApproved = current.status === MemberStatus.APPROVED;
    return this.members
      .findOneAndUpdate(
        {
          _id: current._id,
          status: current.status,
          archivedAt: null,
          ...(leavesApproved ? { activeOffices: 0 } : {}),
        },
        update,
        { returnDocument: "after" },
      )
      .lean<MemberRecord>()
      .exec();
  }

  /** Archives a record that is not archived and holds no office; null otherwise. */
  archive(id: string, update: UpdateQuery<MemberRecord>): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate({ _id: id, archivedAt: null, activeOffices: 0 }, update, {
        returnDocument: "after",
      })
      .lean<MemberRecord>()
      .exec();
  }

  /** Brings back an archived record; null if it is not archived (any more). */
  retrieve(id: string, update: UpdateQuery<MemberRecord>): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate({ _id: id, archivedAt: notEqual(null) }, update, {
        returnDocument: "after",
      })
      .lean<MemberRecord>()
      .exec();
  }

  /** Counts one more office held, only by an APPROVED record that is not archived. */
  reserveForOffice(id: string): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate(
        { _id: id, status: MemberStatus.APPROVED, archivedAt: null },
        { $inc: { activeOffices: 1 } },
        { returnDocument: "after" },
      )
      .lean<MemberRecord>()
      .exec();
  }

  async releaseFromOffice(id: string): Promise<void> {
    await this.members
      .updateOne({ _id: id, activeOffices: greaterThan(0) }, { $inc: { activeOffices: -1 } })
      .exec();
  }
}

function filterOf(query: MemberQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.userId) filter.userId = query.userId;
  if (query.status) filter.status = query.status;
  if (!query.includeArchived) filter.archivedAt = null;
  return { ...filter, ...searchFilter(query.search) };
}
