import type { FoundPage } from "../../db/page-query";
import { oneOf } from "../../db/operators";
import { MemberStatus, MemberType } from "./member.enums";
import type { MemberModel, MemberRecord, PublicProfileChoice } from "./member.model";
import { PAGE_FIELDS, projectionOf } from "./member-page.repository";

/** Members per barangay, as the database's one `$group` counts them. */
export interface LocationCount {
  region: string | null;
  province: string | null;
  municipalityCity: string | null;
  barangay: string | null;
  memberCount: number;
}

const PUBLIC_FIELDS = [
  "userId",
  "firstName",
  "lastName",
  "middleInitial",
  "extensionName",
  "status",
  "statusHistory",
  "updatedAt",
  "uniqueId",
  "memberType",
  "badgeNumber",
  "publicProfile",
  "region",
  "province",
  "municipalityCity",
  "preferredBranchIds",
  ...PAGE_FIELDS,
] as const;

/** What a public page may read of a record; the rest never leaves the database. */
export type PublicRecord = Pick<MemberRecord, "_id" | (typeof PUBLIC_FIELDS)[number]>;

const PUBLIC_PROJECTION = projectionOf(PUBLIC_FIELDS);

/** A public page's key: a record id (UUID) or a uniqueId; null for one no record can have. */
export type PublicKey = { id: string } | { uniqueId: string };

/** Longer than any id or uniqueId the service issues: answered without asking the database. */
const KEY_MAX = 64;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function publicKeyOf(key: string): PublicKey | null {
  const trimmed = key.trim();
  if (trimmed.length === 0 || trimmed.length > KEY_MAX) return null;
  return UUID.test(trimmed) ? { id: trimmed.toLowerCase() } : { uniqueId: trimmed };
}

/** Members the public pages count and show: APPROVED and not archived. */
const PUBLIC = { status: MemberStatus.APPROVED, archivedAt: null } as const;
const EVERY_STATUS = Object.values(MemberStatus);
const BY_NAME = { lastName: 1, firstName: 1, _id: 1 } as const;

/**
 * The directory's aggregation: APPROVED, unarchived members counted per barangay by the
 * database (served by the schema's directory index); the service reads one row per place.
 */
export function directoryPipeline(): Record<string, unknown>[] {
  return [
    { $match: { ...PUBLIC } },
    {
      $group: {
        _id: {
          region: "$region",
          province: "$province",
          municipalityCity: "$municipalityCity",
          barangay: "$barangay",
        },
        memberCount: { $sum: 1 },
      },
    },
  ];
}

/** Every database call of the public pages, the member's own consent and the member type. */
export class MemberPublicRepository {
  constructor(private readonly members: MemberModel) {}

  async directoryCounts(): Promise<LocationCount[]> {
    const rows = await this.members
      .aggregate<{ _id: Omit<LocationCount, "memberCount">; memberCount: number }>(
        directoryPipeline() as never[],
      )
      .exec();
    return rows.map((row) => ({
      region: row._id.region ?? null,
      province: row._id.province ?? null,
      municipalityCity: row._id.municipalityCity ?? null,
      barangay: row._id.barangay ?? null,
      memberCount: row.memberCount,
    }));
  }

  /** A public member by record id or uniqueId; null for anything not APPROVED and active. */
  findPublic(key: PublicKey): Promise<PublicRecord | null> {
    const filter = "id" in key ? { _id: key.id } : { uniqueId: key.uniqueId };
    return this.members
      .findOne({ ...filter, ...PUBLIC }, PUBLIC_PROJECTION)
      .lean<PublicRecord>()
      .exec();
  }

  /** Certified specialists who chose to be listed, by name. */
  async serviceChaplains(page: number, limit: number): Promise<FoundPage<PublicRecord>> {
    const filter = {
      memberType: MemberType.CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR,
      "publicProfile.listed": true,
      ...PUBLIC,
    };
    const [records, total] = await Promise.all([
      this.members
        .find(filter, PUBLIC_PROJECTION)
        .sort(BY_NAME)
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<PublicRecord[]>()
        .exec(),
      this.members.countDocuments(filter).exec(),
    ]);
    return { records, total };
  }

  /** Whether the account has a public (listed, APPROVED, active) record: its avatar is public. */
  async isListed(userId: string): Promise<boolean> {
    const found = await this.members
      .exists({ userId, "publicProfile.listed": true, ...PUBLIC })
      .exec();
    return found !== null;
  }

  /** The account's APPROVED, active record when its member chose to show the photo. */
  async showingPhoto(userId: string): Promise<Pick<MemberRecord, "_id"> | null> {
    return this.members
      .findOne({ userId, "publicProfile.showPhoto": true, ...PUBLIC }, { _id: 1 })
      .lean<Pick<MemberRecord, "_id">>()
      .exec();
  }

  /** Whether the account's APPROVED, active record shows this file as its banner. */
  async showsBanner(userId: string, fileId: string): Promise<boolean> {
    const found = await this.members
      .exists({ userId, profileBannerFileId: fileId, ...PUBLIC })
      .exec();
    return found !== null;
  }

  /** Whether any of these records is public (APPROVED, active), and listed when asked. */
  async anyPublic(ids: readonly string[], listed: boolean): Promise<boolean> {
    if (ids.length === 0) return false;
    const filter = { _id: oneOf([...ids]), ...PUBLIC };
    const found = await this.members
      .exists(listed ? { ...filter, "publicProfile.listed": true } : filter)
      .exec();
    return found !== null;
  }

  /** Sets the choice on the caller's latest record that is not archived; null if none. */
  setPublicProfile(userId: string, choice: PublicProfileChoice): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate(
        { userId, archivedAt: null },
        { $set: { publicProfile: choice } },
        { sort: { createdAt: -1, _id: -1 }, returnDocument: "after" },
      )
      .lean<MemberRecord>()
      .exec();
  }

  setMemberType(
    id: string,
    change: Pick<MemberRecord, "memberType"> & Partial<Pick<MemberRecord, "badgeNumber">>,
  ): Promise<MemberRecord | null> {
    return this.members
      .findOneAndUpdate({ _id: id }, { $set: change }, { returnDocument: "after" })
      .lean<MemberRecord>()
      .exec();
  }

  /** The region names stored, with how many records carry each (the region migration). */
  async regionsInUse(): Promise<{ region: string; records: number }[]> {
    const rows = await this.members
      .aggregate<{ _id: string | null; records: number }>([
        { $match: { status: { $in: EVERY_STATUS } } },
        { $group: { _id: "$region", records: { $sum: 1 } } },
      ])
      .exec();
    return rows.flatMap((row) =>
      typeof row._id === "string" ? [{ region: row._id, records: row.records }] : [],
    );
  }

  /** Renames one stored region form to its official name; how many records changed. */
  async renameRegion(from: string, to: string): Promise<number> {
    const result = await this.members
      .updateMany({ status: oneOf(EVERY_STATUS), region: from }, { $set: { region: to } })
      .exec();
    return result.modifiedCount;
  }
}
