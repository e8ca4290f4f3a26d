import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { OfficeLevel } from "../offices/office-level";
import { MemberStatus, MemberType } from "./member.enums";
import { BranchReference } from "./member.type";

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

/** The public credential check: the profile, the approval date and the offices held now. */
@ObjectType("PublicMember", {
  simpleResolvers: true,
  description: "The public credential check of an approved member",
})
export class PublicMember extends PublicMemberProfile {
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => DateTimeScalar, { description: "When the application was approved" })
  memberSince!: Date;
  @Field(() => [PublicOffice], { description: "The offices the member holds now" })
  offices!: PublicOffice[];
}

export const PublicMemberPayload = PayloadType(PublicMember, "PublicMemberPayload");
export const ServiceChaplainPage = PageType(PublicMemberProfile, "ServiceChaplainPage");

@ObjectType("PublicProfileChoice", {
  simpleResolvers: true,
  description: "What the member chose to show on the public page (all off by default)",
})
export class PublicProfileChoiceView {
  @Field() listed!: boolean;
  @Field() showPhoto!: boolean;
  @Field() showLocation!: boolean;
  @Field() showBranches!: boolean;
}

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
