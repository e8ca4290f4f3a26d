import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType } from "../../graphql/envelopes";
import { MemberStatus } from "../members/member.enums";
import { RequirementType, ReviewStatus } from "./requirement.model";

@ObjectType("Requirement", {
  simpleResolvers: true,
  description: "One document of a member and its review",
})
export class Requirement {
  @Field(() => RequirementType) type!: RequirementType;
  @Field({ description: "A signed link, rendered now" }) fileUrl!: string;
  @Field(() => ID) fileId!: string;
  @Field() fileName!: string;
  @Field() mimeType!: string;
  @Field(() => ReviewStatus) reviewStatus!: ReviewStatus;
  @Field(() => String, { nullable: true }) reviewNote!: string | null;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

/** The client's map: one field per type, in lower case, the file's link or null. */
@ObjectType("RequirementAttachments", {
  simpleResolvers: true,
  description: "Each requirement type in lower case: the link of its file, or null",
})
export class RequirementAttachments {
  @Field(() => String, { nullable: true }) photo_2x2!: string | null;
  @Field(() => String, { nullable: true }) hs_baccalaureate_diploma!: string | null;
  @Field(() => String, { nullable: true }) two_three_year_program_diploma!: string | null;
  @Field(() => String, { nullable: true }) masters_degree_diploma!: string | null;
  @Field(() => String, { nullable: true }) doctoral_degree_diploma!: string | null;
  @Field(() => String, { nullable: true }) ordination_certificate!: string | null;
  @Field(() => String, { nullable: true }) pastors_recommendation_letter!: string | null;
  @Field(() => String, { nullable: true }) letter_of_intent!: string | null;
  @Field(() => String, { nullable: true }) endorsement_letters!: string | null;
  @Field(() => String, { nullable: true }) marriage_contract!: string | null;
  @Field(() => String, { nullable: true }) clearance_barangay!: string | null;
  @Field(() => String, { nullable: true }) clearance_police!: string | null;
  @Field(() => String, { nullable: true }) clearance_nbi!: string | null;
}

@ObjectType("MemberRequirements", {
  simpleResolvers: true,
  description: "The caller's application and its documents (the client's gate to onboarding)",
})
export class MemberRequirements {
  @Field(() => ID) memberId!: string;
  @Field(() => MemberStatus) status!: MemberStatus;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field(() => RequirementAttachments) attachments!: RequirementAttachments;
  @Field(() => [Requirement]) requirements!: Requirement[];
}

@ObjectType("MemberRequirementsPayload", { simpleResolvers: true })
export class MemberRequirementsPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => MemberRequirements) data!: MemberRequirements;
}

@ObjectType("PendingRequirement", {
  simpleResolvers: true,
  description: "A document waiting for an administrator's review",
})
export class PendingRequirement extends Requirement {
  @Field(() => ID) memberId!: string;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field() fullName!: string;
}

export const PendingRequirementPage = PageType(PendingRequirement, "PendingRequirementPage");

@ObjectType("RequirementPayload", { simpleResolvers: true })
export class RequirementPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => Requirement) data!: Requirement;
}
