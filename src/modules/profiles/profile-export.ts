import { Field, Int, ObjectType } from "type-graphql";
import type { PersonalData } from "../privacy/personal-data";
import type { CertificateRepository } from "./certificate.repository";
import type { CertificateService } from "./certificate.service";
import { MemberCertificate } from "./certificate.type";
import type { FollowRepository } from "./follow.repository";
import type { FollowService } from "./follow.service";
import { FollowedMember } from "./follow.type";
import type { PublicRecordRepository } from "./public-record.repository";
import type { PublicRecordService } from "./public-record.service";
import { MemberPublicRecord } from "./public-record.type";

@ObjectType("ProfileExport", {
  simpleResolvers: true,
  description: "What the account added to its public page, and whom it follows",
})
export class ProfileExport {
  @Field(() => [MemberCertificate]) certificates!: MemberCertificate[];
  @Field(() => [MemberPublicRecord], { description: "Drafts included" })
  publicRecords!: MemberPublicRecord[];
  @Field(() => [FollowedMember], { description: "The member pages the account follows" })
  following!: FollowedMember[];
  @Field(() => Int, { description: "How many accounts follow the account's pages (not who)" })
  followerCount!: number;
}

/**
 * The account's certificates, public records and follows in subject access, and their erasure:
 * the records go, and so do the follows it made and those of its pages; the files go with the
 * account's files.
 */
export function profilePersonalData(parts: {
  certificates: CertificateService;
  certificateRecords: CertificateRepository;
  publicRecords: PublicRecordService;
  publicRecordRecords: PublicRecordRepository;
  follows: FollowService;
  followRecords: FollowRepository;
}): PersonalData<ProfileExport> {
  return {
    async exportOf(userId) {
      const [certificates, publicRecords, following, followerCount] = await Promise.all([
        parts.certificates.exportOf(userId),
        parts.publicRecords.exportOf(userId),
        parts.follows.followingOf(userId),
        parts.followRecords.countOfFollowed(userId),
      ]);
      return Object.assign(new ProfileExport(), {
        certificates,
        publicRecords,
        following,
        followerCount,
      });
    },
    async erase({ id }) {
      await parts.certificateRecords.deleteOfUser(id);
      await parts.publicRecordRecords.deleteOfUser(id);
      await parts.followRecords.deleteOfUser(id);
    },
  };
}
