// Past the usual size on purpose: every query and conditional update on member records sits in
// one class beside the indexes of member.model.ts that serve them; public pages and maintenance
// already have repositories of their own.
import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { greaterThan, noneOf, notEqual, oneOf } from "../../db/operators";
import { findPage, type FoundPage } from "../../db/page-query";
import { searchFilter } from "../../db/search-text";
import type { StepTaken } from "../onboarding/step-times";
import { MemberStatus } from "./member.enums";
import {
  CANDIDATE_PROJECTION,
  type DuplicateCandidate,
  type DuplicateLookup,
} from "./member-duplicates";
import {
  NAME_PROJECTION,
  openKeyOf,
  searchTextOf,
  type MemberModel,
  type MemberRecord,
  type NameFields,
  type StatusChangeRecord,
} from "./member.model";

/** What the caller's user shows of their latest application. */
export type ProfileRecord = Pick<
  MemberRecord,
  "_id" | "userId" | "status" | "archivedAt" | "createdAt" | "uniqueId"
>;

/**
 * A page's duplicate lookup stops here: a record with this many look-alikes is flagged
 * whatever the rest are, and the page's answer stays bounded.
 */
const CANDIDATE_LIMIT = 500;

/** What a list of member records may be narrowed by (GET /members, /members/me, the export). */
export interface MemberQuery {
  status?: MemberStatus | null;
  includeArchived?: boolean;
  userId?: string;
  /** The contract's `search` (see searchFilter). */
  search?: string | null;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** A review decision: its history entry (whose `to` is the new status); an approval sets more. */
export type StatusChange = Partial<
  Pick<MemberRecord, "onboardingStep" | "approvedMonth" | "onboardingStartedAt">
> & {
  entry: StatusChangeRecord;
};

/** What the onboarding changes on an APPROVED record: the step, and the oath's member type. */
export type OnboardingChange = Partial<Pick<MemberRecord, "onboardingStep" | "memberType">>;

/** A member as others may name them (a news post's tags): no contact, no personal details. */
export type NamedMember = Pick<
  MemberRecord,
  "_id" | "firstName" | "lastName" | "middleInitial" | "extensionName" | "uniqueId"
>;

/** Every database call on member records. */
export class MemberRepository {
  constructor(private readonly members: MemberModel) {}

