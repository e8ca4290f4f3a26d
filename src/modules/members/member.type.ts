import { DateTimeScalar } from "../../graphql/date-time";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { PublicProfileChoiceView } from "./public-profile-choice.type";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { Role } from "../users/role";
import { CivilStatus, Gender, MemberStatus, MemberType, SignatureType } from "./member.enums";
import {
  choiceOf,
  OPTIONAL_TEXT_FIELDS,
  REQUIRED_TEXT_FIELDS,
  type MemberRecord,
} from "./member.model";

@ObjectType("MemberUser", {
  simpleResolvers: true,
  description: "The applicant's account, as far as a member record shows it",
})
export class MemberUser {
  @Field()
  name!: string;

  @Field()
  email!: string;

  @Field(() => Role)
  role!: Role;
}

@ObjectType("BranchReference", { simpleResolvers: true })
export class BranchReference {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;
}

@ObjectType("MinisterialExperience", { simpleResolvers: true })
export class MinisterialExperience {
  @Field()
  roleDescription!: string;

  @Field()
  yearsApprox!: string;

  @Field(() => Int, { description: "0-based position in the application" })
  order!: number;

  @Field()
  memberId!: string;
}

@ObjectType("CharacterReference", { simpleResolvers: true })
export class CharacterReference {
  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field()
  positionRelationship!: string;

  @Field()
  contactNumber!: string;
}

@ObjectType("Signature", { simpleResolvers: true })
export class Signature {
  @Field(() => SignatureType)
  type!: SignatureType;

  @Field({ description: "As drawn by the applicant (e.g. a data: URL), up to 256 KiB" })
  signatureData!: string;
}

@ObjectType("PrivacyConsent", {
  simpleResolvers: true,
  description: "The applicant's consent to processing, as recorded with the application",
})
export class PrivacyConsent {
  @Field({ description: "Version of the privacy notice the applicant was shown" })
  noticeVersion!: string;

  @Field(() => DateTimeScalar, { description: "When the server received the application" })
  consentedAt!: Date;
}

@ObjectType("StatusChange", {
  simpleResolvers: true,
  description: "One entry of a member record's status history",
})
export class StatusChange {
  @Field(() => MemberStatus, { nullable: true, description: "Null for the application itself" })
  from!: MemberStatus | null;

  @Field(() => MemberStatus)
  to!: MemberStatus;

  @Field({ description: "Id of the account that made the change" })
  by!: string;

  @Field(() => DateTimeScalar)
  at!: Date;

  @Field(() => String, { nullable: true })
  reason!: string | null;
}

@ObjectType("PossibleDuplicate", {
  simpleResolvers: true,
  description: "Another account's record that may be the same person",
})
export class PossibleDuplicate {
  @Field(() => ID) id!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field({ description: "What matched, e.g. 'same mobile number'" }) reason!: string;
}

const TEXT_FIELDS = [...REQUIRED_TEXT_FIELDS, ...OPTIONAL_TEXT_FIELDS];

