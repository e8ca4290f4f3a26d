import { Field, Float, ID, ObjectType } from "type-graphql";
import { PayloadType } from "../../graphql/envelopes";
import { BranchReference } from "./member.type";

/** What every owner edit answers besides the fields it sets. */
@ObjectType("MemberPageRecord", { simpleResolvers: true })
class MemberPageRecord {
  @Field(() => ID, { description: "The member record" }) id!: string;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
}

@ObjectType("ProfileBanner", { simpleResolvers: true })
export class ProfileBanner extends MemberPageRecord {
  @Field(() => String, {
    nullable: true,
    description: "The banner image: its public URL (a signed link before approval)",
  })
  profileBannerUrl!: string | null;
  @Field(() => Float, { nullable: true, description: "0 (top) to 100 (bottom)" })
  profileBannerPositionY!: number | null;
}

@ObjectType("ProfileBannerPayload", { simpleResolvers: true })
export class ProfileBannerPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => ProfileBanner, { nullable: true, description: "Null without an application" })
  data!: ProfileBanner | null;
}

@ObjectType("ChurchAffiliation", { simpleResolvers: true })
export class ChurchAffiliation extends MemberPageRecord {
  @Field() churchAffiliation!: string;
  @Field() churchAddress!: string;
  @Field() currentPositionRole!: string;
  @Field(() => String, { nullable: true }) currentPositionRoleOther!: string | null;
}

@ObjectType("Education", { simpleResolvers: true })
export class Education extends MemberPageRecord {
  @Field(() => String, { nullable: true }) elementarySchool!: string | null;
  @Field(() => String, { nullable: true }) secondarySchool!: string | null;
  @Field(() => String, { nullable: true, description: 'Entries joined by " | "' })
  tertiaryCollege!: string | null;
  @Field(() => String, { nullable: true, description: 'Entries joined by " | "' })
  postGraduateStudies!: string | null;
  @Field(() => [String]) tertiaryCollegeEntries!: string[];
  @Field(() => [String]) postGraduateStudiesEntries!: string[];
}

@ObjectType("BranchServiceChoice", { simpleResolvers: true })
export class BranchServiceChoice extends MemberPageRecord {
  @Field(() => [BranchReference]) preferredBranches!: BranchReference[];
  @Field(() => String, { nullable: true, description: "Names that match no branch of service" })
  preferredBranchOther!: string | null;
}

export const ProfileBannerSavedPayload = PayloadType(ProfileBanner, "ProfileBannerSavedPayload");
export const ChurchAffiliationPayload = PayloadType(ChurchAffiliation, "ChurchAffiliationPayload");
export const EducationPayload = PayloadType(Education, "EducationPayload");
export const BranchServiceChoicePayload = PayloadType(
  BranchServiceChoice,
  "BranchServiceChoicePayload",
);
