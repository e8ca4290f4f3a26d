import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { fileIdOf } from "../files/file-links";
import type { FilePurpose, FileRefs } from "../files/file-refs";
import type { ProfileContent, ProfileOwner } from "../profiles/profile-ports";
import type { PageChanges, PageRecord, MemberPageRepository } from "./member-page.repository";
import type {
  SaveBranchServicesArgs,
  SaveChurchAffiliationArgs,
  SaveEducationArgs,
  SaveProfileBannerArgs,
} from "./member-page.input";
import type {
  BranchServiceChoice,
  ChurchAffiliation,
  Education,
  ProfileBanner,
} from "./member-page.type";
import { MemberStatus } from "./member.enums";
import type { ChangeFeed } from "../webhooks/change-feed";

/** Any image of the member's may be the banner. */
const BANNER_PURPOSES: readonly FilePurpose[] = ["AVATAR", "PUBLIC_RECORD", "CERTIFICATE"];
const NOT_A_BANNER =
  "profileBannerUrl must be an image you uploaded (AVATAR, PUBLIC_RECORD or CERTIFICATE): its id or fileUrl";
const NO_RECORD = "You have no membership record to show";
const NOT_APPROVED =
  "Only an APPROVED member record that is not archived has a public page to edit";
/** How schools of one level are stored in one field, as the site splits them. */
const ENTRY_SEPARATOR = " | ";
const NAME_SEPARATOR = ", ";

export interface MemberPageDeps {
  files: () => FileRefs;
  /** Certificates and public records may show the banner's file too (profiles module). */
  content: () => ProfileContent;
  /** The account's avatar (a file id or an outside URL): the banner may be that same file. */
  avatarOf: (userId: string) => Promise<string | null>;
  branches: () => {
    /** Branches of service whose title is one of these names (any letter case). */
    byTitles(names: readonly string[]): Promise<{ id: string; title: string }[]>;
    titlesOf(ids: readonly string[]): Promise<Map<string, string>>;
  };
  /** Tells the organisation's site of a change its public pages show (webhooks). */
  changes: () => ChangeFeed;
}

/**
 * The owner's edits of the record behind the public page: banner, church,
 * education and branches of service, on the caller's APPROVED record. Also answers the profiles
 * module which record an edit of theirs acts on.
 */
export class MemberPageEdits {
  constructor(
    private readonly records: MemberPageRepository,
    private readonly deps: MemberPageDeps,
  ) {}

  async currentOf(userId: string): Promise<ProfileOwner | null> {
    const record = await this.records.currentOf(userId);
    return record && { memberId: record._id, userId: record.userId };
  }

  async editableOf(userId: string): Promise<ProfileOwner> {
    const record = await this.editable(userId);
    return { memberId: record._id, userId: record.userId };
  }

  bannerAmong(userId: string, fileIds: readonly string[]): Promise<Set<string>> {
    return this.records.bannerAmong(userId, fileIds);
  }

  /** GET /members/current/profile-banner: null without an application. */
  async banner(caller: Caller): Promise<ProfileBanner | null> {
    const record = await this.records.currentOf(caller.id);
    return record && this.bannerOf(record);
  }

  async saveBanner(caller: Caller, args: SaveProfileBannerArgs): Promise<ProfileBanner> {
    const record = await this.editable(caller.id);
    const changes: PageChanges = {};
    if (args.profileBannerPositionY !== undefined)
      changes.profileBannerPositionY =
        args.profileBannerPositionY === null
          ? null
          : Math.round(args.profileBannerPositionY * 100) / 100;
    if (args.profileBannerUrl !== undefined)
      changes.profileBannerFileId = args.profileBannerUrl?.trim()
        ? await this.claimBanner(caller.id, args.profileBannerUrl)
        : null;
    const before = record.profileBannerFileId ?? null;
    const after = changes.profileBannerFileId;
    const updated = await this.records.update(record._id, changes);
    if (after !== undefined && before !== after) {
      // Replaced or removed: the old file may go; refused meanwhile: the one just claimed may.
      const dropped = updated ? before : after;
      if (dropped) await this.releaseUnlessShown(caller.id, dropped);
    }
    if (!updated) throw new ConflictError(NOT_APPROVED);
    return this.bannerOf(updated);
  }

