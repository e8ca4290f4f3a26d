import {
  ArrayMaxSize,
  IsOptional,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field, InputType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { FILE_REF_MAX, Title } from "./certificate.input";
import { PublicRecordStatus, PublicRecordType } from "./public-record.model";

/** At most this many pictures per record, the limit the organisation's site expects. */
export const ATTACHMENTS_MAX = 6;
/** The HTML as sent; its text is held to DESCRIPTION_TEXT_MAX once cleaned. */
const DESCRIPTION_HTML_MAX = 30_000;
const LOCATION_MAX = 300;
const NOT_BLANK = /\S/;

@InputType("PublicRecordAttachmentInput")
export class PublicRecordAttachmentInput {
  @Field({ description: "A PUBLIC_RECORD image you uploaded: its id or fileUrl" })
  @MaxLength(FILE_REF_MAX)
  fileUrl!: string;

  @Field(() => String, { nullable: true, description: "The name to show; default the file's" })
  @IsOptional()
  @MaxLength(255)
  fileName?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Ignored: the type is the stored file's, decided by its bytes",
  })
  @IsOptional()
  @MaxLength(100)
  mimeType?: string | null;
}

/** The fields create and update share; on update every one is optional. */
@ArgsType()
class PublicRecordFields {
  @Field(() => [PublicRecordAttachmentInput], {
    nullable: true,
    description: `Up to ${ATTACHMENTS_MAX} pictures, in the order shown; on update the list replaces the record's`,
  })
  @IsOptional()
  @ArrayMaxSize(ATTACHMENTS_MAX)
  @ValidateNested({ each: true })
  attachments?: PublicRecordAttachmentInput[] | null;
}

/** POST /members/current/public-records */
@ArgsType()
export class CreatePublicRecordArgs extends PublicRecordFields {
  @Field()
  @Title()
  title!: string;

  @Field({ description: "HTML; only formatting tags are kept, at most 3 000 characters of text" })
  @MaxLength(DESCRIPTION_HTML_MAX)
  shortDescription!: string;

  @Field(() => PublicRecordType)
  type!: PublicRecordType;

  @Field(() => DateTimeScalar)
  eventAt!: Date;

  @Field()
  @Length(1, LOCATION_MAX)
  @Matches(NOT_BLANK, { message: "location must not be blank" })
  location!: string;

  @Field(() => PublicRecordStatus, { description: "Only PUBLISHED records are on the public page" })
  status!: PublicRecordStatus;
}

/** PUT /members/current/public-records/{id}: what is given changes. */
@ArgsType()
export class UpdatePublicRecordArgs extends PublicRecordFields {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Title()
  title?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(DESCRIPTION_HTML_MAX)
  shortDescription?: string | null;

  @Field(() => PublicRecordType, { nullable: true })
  @IsOptional()
  type?: PublicRecordType | null;

  @Field(() => DateTimeScalar, { nullable: true })
  @IsOptional()
  eventAt?: Date | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, LOCATION_MAX)
  @Matches(NOT_BLANK, { message: "location must not be blank" })
  location?: string | null;

  @Field(() => PublicRecordStatus, { nullable: true })
  @IsOptional()
  status?: PublicRecordStatus | null;
}
