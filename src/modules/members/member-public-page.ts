import type { FileRefs, FileView } from "../files/file-refs";
import { isFileId } from "../files/file-links";
import type { ApprovedPhoto } from "../onboarding/onboarding-facts";
import type { ProfileContent } from "../profiles/profile-ports";
import type { PublicRecord } from "./member-public.repository";
import type { PublicMember, PublicMemberProfile, PublicRequirement } from "./member-public.type";
import type { CurrentOffices } from "./member-read.service";
import { MemberStatus } from "./member.enums";
import { choiceOf } from "./member.model";
import type { Standing } from "../membership/membership-year";

/** What the public page reads from the modules around member records. */
export interface PublicPageSources {
  /** The member's running appointments (offices module). */
  currentOffices: CurrentOffices;
  /** The member's APPROVED 2x2 photo document (onboarding module), or null. */
  approvedPhotoOf: (memberId: string) => Promise<ApprovedPhoto | null>;
  /** The account's name and avatar (a file id or an outside URL), or null once erased. */
  accountOf: (userId: string) => Promise<{ name: string; avatar: string | null } | null>;
  /** Certificates, public records and followers (profiles module). */
  content: () => ProfileContent;
  files: () => FileRefs;
  /** What the credential check says: the membership year's standing and end (membership module). */
  standingOf: (memberId: string) => Promise<{ standing: Standing; validUntil: Date | null }>;
}

/**
 * The parts of the public page beyond the credential check, each read from the
 * module that keeps it, with every file's public URL rendered in one call.
 */
export class PublicPageParts {
  constructor(private readonly sources: PublicPageSources) {}

  /** The approved 2x2 photo of each record that shows it, as the page lists it; else null. */
  async photosOf(records: readonly PublicRecord[]): Promise<(PublicRequirement | null)[]> {
    const photos = await Promise.all(
      records.map((record) =>
        record.publicProfile?.showPhoto
          ? this.sources.approvedPhotoOf(record._id)
          : Promise.resolve(null),
      ),
    );
    const ids = photos.flatMap((photo) => (photo ? [photo.fileId] : []));
    const views =
      ids.length > 0
        ? await this.sources.files().describe(ids, "public")
        : new Map<string, FileView>();
    return photos.map((photo) => {
      const view = photo && views.get(photo.fileId);
      if (!photo || !view) return null;
      return {
        id: photo.id,
        type: "PHOTO_2X2",
        fileUrl: view.fileUrl,
        fileName: view.fileName,
        mimeType: view.mimeType,
        updatedAt: photo.updatedAt,
      };
    });
  }

  /** The whole page of one public record, from its profile (the choices already applied). */
  async pageOf(
    record: PublicRecord,
    profile: PublicMemberProfile,
    photo: PublicRequirement | null,
  ): Promise<PublicMember> {
    const choice = choiceOf(record.publicProfile);
    const content = this.sources.content();
    const [appointments, account, certificates, publicRecords, followerCount, check] =
      await Promise.all([
        this.sources.currentOffices(record._id),
        this.sources.accountOf(record.userId),
        // A listed member's certificates are public (their files too: the public file rule).
        choice.listed ? content.certificatesOf(record._id) : Promise.resolve([]),
        content.publishedRecordsOf(record._id),
        content.followerCount(record._id),
        this.sources.standingOf(record._id),
      ]);
    // The avatar is public while the member is listed; an outside URL is shown as it is.
    const avatar = choice.listed ? (account?.avatar ?? null) : null;
    const banner = record.profileBannerFileId ?? null;
    const stored = [avatar, banner].filter((id): id is string => id !== null && isFileId(id));
    const urls =
      stored.length > 0
        ? await this.sources.files().describe(stored, "public")
        : new Map<string, FileView>();
    const urlOf = (ref: string | null) =>
      ref === null ? null : isFileId(ref) ? (urls.get(ref)?.fileUrl ?? null) : ref;
    const approvals = record.statusHistory.filter((entry) => entry.to === MemberStatus.APPROVED);
    const church = choice.showChurch;
    const education = choice.showEducation;
    return {
      ...profile,
      status: record.status,
      standing: check.standing,
      validUntil: check.validUntil,
      memberSince: approvals.at(-1)?.at ?? record.updatedAt,
      offices: appointments.map((held) => ({ title: held.title, level: held.level })),
      firstName: record.firstName,
      middleInitial: record.middleInitial ?? null,
      lastName: record.lastName,
      extensionName: record.extensionName ?? null,
      isActive: true,
      user: { name: account?.name ?? "", avatar: urlOf(avatar) },
      officerAssignments: appointments.map((held) => ({
        id: held.id,
        officeTitle: { id: held.officeId, name: held.title, level: held.level },
        startDate: held.startDate,
        department: held.department,
        region: held.region,
        province: held.province,
        cityMunicipality: held.cityMunicipality,
        barangay: held.barangay,
      })),
      applicantRequirements: photo ? [photo] : [],
      certificates,
      publicRecords,
      followerCount,
      profileBannerUrl: urlOf(banner),
      profileBannerPositionY: record.profileBannerPositionY ?? null,
      churchAffiliation: church ? record.churchAffiliation : null,
      churchAddress: church ? record.churchAddress : null,
      currentPositionRole: church ? record.currentPositionRole : null,
      currentPositionRoleOther: church ? (record.currentPositionRoleOther ?? null) : null,
      elementarySchool: education ? (record.elementarySchool ?? null) : null,
      secondarySchool: education ? (record.secondarySchool ?? null) : null,
      tertiaryCollege: education ? (record.tertiaryCollege ?? null) : null,
      postGraduateStudies: education ? (record.postGraduateStudies ?? null) : null,
    };
  }
}
