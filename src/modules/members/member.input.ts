import {
  ArrayMaxSize,
  IsOptional,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
  registerDecorator,
} from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { DateTimeScalar } from "../../graphql/date-time";
import { ArgsType, Field, InputType } from "type-graphql";
import { PageArgs } from "../../graphql/paging";
import { CivilStatus, Gender, MemberStatus, SignatureType } from "./member.enums";

const TEXT_MAX = 300;
export const NOTICE_VERSION_MAX = 50;
export const SIGNATURE_MAX_BYTES = 256 * 1024;
const NOT_BLANK = /\S/;
const EXTENSION_MAX = 10;

/** A required line of text: 1–300 characters, not only spaces. */
function RequiredText(): PropertyDecorator {
  return (target, property) => {
    Field()(target, property);
    Length(1, TEXT_MAX)(target, property);
    Matches(NOT_BLANK, { message: `${String(property)} must not be blank` })(target, property);
  };
}

/** An optional line of text, null or absent when not given. */
function OptionalText(): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true })(target, property);
    IsOptional()(target, property);
    MaxLength(TEXT_MAX)(target, property);
  };
}

/** A date of birth lies in the past. */
function IsPastDate(): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: "isPastDate",
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (value: unknown) =>
          value instanceof Date && !Number.isNaN(value.getTime()) && value < new Date(),
        defaultMessage: () => `${String(property)} must be a date in the past`,
      },
    });
}

/** The drawn signature's size in bytes, not characters. */
function WithinBytes(max: number): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: "withinBytes",
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (value: unknown) =>
          typeof value === "string" && value.length > 0 && Buffer.byteLength(value) <= max,
        defaultMessage: () => `${String(property)} must be 1 byte to ${max / 1024} KiB`,
      },
    });
}

@InputType("MinisterialExperienceInput")
export class MinisterialExperienceInput {
  @RequiredText() roleDescription!: string;
  @RequiredText() yearsApprox!: string;
}

@InputType("CharacterReferenceInput")
export class CharacterReferenceInput {
  @OptionalText() name?: string | null;
  @RequiredText() positionRelationship!: string;
  @RequiredText() contactNumber!: string;
}

@InputType("SignatureInput")
export class SignatureInput {
  @Field(() => SignatureType)
  type!: SignatureType;

  @Field()
  @WithinBytes(SIGNATURE_MAX_BYTES)
  signatureData!: string;
}

@InputType("PrivacyConsentInput", {
  description: "The applicant agreed to the processing of their data under this privacy notice",
})
export class PrivacyConsentInput {
  @Field({
    description: `Version of the privacy notice the client showed, 1–${NOTICE_VERSION_MAX} characters`,
  })
  @Length(1, NOTICE_VERSION_MAX)
  @Matches(NOT_BLANK, { message: "noticeVersion must not be blank" })
  noticeVersion!: string;
}

/** POST /members/apply. Status, ownership and activity are the server's, never the client's. */
@ArgsType()
export class ApplyArgs {
  @RequiredText() firstName!: string;

  @Field(() => String, {
    nullable: true,
    description: "One letter (stored upper case); blank counts as absent",
  })
  @IsOptional()
  @Matches(/^\s*\p{L}?\s*$/u, { message: "middleInitial must be a single letter" })
  middleInitial?: string | null;

  @RequiredText() lastName!: string;

  @Field(() => String, {
    nullable: true,
    description: `Name suffix such as Jr., Sr., II, III or IV, at most ${EXTENSION_MAX} characters`,
  })
  @IsOptional()
  @MaxLength(EXTENSION_MAX)
  @Matches(/^[\p{L}\p{N} .]*$/u, {
    message: "extensionName may hold only letters, digits, spaces and periods (e.g. Jr., III)",
  })
  extensionName?: string | null;

  @RequiredText() mobilePhoneNumber!: string;
  @RequiredText() homeAddress!: string;
  @Field(() => CivilStatus) civilStatus!: CivilStatus;
  @Field(() => Gender) gender!: Gender;
  @RequiredText() nationality!: string;

  @Field(() => DateTimeScalar, { description: "A past date: YYYY-MM-DD or an ISO 8601 date-time" })
  @IsPastDate()
  dateOfBirth!: Date;

  @RequiredText() region!: string;
  @RequiredText() province!: string;
  @RequiredText() municipalityCity!: string;
  @RequiredText() barangay!: string;
  @RequiredText() emergencyContactName!: string;
  @RequiredText() emergencyContactMobile!: string;

  @Field(() => String, {
    nullable: true,
    description:
      "The 2x2 photo: an image uploaded to POST /files (its id or fileUrl, purpose AVATAR or REQUIREMENT), or an http(s) URL",
  })
  @IsOptional()
  @MaxLength(2048)
  @Matches(/^(?:https?:\/\/\S+|\/api\/v1\/files\/\S+|[0-9a-fA-F-]{36})$/, {
    message: "recentIdPhotoUrl must be a file id, a fileUrl of this service or an http(s) URL",
  })
  recentIdPhotoUrl?: string | null;

  @RequiredText() churchAffiliation!: string;
  @RequiredText() churchAddress!: string;
  @RequiredText() currentPositionRole!: string;
  @OptionalText() currentPositionRoleOther?: string | null;
  @OptionalText() height?: string | null;
  @OptionalText() weight?: string | null;
  @OptionalText() bloodType?: string | null;
  @OptionalText() colorOfEyes?: string | null;
  @OptionalText() colorOfSkin?: string | null;
  @OptionalText() sssNumber?: string | null;
  @OptionalText() tinNumber?: string | null;
  @OptionalText() skillsTalents?: string | null;
  @OptionalText() preferredBranchOther?: string | null;
  @OptionalText() elementarySchool?: string | null;
  @OptionalText() secondarySchool?: string | null;
  @OptionalText() tertiaryCollege?: string | null;
  @OptionalText() postGraduateStudies?: string | null;

  @Field(() => [UUIDResolver], { nullable: true, description: "Existing branch-of-service ids" })
  @IsOptional()
  @ArrayMaxSize(20)
  preferredBranchIds?: string[] | null;

  @Field(() => [MinisterialExperienceInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  ministerialExperiences?: MinisterialExperienceInput[] | null;

  @Field(() => [CharacterReferenceInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  characterReferences?: CharacterReferenceInput[] | null;

  @Field(() => SignatureInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  signature?: SignatureInput | null;

  @Field(() => PrivacyConsentInput, {
    nullable: true,
    description:
      "Consent to processing; the server records the time. Required when the deployment sets REQUIRE_PRIVACY_CONSENT",
  })
  @IsOptional()
  @ValidateNested()
  privacyConsent?: PrivacyConsentInput | null;
}

@ArgsType()
export class MemberListArgs extends PageArgs {
  @Field(() => MemberStatus, { nullable: true })
  @IsOptional()
  status?: MemberStatus | null;

  @Field({ defaultValue: false, description: "Also list archived records" })
  includeArchived!: boolean;
}

@ArgsType()
export class PendingMemberListArgs extends PageArgs {
  @Field({ defaultValue: false, description: "Also list archived records" })
  includeArchived!: boolean;
}

@ArgsType()
export class UpdateMemberStatusArgs {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => MemberStatus)
  status!: MemberStatus;

  @Field(() => String, {
    nullable: true,
    description: "Shown to the applicant in the decision mail",
  })
  @IsOptional()
  @MaxLength(1000)
  reason?: string | null;
}
