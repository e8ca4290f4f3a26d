import type { Headquarters } from "../../config";
import { NotFoundError } from "../../errors/app-errors";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { Logger } from "../../logger";
import type { Caller } from "../auth/caller";
import type { PublicFileRule } from "../files/file-refs";
import { directoryOf } from "./member-directory";
import type { DirectoryLocations } from "./member-directory.type";
import type { PublicRecord, MemberPublicRepository } from "./member-public.repository";
import type {
  MemberTypeAssignment,
  PublicMember,
  PublicMemberProfile,
  PublicProfileChoiceView,
} from "./member-public.type";
import type { CurrentOffices } from "./member-read.service";
import { MemberStatus, type MemberType } from "./member.enums";
import { fullNameOf, type PublicProfileChoice } from "./member.model";
import type { MemberReferences } from "./member.presenter";
import { canonicalRegion, officialRegion } from "./regions";

/** The one answer of the public page for every key that is not an approved, active member. */
const NOT_PUBLIC = "No approved member has this id";
/** Longer than any id or uniqueId the service issues: answered without asking the database. */
const KEY_MAX = 64;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MemberPublicOptions {
  headquarters: Headquarters;
  currentOffices: CurrentOffices;
  /**
   * The public URL of the member's approved 2x2 photo, or null (the onboarding module keeps the
   * photo, the files module renders its URL).
   */
  photoUrlOf: (memberId: string) => Promise<string | null>;
  /** The file id of the member's approved 2x2 photo, or null. */
  photoIdOf: (memberId: string) => Promise<string | null>;
  log: Logger;
}

/**
 * The organisation's public pages over member records (contract §12): the directory, the
 * service chaplains, the profile each member chose to show, and the choices behind them.
 */
export class MemberPublicPages {
  constructor(
    private readonly members: MemberPublicRepository,
    private readonly references: Pick<MemberReferences, "branchTitles">,
    private readonly options: MemberPublicOptions,
  ) {}

  async directory(): Promise<DirectoryLocations> {
    return directoryOf(await this.members.directoryCounts(), this.options.headquarters);
  }

  /**
   * The page behind a member's card, by record id or uniqueId. Every other key gets the same
   * 404, so the answer tells nothing of records that are not public.
   */
  async publicMember(key: string): Promise<PublicMember> {
    const trimmed = key.trim();
    const record =
      trimmed.length === 0 || trimmed.length > KEY_MAX
        ? null
        : await this.members.findPublic(
            UUID.test(trimmed) ? { id: trimmed.toLowerCase() } : { uniqueId: trimmed },
          );
    if (!record) throw new NotFoundError(NOT_PUBLIC);
    const [profile] = await this.profiles([record]);
    const approvals = record.statusHistory.filter((entry) => entry.to === MemberStatus.APPROVED);
    return {
      ...profile,
      status: record.status,
      memberSince: approvals.at(-1)?.at ?? record.updatedAt,
      offices: await this.options.currentOffices(record._id),
    };
  }

  /** Certified specialists who chose to be listed, by name. */
  async serviceChaplains(
    page: number,
    limit: number,
  ): Promise<Omit<Page<PublicMemberProfile>, "code" | "message">> {
    const { records, total } = await this.members.serviceChaplains(page, limit);
    return {
      data: await this.profiles(records),
      pagination: Pagination.of(page, limit, total),
    };
  }

  /** The caller's choice, on their latest record that is not archived. */
  async setPublicProfile(
    caller: Caller,
    choice: Partial<PublicProfileChoice>,
  ): Promise<PublicProfileChoiceView & { memberId: string }> {
    const complete: PublicProfileChoice = {
      listed: choice.listed === true,
      showPhoto: choice.showPhoto === true,
      showLocation: choice.showLocation === true,
      showBranches: choice.showBranches === true,
    };
    const record = await this.members.setPublicProfile(caller.id, complete);
    if (!record) throw new NotFoundError("You have no membership record to show");
    return { ...complete, memberId: record._id };
  }

  async setMemberType(
    id: string,
    memberType: MemberType,
    badgeNumber: string | null | undefined,
  ): Promise<MemberTypeAssignment> {
    const change =
      badgeNumber === undefined
        ? { memberType }
        : { memberType, badgeNumber: badgeNumber?.trim() || null };
    const record = await this.members.setMemberType(id, change);
    if (!record) throw new NotFoundError("No member record has this id");
    return { id: record._id, memberType, badgeNumber: record.badgeNumber ?? null };
  }

  /**
   * The files module's PublicFileRule: a listed member's avatar, and the approved 2x2 of a
   * member who chose to show the photo, may be served at /files/public/{id}.
   */
  readonly publicFileRule: PublicFileRule = async (file) => {
    if (file.purpose === "AVATAR") return this.members.isListed(file.ownerId);
    const record = await this.members.showingPhoto(file.ownerId);
    if (!record) return false;
    return (await this.options.photoIdOf(record._id)) === file.id;
  };

  /**
   * Migration step: stored regions under their official names. What it cannot map stays as
   * given and is reported as place names with counts, never with whose records they are.
   */
  async migrateRegions(): Promise<number> {
    let changed = 0;
    const unmapped: Record<string, number> = {};
    for (const { region, records } of await this.members.regionsInUse()) {
      const official = officialRegion(region);
      if (!official) {
        unmapped[region.slice(0, 80)] = records;
        continue;
      }
      if (official !== region) changed += await this.members.renameRegion(region, official);
    }
    if (Object.keys(unmapped).length > 0) {
      this.options.log.warn({ unmapped }, "regions left as given: no official region matches");
    }
    return changed;
  }

  /** What each record's member chose to show; branch titles looked up once for all. */
  private async profiles(records: readonly PublicRecord[]): Promise<PublicMemberProfile[]> {
    const branchIds = records.flatMap((r) =>
      r.publicProfile?.showBranches ? r.preferredBranchIds : [],
    );
    const [titles, photos] = await Promise.all([
      branchIds.length > 0
        ? this.references.branchTitles([...new Set(branchIds)])
        : new Map<string, string>(),
      Promise.all(
        records.map((r) =>
          r.publicProfile?.showPhoto ? this.options.photoUrlOf(r._id) : Promise.resolve(null),
        ),
      ),
    ]);
    return records.map((record, index) => {
      const choice = record.publicProfile;
      const location = choice?.showLocation === true;
      return {
        id: record._id,
        uniqueId: record.uniqueId ?? null,
        fullName: fullNameOf(record),
        memberType: record.memberType ?? null,
        badgeNumber: record.badgeNumber ?? null,
        photoUrl: photos[index],
        region: location ? canonicalRegion(record.region) : null,
        province: location ? record.province : null,
        municipalityCity: location ? record.municipalityCity : null,
        preferredBranches: choice?.showBranches
          ? record.preferredBranchIds.flatMap((id) => {
              const title = titles.get(id);
              return title === undefined ? [] : [{ id, title }];
            })
          : null,
      };
    });
  }
}
