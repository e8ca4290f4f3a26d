import { IsOptional, Length, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";

const TITLE_MAX = 200;
/** Longer than any id or link this service issues. */
export const FILE_REF_MAX = 2048;
const NOT_BLANK = /\S/;

/** A title of a page's certificate or record: 1–200 characters, not only spaces. */
export function Title(): PropertyDecorator {
  return (target, property) => {
    Length(1, TITLE_MAX)(target, property);
    Matches(NOT_BLANK, { message: "title must not be blank" })(target, property);
  };
}

/** POST /members/current/certificates */
@ArgsType()
export class CreateCertificateArgs {
  @Field()
  @Title()
  title!: string;

  @Field({ description: "A CERTIFICATE file you uploaded (image or PDF): its id or fileUrl" })
  @MaxLength(FILE_REF_MAX)
  certificateUrl!: string;

  @Field(() => DateTimeScalar, { description: "When you received it (not in the future)" })
  issuedAt!: Date;
}

/** PUT /members/current/certificates/{id}: what is given changes. */
@ArgsType()
export class UpdateCertificateArgs {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Title()
  title?: string | null;

  @Field(() => String, { nullable: true, description: "Another CERTIFICATE file of yours" })
  @IsOptional()
  @MaxLength(FILE_REF_MAX)
  certificateUrl?: string | null;

  @Field(() => DateTimeScalar, { nullable: true })
  @IsOptional()
  issuedAt?: Date | null;
}