  async saveChurchAffiliation(
    caller: Caller,
    args: SaveChurchAffiliationArgs,
  ): Promise<ChurchAffiliation> {
    for (const field of ["churchAffiliation", "churchAddress", "currentPositionRole"] as const)
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be cleared`);
    const changes: PageChanges = {};
    if (args.churchAffiliation) changes.churchAffiliation = args.churchAffiliation.trim();
    if (args.churchAddress) changes.churchAddress = args.churchAddress.trim();
    if (args.currentPositionRole) changes.currentPositionRole = args.currentPositionRole.trim();
    if (args.currentPositionRoleOther !== undefined)
      changes.currentPositionRoleOther = args.currentPositionRoleOther?.trim() || null;
    const record = await this.update(caller.id, changes);
    return {
      id: record._id,
      uniqueId: record.uniqueId ?? null,
      churchAffiliation: record.churchAffiliation,
      churchAddress: record.churchAddress,
      currentPositionRole: record.currentPositionRole,
      currentPositionRoleOther: record.currentPositionRoleOther ?? null,
    };
  }

  async saveEducation(caller: Caller, args: SaveEducationArgs): Promise<Education> {
    const changes: PageChanges = {};
    if (args.elementarySchool !== undefined)
      changes.elementarySchool = args.elementarySchool?.trim() || null;
    if (args.secondarySchool !== undefined)
      changes.secondarySchool = args.secondarySchool?.trim() || null;
    if (args.tertiaryCollegeEntries !== undefined)
      changes.tertiaryCollege = joinedEntries(args.tertiaryCollegeEntries);
    if (args.postGraduateStudiesEntries !== undefined)
      changes.postGraduateStudies = joinedEntries(args.postGraduateStudiesEntries);
    const record = await this.update(caller.id, changes);
    return {
      id: record._id,
      uniqueId: record.uniqueId ?? null,
      elementarySchool: record.elementarySchool ?? null,
      secondarySchool: record.secondarySchool ?? null,
      tertiaryCollege: record.tertiaryCollege ?? null,
      postGraduateStudies: record.postGraduateStudies ?? null,
      tertiaryCollegeEntries: entriesOf(record.tertiaryCollege),
      postGraduateStudiesEntries: entriesOf(record.postGraduateStudies),
    };
  }

  /**
   * The branches named in `preferredBranchOther` (joined by ", "): those matching a branch's
   * title become the preferred branches, the rest stay as other.
   */
  async saveBranchServices(
    caller: Caller,
    args: SaveBranchServicesArgs,
  ): Promise<BranchServiceChoice> {
    const names = [
      ...new Map(
        (args.preferredBranchOther ?? "")
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
          .map((name) => [name.toLowerCase(), name] as const),
      ).values(),
    ];
    const found = names.length > 0 ? await this.deps.branches().byTitles(names) : [];
    const byKey = new Map(found.map((branch) => [branch.title.toLowerCase(), branch] as const));
    const matched = names.flatMap((name) => byKey.get(name.toLowerCase()) ?? []);
    const other = names.filter((name) => !byKey.has(name.toLowerCase()));
    const record = await this.update(caller.id, {
      preferredBranchIds: matched.map((branch) => branch.id),
      preferredBranchOther: other.length > 0 ? other.join(NAME_SEPARATOR) : null,
    });
    const titles = await this.deps.branches().titlesOf(record.preferredBranchIds);
    return {
      id: record._id,
      uniqueId: record.uniqueId ?? null,
      preferredBranches: record.preferredBranchIds.flatMap((id) => {
        const title = titles.get(id);
        return title === undefined ? [] : [{ id, title }];
      }),
      preferredBranchOther: record.preferredBranchOther ?? null,
    };
  }

  /** The caller's current record, which must be APPROVED (404 without one, 409 otherwise). */
  private async editable(userId: string): Promise<PageRecord> {
    const record = await this.records.currentOf(userId);
    if (!record) throw new NotFoundError(NO_RECORD);
    if (record.status !== MemberStatus.APPROVED) throw new ConflictError(NOT_APPROVED);
    return record;
  }

  private async update(userId: string, changes: PageChanges): Promise<PageRecord> {
    const record = await this.editable(userId);
    const updated = await this.records.update(record._id, changes);
    if (!updated) throw new ConflictError(NOT_APPROVED);
    await this.deps.changes().record("member.profile_changed", {
      id: updated._id,
      uniqueId: updated.uniqueId ?? null,
    });
    return updated;
  }

  /** An image of the caller's, by id or fileUrl: checked before it is claimed, one 400 for all. */
  private async claimBanner(userId: string, ref: string): Promise<string> {
    const id = fileIdOf(ref);
    const view = id ? (await this.deps.files().describe([id], "private")).get(id) : undefined;
    const usable =
      view?.ownerId === userId &&
      BANNER_PURPOSES.includes(view.purpose) &&
      view.mimeType.startsWith("image/");
    if (!usable) throw ValidationError.field("profileBannerUrl", NOT_A_BANNER);
    const owner = { ownerId: userId, purposes: BANNER_PURPOSES, field: "profileBannerUrl" };
    return this.deps.files().claim(ref, owner);
  }

  /**
   * A file the banner stopped naming goes back to the sweep unless the page shows it elsewhere
   * or it is the account's avatar too.
   */
  private async releaseUnlessShown(userId: string, fileId: string): Promise<void> {
    const [named, banner, avatar] = await Promise.all([
      this.deps.content().namedAmong(userId, [fileId]),
      this.records.bannerAmong(userId, [fileId]),
      this.deps.avatarOf(userId),
    ]);
    if (!named.has(fileId) && !banner.has(fileId) && avatar !== fileId)
      await this.deps.files().release([fileId]);
  }

  private async bannerOf(record: PageRecord): Promise<ProfileBanner> {
    const fileId = record.profileBannerFileId ?? null;
    // Public while the record is APPROVED (and so the page exists); a signed link before.
    const visibility = record.status === MemberStatus.APPROVED ? "public" : "private";
    const view = fileId
      ? (await this.deps.files().describe([fileId], visibility)).get(fileId)
      : null;
    return {
      id: record._id,
      uniqueId: record.uniqueId ?? null,
      profileBannerUrl: view?.fileUrl ?? null,
      profileBannerPositionY: record.profileBannerPositionY ?? null,
    };
  }
}

/** Schools as stored: trimmed, blanks left out, joined; null for none. */
function joinedEntries(entries: string[] | null): string | null {
  const kept = (entries ?? []).map((entry) => entry.trim()).filter((entry) => entry !== "");
  return kept.length > 0 ? kept.join(ENTRY_SEPARATOR) : null;
}

function entriesOf(stored: string | null | undefined): string[] {
  return stored ? stored.split(ENTRY_SEPARATOR).filter((entry) => entry.trim() !== "") : [];
}
