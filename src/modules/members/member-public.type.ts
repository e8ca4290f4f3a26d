import { DateTimeScalar } from "../../graphql/date-time";
import { Standing } from "../membership/membership-year";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { OfficeLevel } from "../offices/office-level";
import { MemberCertificate } from "../profiles/certificate.type";
import { MemberPublicRecord } from "../profiles/public-record.type";
import { MemberStatus, MemberType } from "./member.enums";
import { BranchReference } from "./member.type";
import { PublicProfileChoiceView } from "./public-profile-choice.type";

@ObjectType("PublicOffice", { simpleResolvers: true })
export class PublicOffice {
  @Field() title!: string;
  @Field(() => OfficeLevel) level!: OfficeLevel;
}

/**
 * What anyone may read of an APPROVED member (docs/privacy.md): the name, the card's number and
 * type always; the photo, the region down to the city and the branches only when the member
 * chose to show them. Nothing that locates (address, barangay) or contacts the person.
 */
@ObjectType("PublicMemberProfile", {
  simpleResolvers: true,
  description: "What a public page shows of an approved member",
})
export class PublicMemberProfile {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: "The number on the member's card" })
  uniqueId!: string | null;
  @Field({ description: "First name, middle initial, last name and suffix" }) fullName!: string;
  @Field(() => MemberType, { nullable: true }) memberType!: MemberType | null;
  @Field(() => String, { nullable: true }) badgeNumber!: string | null;
  @Field(() => String, { nullable: true, description: "The approved 2x2 photo, when shown" })
  photoUrl!: string | null;
  @Field(() => String, { nullable: true, description: "When the member shows the location" })
  region!: string | null;
  @Field(() => String, { nullable: true }) province!: string | null;
  @Field(() => String, { nullable: true }) municipalityCity!: string | null;
  @Field(() => [BranchReference], {
    nullable: true,
    description: "The branches of service the member prefers, when shown",
  })
  preferredBranches!: BranchReference[] | null;
}

@ObjectType("PublicMemberUser", {
  simpleResolvers: true,
  description: "The member's account as the public page shows it: never an email",
})
export class PublicMemberUser {
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: "The avatar, when the member is listed" })
  avatar!: string | null;
}

@ObjectType("OfficerAssignmentTitle", { simpleResolvers: true })
export class OfficerAssignmentTitle {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => OfficeLevel) level!: OfficeLevel;
}

@ObjectType("OfficerAssignment", {
  simpleResolvers: true,
  description: "An office the member holds now (a running appointment)",
})
export class OfficerAssignment {
  @Field(() => ID, { description: "The appointment's id" }) id!: string;
  @Field(() => OfficerAssignmentTitle) officeTitle!: OfficerAssignmentTitle;
  @Field(() => DateTimeScalar) startDate!: Date;
  @Field(() => String, { nullable: true, description: "The department or unit the office serves" })
  department!: string | null;
  @Field(() => String, { nullable: true }) region!: string | null;
  @Field(() => String, { nullable: true }) province!: string | null;
  @Field(() => String, { nullable: true }) cityMunicipality!: string | null;
  @Field(() => String, { nullable: true }) barangay!: string | null;
}

@ObjectType("PublicRequirement", {
  simpleResolvers: true,
  description: "The approved 2x2 photo, when the member shows it",
})
export class PublicRequirement {
  @Field(() => ID, { description: "The document's id" }) id!: string;
  @Field({ description: "Always PHOTO_2X2" }) type!: string;
  @Field({ description: "Its public URL" }) fileUrl!: string;
  @Field() fileName!: string;
  @Field() mimeType!: string;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

/**
 * The public page the organisation's site renders (docs/privacy.md, "The public pages"): the
 * credential check, the name, the offices held now and what the member added to the page; the
 * photo, location, branches, church and education only as the member chose. Never contact data, the
 * address, the home barangay, the birth date, SSS/TIN or documents. Every list is present, maybe
 * empty.
 */
@ObjectType("PublicMember", {
  simpleResolvers: true,
  description: "The public page of an approved member",
})
export class PublicMember extends PublicMemberProfile {
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => Standing, {
    description:
      "CURRENT within the membership year (and before the oath), EXPIRED after it, REVOKED",
  })
  standing!: Standing;
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "The end of the membership year; null before the oath",
  })
  validUntil!: Date | null;
  @Field(() => DateTimeScalar, { description: "When the application was approved" })
  memberSince!: Date;
  @Field(() => [PublicOffice], { description: "The offices the member holds now" })
  offices!: PublicOffice[];
  @Field() firstName!: string;
  @Field(() => String, { nullable: true }) middleInitial!: string | null;
  @Field() lastName!: string;
  @Field(() => String, { nullable: true }) extensionName!: string | null;
  @Field({ description: "Always true: only active records have a public page" })
  isActive!: boolean;
  @Field(() => PublicMemberUser) user!: PublicMemberUser;
  @Field(() => [OfficerAssignment], { description: "The offices held now, newest first" })
  officerAssignments!: OfficerAssignment[];
  @Field(() => [PublicRequirement], {
    description: "The approved 2x2 photo when the member shows it; else empty",
  })
  applicantRequirements!: PublicRequirement[];
  @Field(() => [MemberCertificate], { description: "When the member is listed; else empty" })
  certificates!: MemberCertificate[];
  @Field(() => [MemberPublicRecord], { description: "PUBLISHED records, newest event first" })
  publicRecords!: MemberPublicRecord[];
  @Field(() => Int) followerCount!: number;
  @Field(() => String, { nullable: true, description: "The banner image's public URL" })
  profileBannerUrl!: string | null;
  @Field(() => Float, { nullable: true, description: "0 (top) to 100 (bottom)" })
  profileBannerPositionY!: number | null;
  @Field(() => String, { nullable: true, description: "When the member shows the church" })
  churchAffiliation!: string | null;
  @Field(() => String, { nullable: true }) churchAddress!: string | null;
  @Field(() => String, { nullable: true }) currentPositionRole!: string | null;
  @Field(() => String, { nullable: true }) currentPositionRoleOther!: string | null;
  @Field(() => String, { nullable: true, description: "When the member shows the education" })
  elementarySchool!: string | null;
  @Field(() => String, { nullable: true }) secondarySchool!: string | null;
  @Field(() => String, { nullable: true, description: 'Entries joined by " | "' })
  tertiaryCollege!: string | null;
  @Field(() => String, { nullable: true, description: 'Entries joined by " | "' })
  postGraduateStudies!: string | null;
}

export const PublicMemberPayload = PayloadType(PublicMember, "PublicMemberPayload");
export const ServiceChaplainPage = PageType(PublicMemberProfile, "ServiceChaplainPage");

export const PublicProfileChoicePayload = PayloadType(
  PublicProfileChoiceView,
  "PublicProfileChoicePayload",
);

@ObjectType("MemberTypeAssignment", { simpleResolvers: true })
export class MemberTypeAssignment {
  @Field(() => ID) id!: string;
  @Field(() => MemberType) memberType!: MemberType;
  @Field(() => String, { nullable: true }) badgeNumber!: string | null;
}

export const MemberTypeAssignmentPayload = PayloadType(
  MemberTypeAssignment,
  "MemberTypeAssignmentPayload",
);