  /** Inserts a new application; a second open one of the same applicant fails on openKey. */
  /** DUPLICATE when the applicant already has an open application (the unique openKey). */
  async insert(
    record: Omit<MemberRecord, "createdAt" | "updatedAt">,
  ): Promise<MemberRecord | Duplicate> {
    const created = await unlessDuplicate(this.members.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
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

  /** The newest application of each account (archived ones included), one query for all. */
  async latestOfUsers(userIds: readonly string[]): Promise<Map<string, ProfileRecord>> {
    if (userIds.length === 0) return new Map();
    // An account has a few records: picked here, so the query needs no sort over the $in.
    const records = await this.members
      .find(
        { userId: oneOf([...userIds]) },
        { userId: 1, status: 1, archivedAt: 1, createdAt: 1, uniqueId: 1 },
      )
      .lean<ProfileRecord[]>()
      .exec();
    const latest = new Map<string, ProfileRecord>();
    for (const record of records) {
      const kept = latest.get(record.userId);
      if (!kept || newer(record, kept)) latest.set(record.userId, record);
    }
    return latest;
  }

  /** These records, as far as they exist. */
  findByIds(ids: readonly string[]): Promise<MemberRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.members
      .find({ _id: oneOf([...new Set(ids)]) })
      .lean<MemberRecord[]>()
      .exec();
  }

  /** The APPROVED, unarchived records among `ids`: their names and uniqueId only. */
  approvedNames(ids: readonly string[]): Promise<NamedMember[]> {
    return this.members
      .find(
        { _id: oneOf([...ids]), status: MemberStatus.APPROVED, archivedAt: null },
        { firstName: 1, lastName: 1, middleInitial: 1, extensionName: 1, uniqueId: 1 },
      )
      .lean<NamedMember[]>()
      .exec();
  }

  /** Every record sharing one of the keys (one $or, each branch on its own index). */
  duplicateCandidates(lookup: DuplicateLookup): Promise<DuplicateCandidate[]> {
    const branches = (Object.keys(lookup) as (keyof DuplicateLookup)[])
      .filter((key) => lookup[key].length > 0)
      .map((key) => ({ [key]: oneOf(lookup[key]) }));
    if (branches.length === 0) return Promise.resolve([]);
    return this.members
      .find({ $or: branches }, CANDIDATE_PROJECTION)
      .limit(CANDIDATE_LIMIT)
      .lean<DuplicateCandidate[]>()
      .exec();
  }

  ofUser(userId: string): Promise<MemberRecord[]> {
    return this.members.find({ userId }).sort(NEWEST_FIRST).lean<MemberRecord[]>().exec();
  }

  /** An account's records that were ever approved (they have a uniqueId): the site showed them. */
  async everApprovedIdsOf(userId: string): Promise<string[]> {
    const records = await this.members
      .find({ userId }, { _id: 1, uniqueId: 1 })
      .lean<{ _id: string; uniqueId?: string }[]>()
      .exec();
    return records.filter((record) => record.uniqueId).map((record) => record._id);
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
      .find({ userId }, NAME_PROJECTION)
      .lean<(NameFields & Pick<MemberRecord, "_id">)[]>()
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
   * A review decision, its entry appended to the history, applied only if the record is still
   * in the state it was decided from (and, when it leaves APPROVED, holds no office). Null when
   * that no longer holds; DUPLICATE when it would open a second application of the applicant.
   */
  changeStatus(
    current: Pick<MemberRecord, "_id" | "userId" | "status">,
    change: StatusChange,
  ): Promise<MemberRecord | null | Duplicate> {
    const leavesApproved = current.status === MemberStatus.APPROVED;
    const { entry, ...approval } = change;
    const status = entry.to;
    return unlessDuplicate(
      this.members
        .findOneAndUpdate(
          {
            _id: current._id,
            status: current.status,
            archivedAt: null,
            ...(leavesApproved ? { activeOffices: 0 } : {}),
          },
          {
            $set: {
              status,
              ...approval,
              openKey: openKeyOf({ ...current, status, archivedAt: null }),
            },
            $push: { statusHistory: entry },
          },
          { returnDocument: "after" },
        )
        .lean<MemberRecord>()
        .exec(),
    );
  }

  /** Archives a record that is not archived and holds no office; null otherwise. */
  archive(
    current: Pick<MemberRecord, "_id" | "userId" | "status">,
    archivedAt: Date,
  ): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate(
        { _id: current._id, archivedAt: null, activeOffices: 0 },
        { $set: { archivedAt, openKey: openKeyOf({ ...current, archivedAt }) } },
        { returnDocument: "after" },
      )
      .lean<MemberRecord>()
      .exec();
  }

  /**
   * Brings back an archived record; null if it is not archived (any more), DUPLICATE when the
   * applicant has another open application meanwhile.
   */
  retrieve(
    current: Pick<MemberRecord, "_id" | "userId" | "status">,
  ): Promise<MemberRecord | null | Duplicate> {
    return unlessDuplicate(
      this.members
        .findOneAndUpdate(
          { _id: current._id, archivedAt: notEqual(null) },
          { $set: { archivedAt: null, openKey: openKeyOf({ ...current, archivedAt: null }) } },
          { returnDocument: "after" },
        )
        .lean<MemberRecord>()
        .exec(),
    );
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

  /** The account's latest record that is not archived (`/members/current/...`), or null. */
  currentOfUser(userId: string): Promise<MemberRecord | null> {
    return this.members
      .findOne({ userId, archivedAt: null })
      .sort(NEWEST_FIRST)
      .lean<MemberRecord>()
      .exec();
  }

  /**
   * Moves an APPROVED, active record on from the step it was read at, adding the steps it moved
   * past for the first time; null when it is no longer at that step, already has one of those
   * times (a move beside this one), or is no longer APPROVED and active.
   */
  moveOnboarding(
    read: Pick<MemberRecord, "_id" | "onboardingStep">,
    changes: OnboardingChange,
    taken: readonly StepTaken[],
  ): Promise<MemberRecord | null> {
    const steps = taken.map((entry) => entry.step);
    return this.members
      .findOneAndUpdate(
        {
          _id: read._id,
          status: MemberStatus.APPROVED,
          archivedAt: null,
          onboardingStep: read.onboardingStep ?? null,
          ...(steps.length > 0 ? { "onboardingTimes.step": noneOf(steps) } : {}),
        },
        {
          $set: changes,
          ...(taken.length > 0 ? { $push: { onboardingTimes: { $each: [...taken] } } } : {}),
        },
        { returnDocument: "after" },
      )
      .lean<MemberRecord>()
      .exec();
  }

  /** APPROVED records that are not archived, newest first, optionally on one onboarding step. */
  onboardingPage(
    query: { step?: string | null; search?: string | null },
    page: number,
    limit: number,
  ): Promise<FoundPage<MemberRecord>> {
    const filter: Record<string, unknown> = {
      status: MemberStatus.APPROVED,
      archivedAt: null,
      ...(query.step ? { onboardingStep: query.step } : {}),
      ...searchFilter(query.search),
    };
    return findPage(this.members, filter, NEWEST_FIRST, { page, limit });
  }

  async releaseFromOffice(id: string): Promise<void> {
    await this.members
      .updateOne({ _id: id, activeOffices: greaterThan(0) }, { $inc: { activeOffices: -1 } })
      .exec();
  }
}

/** Newest first as the lists order: by createdAt, then by id (UUID v7, time-ordered). */
function newer(a: ProfileRecord, b: ProfileRecord): boolean {
  const by = a.createdAt.getTime() - b.createdAt.getTime();
  return by !== 0 ? by > 0 : a._id > b._id;
}

function filterOf(query: MemberQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (query.userId) filter.userId = query.userId;
  if (query.status) filter.status = query.status;
  if (!query.includeArchived) filter.archivedAt = null;
  return { ...filter, ...searchFilter(query.search) };
}
