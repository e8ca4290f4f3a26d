import {
  IsEmail,
  IsOptional,
  IsUrl,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from "class-validator";
import { ArgsType, Field, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";

/** The organisation as credentials and mail print it. */
export interface OrganisationIdentity {
  name: string;
  shortName: string;
  address: string;
  email: string;
  phone: string;
  website: string;
  sealFileId: string | null;
  signatoryName: string;
  signatoryTitle: string;
}

@ObjectType("OrganisationSettings", {
  simpleResolvers: true,
  description: "The organisation's identity on every ID card, certificate and mail",
})
export class OrganisationSettings implements OrganisationIdentity {
  @Field() name!: string;
  @Field() shortName!: string;
  @Field() address!: string;
  @Field() email!: string;
  @Field() phone!: string;
  @Field() website!: string;
  @Field(() => String, { nullable: true, description: "The seal image (PNG or JPEG file)" })
  sealFileId!: string | null;
  @Field() signatoryName!: string;
  @Field() signatoryTitle!: string;
  @Field(() => DateTimeScalar, { nullable: true, description: "null while the defaults apply" })
  updatedAt!: Date | null;
}

@ObjectType("OrganisationSettingsPayload", { simpleResolvers: true })
export class OrganisationSettingsPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => OrganisationSettings) data!: OrganisationSettings;
}

const NOT_BLANK = /\S/;

@ArgsType()
export class OrganisationSettingsArgs {
  @Field()
  @Length(1, 200)
  @Matches(NOT_BLANK, { message: "name must not be blank" })
  name!: string;

  @Field()
  @Length(1, 40)
  @Matches(NOT_BLANK, { message: "shortName must not be blank" })
  shortName!: string;

  @Field({ defaultValue: "" })
  @MaxLength(300)
  address!: string;

  @Field({ defaultValue: "" })
  @ValidateIf((_args, value) => value !== "")
  @IsEmail({}, { message: "email must be an email address" })
  @MaxLength(254)
  email!: string;

  @Field({ defaultValue: "" })
  @MaxLength(60)
  phone!: string;

  @Field({ defaultValue: "" })
  @ValidateIf((_args, value) => value !== "")
  @IsUrl({ protocols: ["http", "https"] }, { message: "website must be an http(s) address" })
  @MaxLength(300)
  website!: string;

  @Field(() => String, { nullable: true, description: "An image file of the caller's, or null" })
  @IsOptional()
  @Length(1, 2000)
  sealFileId?: string | null;

  @Field()
  @Length(1, 120)
  @Matches(NOT_BLANK, { message: "signatoryName must not be blank" })
  signatoryName!: string;

  @Field()
  @Length(1, 120)
  @Matches(NOT_BLANK, { message: "signatoryTitle must not be blank" })
  signatoryTitle!: string;
}
