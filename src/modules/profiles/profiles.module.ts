import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import { createCertificateModel } from "./certificate.model";
import { CertificateRepository } from "./certificate.repository";
import { CertificateService } from "./certificate.service";
import { createFollowModel } from "./follow.model";
import { FollowRepository } from "./follow.repository";
import { FollowService } from "./follow.service";
import { profilePersonalData } from "./profile-export";
import { ProfileFiles } from "./profile-files";
import type { ProfileContent, ProfileMembers } from "./profile-ports";
import { createPublicRecordModel } from "./public-record.model";
import { PublicRecordRepository } from "./public-record.repository";
import { PublicRecordService } from "./public-record.service";

/** What profiles need from other modules, asked on first use (they are built around it). */
export interface ProfilesModuleDeps {
  members: ProfileMembers;
  files: FileRefs;
}

export interface ProfilesModuleOptions extends ModuleBase {
  deps: () => ProfilesModuleDeps;
}

/**
 * What members add to their public page (docs/privacy.md, "What members add to their public page"):
 * certificates with a number issued here, public records with pictures, and the accounts that
 * follow the page.
 */
export function createProfilesModule({ connection, deps }: ProfilesModuleOptions) {
  const certificateModel = createCertificateModel(connection);
  const publicRecordModel = createPublicRecordModel(connection);
  const followModel = createFollowModel(connection);
  const certificateRecords = new CertificateRepository(certificateModel);
  const publicRecordRecords = new PublicRecordRepository(publicRecordModel);
  const followRecords = new FollowRepository(followModel);
  const members = () => deps().members;
  const files = () => deps().files;
  const namedAmong = async (userId: string, fileIds: readonly string[]) =>
    new Set([
      ...(await certificateRecords.namedAmong(userId, fileIds)),
      ...(await publicRecordRecords.namedAmong(userId, fileIds)),
    ]);
  const profileFiles = new ProfileFiles(deps, namedAmong);
  const certificates = new CertificateService(certificateRecords, profileFiles, { members, files });
  const publicRecords = new PublicRecordService(publicRecordRecords, profileFiles, {
    members,
    files,
  });
  const follows = new FollowService(followRecords, members);
  const content: ProfileContent = {
    certificatesOf: (memberId) => certificates.publicOf(memberId),
    publishedRecordsOf: (memberId) => publicRecords.publicOf(memberId),
    followerCount: (memberId) => follows.count(memberId),
    certificateMembersOf: (fileId) => certificateRecords.membersShowing(fileId),
    publishedRecordMembersOf: (fileId) => publicRecordRecords.membersPublishing(fileId),
    namedAmong: (userId, fileIds) =>
      fileIds.length === 0 ? Promise.resolve(new Set()) : namedAmong(userId, fileIds),
  };
  return {
    services: { certificates, publicRecords, follows },
    /** For the members module: the public page's content and which of its files are public. */
    content,
    personalData: profilePersonalData({
      certificates,
      certificateRecords,
      publicRecords,
      publicRecordRecords,
      follows,
      followRecords,
    }),
    models: [certificateModel, publicRecordModel, followModel],
  } satisfies ModuleParts & Record<string, unknown>;
}