/** A membership application and, once reviewed, the member record (seed §2.2). */
@ObjectType("Member", { simpleResolvers: true })
export class Member {
  @Field(() => ID) id!: string;
  @Field() userId!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => String, {
    nullable: true,
    description: "POI-<YYYY>-<NNNNN>, given at the first approval (Asia/Manila year); null before",
  })
  uniqueId!: string | null;
  @Field(() => MemberType, {
    nullable: true,
    description: "ASSOCIATE_CHAPLAIN once the oath is taken; null before",
  })
  memberType!: MemberType | null;
  @Field() firstName!: string;
  @Field(() => String, { nullable: true, description: "One letter, upper case" })
  middleInitial!: string | null;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true, description: "Jr., Sr., II, III…" })
  extensionName!: string | null;
  @Field() mobilePhoneNumber!: string;
  @Field() homeAddress!: string;
  @Field(() => CivilStatus) civilStatus!: CivilStatus;
  @Field(() => Gender) gender!: Gender;
  @Field() nationality!: string;
  @Field(() => DateTimeScalar) dateOfBirth!: Date;
  @Field() region!: string;
  @Field() province!: string;
  @Field() municipalityCity!: string;
  @Field() barangay!: string;
  @Field() emergencyContactName!: string;
  @Field() emergencyContactMobile!: string;
  @Field(() => String, { nullable: true }) recentIdPhotoUrl!: string | null;
  @Field() churchAffiliation!: string;
  @Field() churchAddress!: string;
  @Field() currentPositionRole!: string;
  @Field(() => String, { nullable: true }) currentPositionRoleOther!: string | null;
  @Field(() => String, { nullable: true }) height!: string | null;
  @Field(() => String, { nullable: true }) weight!: string | null;
  @Field(() => String, { nullable: true }) bloodType!: string | null;
  @Field(() => String, { nullable: true }) colorOfEyes!: string | null;
  @Field(() => String, { nullable: true }) colorOfSkin!: string | null;
  @Field(() => String, { nullable: true }) sssNumber!: string | null;
  @Field(() => String, { nullable: true }) tinNumber!: string | null;
  @Field(() => String, { nullable: true }) skillsTalents!: string | null;
  @Field(() => String, { nullable: true }) preferredBranchOther!: string | null;
  @Field(() => String, { nullable: true }) elementarySchool!: string | null;
  @Field(() => String, { nullable: true }) secondarySchool!: string | null;
  @Field(() => String, { nullable: true }) tertiaryCollege!: string | null;
  @Field(() => String, { nullable: true }) postGraduateStudies!: string | null;
  @Field({ description: "False while the record is archived" }) isActive!: boolean;
  @Field(() => DateTimeScalar, { nullable: true }) archivedAt!: Date | null;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
  @Field(() => MemberUser) user!: MemberUser;
  @Field(() => [BranchReference]) preferredBranches!: BranchReference[];
  @Field(() => [MinisterialExperience]) ministerialExperiences!: MinisterialExperience[];
  @Field(() => [CharacterReference]) characterReferences!: CharacterReference[];
  @Field(() => Signature, { nullable: true }) signature!: Signature | null;
  @Field(() => PrivacyConsent, { nullable: true }) privacyConsent!: PrivacyConsent | null;
  @Field(() => [StatusChange]) statusHistory!: StatusChange[];
  @Field(() => [PossibleDuplicate], {
    nullable: true,
    description:
      "Other accounts' records that may be the same person. Administrators only; null for applicants",
  })
  possibleDuplicates!: PossibleDuplicate[] | null;
  @Field(() => String, {
    nullable: true,
    description:
      "The member's public page on the organisation's site, APP_URL/profile/<uniqueId>, for an APPROVED, active record (the QR code's address)",
  })
  publicUrl!: string | null;

  @Field(() => PublicProfileChoiceView, {
    description: "What the member chose to show on the public page (all off by default)",
  })
  publicProfile!: PublicProfileChoiceView;

  @Field(() => String, {
    nullable: true,
    description: "The public page's banner image: a freshly signed link to it; null when none",
  })
  profileBannerUrl!: string | null;

  @Field(() => Float, {
    nullable: true,
    description: "Where the banner sits vertically, 0 (top) to 100 (bottom)",
  })
  profileBannerPositionY!: number | null;

  /** The record with what it refers to (account, branch titles) already looked up. */
  static from(
    record: MemberRecord,
    user: MemberUser,
    branchTitles: ReadonlyMap<string, string>,
  ): Member {
    // Copied field by field onto one new object: internal keys (openKey, search fields) never
    // leave. Lists build ten of these per page, so no intermediate copies.
    const member = new Member();
    const fields = member as unknown as Record<string, unknown>;
    for (const field of TEXT_FIELDS) fields[field] = record[field];
    const { _id, preferredBranchIds, ministerialExperiences } = record;
    return Object.assign(member, {
      id: _id,
      userId: record.userId,
      status: record.status,
      uniqueId: record.uniqueId ?? null,
      memberType: record.memberType ?? null,
      civilStatus: record.civilStatus,
      gender: record.gender,
      dateOfBirth: record.dateOfBirth,
      characterReferences: record.characterReferences,
      signature: record.signature,
      privacyConsent: record.privacyConsent
        ? {
            noticeVersion: record.privacyConsent.noticeVersion,
            consentedAt: record.privacyConsent.consentedAt,
          }
        : null,
      statusHistory: record.statusHistory,
      archivedAt: record.archivedAt,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      isActive: record.archivedAt === null,
      possibleDuplicates: null,
      publicUrl: null,
      // Records from before the choice existed show it off, as it is.
      publicProfile: choiceOf(record.publicProfile),
      profileBannerUrl: record.profileBannerFileId ?? null,
      profileBannerPositionY: record.profileBannerPositionY ?? null,
      user,
      preferredBranches: preferredBranchIds
        .filter((id) => branchTitles.has(id))
        .map((id) => ({ id, title: branchTitles.get(id)! })),
      ministerialExperiences: ministerialExperiences.map((experience, order) => ({
        roleDescription: experience.roleDescription,
        yearsApprox: experience.yearsApprox,
        order,
        memberId: _id,
      })),
    });
  }
}

export const MemberPayload = PayloadType(Member, "MemberPayload");

@ObjectType("ApplicationMeta", {
  simpleResolvers: true,
  description: "What applying did to the account: the client's wizard reads it",
})
export class ApplicationMeta {
  @Field({ description: "Always false: applying never creates an account" })
  createdUser!: boolean;

  @Field({ description: "Always true: only a verified account can apply" })
  isEmailVerified!: boolean;
}

@ObjectType("ApplicationPayload", { simpleResolvers: true })
export class ApplicationPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => Member) data!: Member;
  @Field(() => ApplicationMeta) meta!: ApplicationMeta;
}
export const MemberPage = PageType(Member, "MemberPage");
