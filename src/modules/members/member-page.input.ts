import { ArrayMaxSize, IsOptional, Length, Matches, Max, MaxLength, Min } from "class-validator";
import { ArgsType, Field, Float } from "type-graphql";

/** As long as an application's lines of text. */
const TEXT_MAX = 300;
const NOT_BLANK = /\S/;
/** Schools per level: more than anyone lists. */
const ENTRIES_MAX = 10;

/** A line of text that may be changed but not cleared (the application requires it). */
function KeptText(): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true })(target, property);
    IsOptional()(target, property);
    Length(1, TEXT_MAX)(target, property);
    Matches(NOT_BLANK, { message: `${String(property)} must not be blank` })(target, property);
  };
}

/** A line of text that null clears. */
function ClearableText(): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true })(target, property);
    IsOptional()(target, property);
    MaxLength(TEXT_MAX)(target, property);
  };
}

/** A list of schools, stored joined by " | ". */
function Entries(): PropertyDecorator {
  return (target, property) => {
    Field(() => [String], { nullable: true, description: 'Stored joined by " | "' })(
      target,
      property,
    );
    IsOptional()(target, property);
    ArrayMaxSize(ENTRIES_MAX)(target, property);
    MaxLength(TEXT_MAX, { each: true })(target, property);
  };
}

/** PUT /members/current/profile-banner: what is given changes. */
@ArgsType()
export class SaveProfileBannerArgs {
  @Field(() => String, {
    nullable: true,
    description:
      "An image you uploaded (AVATAR, PUBLIC_RECORD or CERTIFICATE): its id or fileUrl; null removes the banner",
  })
  @IsOptional()
  @MaxLength(2048)
  profileBannerUrl?: string | null;

  @Field(() => Float, { nullable: true, description: "0 (top) to 100 (bottom)" })
  @IsOptional()
  @Min(0)
  @Max(100)
  profileBannerPositionY?: number | null;
}

/** PUT /members/current/church-affiliation: what is given changes. */
@ArgsType()
export class SaveChurchAffiliationArgs {
  @KeptText() churchAffiliation?: string | null;
  @KeptText() churchAddress?: string | null;
  @KeptText() currentPositionRole?: string | null;
  @ClearableText() currentPositionRoleOther?: string | null;
}

/** PUT /members/current/education: what is given changes. */
@ArgsType()
export class SaveEducationArgs {
  @ClearableText() elementarySchool?: string | null;
  @ClearableText() secondarySchool?: string | null;
  @Entries() tertiaryCollegeEntries?: string[] | null;
  @Entries() postGraduateStudiesEntries?: string[] | null;
}

/** PUT /members/current/branch-services */
@ArgsType()
export class SaveBranchServicesArgs {
  @Field(() => String, {
    nullable: true,
    description:
      'Branch names joined by ", ": those matching a branch of service become preferredBranches, the rest stay as other',
  })
  @IsOptional()
  @MaxLength(2000)
  preferredBranchOther?: string | null;
}
