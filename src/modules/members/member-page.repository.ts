import { oneOf } from "../../db/operators";
import { MemberStatus } from "./member.enums";
import type { MemberModel, MemberRecord } from "./member.model";

/** The fields of the record an owner edits for the public page. */
export const PAGE_FIELDS = [
  "churchAffiliation",
  "churchAddress",
  "currentPositionRole",
  "currentPositionRoleOther",
  "elementarySchool",
  "secondarySchool",
  "tertiaryCollege",
  "postGraduateStudies",
  "profileBannerFileId",
  "profileBannerPositionY",
] as const satisfies readonly (keyof MemberRecord)[];

/** A projection of `fields` (besides `_id`). */
export const projectionOf = (fields: readonly (keyof MemberRecord)[]) =>
  Object.fromEntries(fields.map((field) => [field, 1] as const));

const PAGE_RECORD_FIELDS = [
  "userId",
  "status",
  "uniqueId",
  "preferredBranchIds",
  "preferredBranchOther",
  ...PAGE_FIELDS,
] as const;

/** What the owner edits read and write of a record. */
export type PageRecord = Pick<MemberRecord, "_id" | (typeof PAGE_RECORD_FIELDS)[number]>;

/** The fields the owner edits may change. */
export type PageChanges = Partial<Omit<PageRecord, "_id" | "userId" | "status" | "uniqueId">>;

const PAGE_PROJECTION = projectionOf(PAGE_RECORD_FIELDS);

/** Every database call of the owner's edits of the public page. */
export class MemberPageRepository {
  constructor(private readonly members: MemberModel) {}

  /** The caller's latest record that is not archived (what `/members/current` means), or null. */
  currentOf(userId: string): Promise<PageRecord | null> {
    return this.members
      .findOne({ userId, archivedAt: null }, PAGE_PROJECTION)
      .sort({ createdAt: -1, _id: -1 })
      .lean<PageRecord>()
      .exec();
  }

  /** Changes the record while it is APPROVED and not archived; null when it no longer is. */
  update(id: string, changes: PageChanges): Promise<PageRecord | null> {
    return this.members
      .findOneAndUpdate(
        { _id: id, status: MemberStatus.APPROVED, archivedAt: null },
        { $set: changes },
        { returnDocument: "after" },
      )
      .lean<PageRecord>()
      .exec();
  }

  /** Which of these files the account's records show as their banner. */
  async bannerAmong(userId: string, fileIds: readonly string[]): Promise<Set<string>> {
    if (fileIds.length === 0) return new Set();
    const rows = await this.members
      .find({ userId, profileBannerFileId: oneOf([...fileIds]) }, { profileBannerFileId: 1 })
      .lean<Pick<MemberRecord, "profileBannerFileId">[]>()
      .exec();
    return new Set(rows.flatMap((row) => row.profileBannerFileId ?? []));
  }
}
