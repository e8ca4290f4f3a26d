import type { Headquarters } from "../../config";
import { NotFoundError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import type { Logger } from "../../logger";
import type { Caller } from "../auth/caller";
import type { FilePurpose, PublicFileRule } from "../files/file-refs";
import { directoryOf } from "./member-directory";
import type { DirectoryLocations } from "./member-directory.type";
import { PublicPageParts, type PublicPageSources } from "./member-public-page";
import {
  publicKeyOf,
  type MemberPublicRepository,
  type PublicRecord,
} from "./member-public.repository";
import type { MemberTypeAssignment, PublicMember, PublicMemberProfile } from "./member-public.type";
import type { PublicProfileChoiceView } from "./public-profile-choice.type";
import type { MemberType } from "./member.enums";
import { choiceOf, fullNameOf, type PublicProfileChoice } from "./member.model";
import type { MemberReferences } from "./member.presenter";
import { canonicalRegion, officialRegion } from "./regions";

/** The one answer of the public page for every key that is not an approved, active member. */
const NOT_PUBLIC = "No approved member has this id";
/** Files that may be a banner: any image of the member's. */
const BANNER_PURPOSES: readonly FilePurpose[] = ["AVATAR", "PUBLIC_RECORD", "CERTIFICATE"];

export interface MemberPublicOptions extends PublicPageSources {
  headquarters: Headquarters;
  log: Logger;
}

/**
 * The organisation's public pages over member records: the directory, the
 * service chaplains, the page each member chose to show, and the choices behind them.
 */
export class MemberPublicPages {
  private readonly parts: PublicPageParts;

  constructor(
    private readonly members: MemberPublicRepository,
    private readonly references: Pick<MemberReferences, "branchTitles">,
    private readonly options: MemberPublicOptions,
  ) {
    this.parts = new PublicPageParts(options);
  }

  async directory(): Promise<DirectoryLocations> {
    return directoryOf(await this.members.directoryCounts(), this.options.headquarters);
  }

  /**
   * The page behind a member's card, by record id or uniqueId. Every other key gets the same
   * 404, so the answer tells nothing of records that are not public.
   */
  async publicMember(key: string): Promise<PublicMember> {
    const lookup = publicKeyOf(key);
    const record = lookup && (await this.members.findPublic(lookup));
    if (!record) throw new NotFoundError(NOT_PUBLIC);
    const photos = await this.parts.photosOf([record]);
    const [profile] = await this.profiles([record], photos);
    return this.parts.pageOf(record, profile, photos[0]);
  }

  /** A member anyone may follow: APPROVED, active and listed; null for every other key. */
  async followable(key: string): Promise<{ memberId: string; userId: string } | null> {
    const lookup = publicKeyOf(key);
    const record = lookup && (await this.members.findPublic(lookup));
    if (!record?.publicProfile?.listed) return null;
    return { memberId: record._id, userId: record.userId };
  }

  /** Certified specialists who chose to be listed, by name. */
  async serviceChaplains(page: number, limit: number): Promise<PageResult<PublicMemberProfile>> {
    const { records, total } = await this.members.serviceChaplains(page, limit);
    return pageOf(
      { page, limit },
      await this.profiles(records, await this.parts.photosOf(records)),
      total,
    );
  }

  /** The caller's choice, on their latest record that is not archived. */
  async setPublicProfile(
    caller: Caller,
    choice: Partial<PublicProfileChoice>,
  ): Promise<PublicProfileChoiceView & { memberId: string }> {
    const complete = choiceOf(choice);
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
   * The files module's PublicFileRule: a file is served at /files/public/{id} exactly while a
   * public page shows it: the banner of an approved member; a listed member's current avatar and
   * certificates; the pictures of PUBLISHED records; the approved 2x2 of a member who chose to
   * show the photo.
   */
  readonly publicFileRule: PublicFileRule = async (file) => {
    if (BANNER_PURPOSES.includes(file.purpose)) {
      if (await this.members.showsBanner(file.ownerId, file.id)) return true;
    }
    const content = this.options.content();
    // Only the current avatar: a replaced one is private again.
    if (file.purpose === "AVATAR") {
      const account = await this.options.accountOf(file.ownerId);
      return account?.avatar === file.id && this.members.isListed(file.ownerId);
    }
    if (file.purpose === "CERTIFICATE")
      return this.members.anyPublic(await content.certificateMembersOf(file.id), true);
    if (file.purpose === "PUBLIC_RECORD")
      return this.members.anyPublic(await content.publishedRecordMembersOf(file.id), false);
    const record = await this.members.showingPhoto(file.ownerId);
    if (!record) return false;
    return (await this.options.approvedPhotoOf(record._id))?.fileId === file.id;
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

  /**
   * What each record's member chose to show; branch titles looked up once for all, photos as
   * `photosOf` found them.
   */
  private async profiles(
    records: readonly PublicRecord[],
    photos: readonly ({ fileUrl: string } | null)[],
  ): Promise<PublicMemberProfile[]> {
    const branchIds = records.flatMap((r) =>
      r.publicProfile?.showBranches ? r.preferredBranchIds : [],
    );
    const titles =
      branchIds.length > 0
        ? await this.references.branchTitles([...new Set(branchIds)])
        : new Map<string, string>();
    return records.map((record, index) => {
      const choice = record.publicProfile;
      const location = choice?.showLocation === true;
      return {
        id: record._id,
        uniqueId: record.uniqueId ?? null,
        fullName: fullNameOf(record),
        memberType: record.memberType ?? null,
        badgeNumber: record.badgeNumber ?? null,
        photoUrl: photos[index]?.fileUrl ?? null,
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
