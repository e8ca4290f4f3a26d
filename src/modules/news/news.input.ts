import { ArrayMaxSize, IsOptional, Length, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { NewsStatus } from "./news.enums";

const TITLE_MAX = 300;
export const CAPTION_MAX = 50_000;
export const MEDIA_MAX = 20;
const TAGS_MAX = 50;

/** The fields create and update share, all optional on update (null clears). */
@ArgsType()
class NewsFields {
  @Field(() => String, { nullable: true, description: "HTML; only formatting tags are kept" })
  @IsOptional()
  @MaxLength(CAPTION_MAX)
  caption?: string | null;

  @Field(() => String, { nullable: true, description: "Where it goes out: FACEBOOK, WEBSITE…" })
  @IsOptional()
  @MaxLength(50)
  platform?: string | null;

  @Field(() => [String], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(TAGS_MAX)
  @MaxLength(100, { each: true })
  hashtags?: string[] | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "When it is planned to go out; a PUBLISHED post without publishedAt goes out then",
  })
  @IsOptional()
  scheduledAt?: Date | null;

  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "When a PUBLISHED post becomes public (default: scheduledAt, else now)",
  })
  @IsOptional()
  publishedAt?: Date | null;

  @Field(() => [String], {
    nullable: true,
    description: "NEWS_MEDIA files you uploaded, by id or fileUrl, in the order shown",
  })
  @IsOptional()
  @ArrayMaxSize(MEDIA_MAX)
  @MaxLength(2048, { each: true })
  media?: string[] | null;

  @Field(() => [UUIDResolver], {
    nullable: true,
    description: "Member record ids of APPROVED members",
  })
  @IsOptional()
  @ArrayMaxSize(TAGS_MAX)
  taggedMembers?: string[] | null;
}

/** POST /news-blogs/create */
@ArgsType()
export class CreateNewsArgs extends NewsFields {
  @Field()
  @Length(1, TITLE_MAX)
  @Matches(/\S/, { message: "title must not be blank" })
  title!: string;

  @Field(() => NewsStatus, { defaultValue: NewsStatus.DRAFT })
  status!: NewsStatus;
}

/** PUT /news-blogs/{id}: every field optional. */
@ArgsType()
export class UpdateNewsArgs extends NewsFields {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, TITLE_MAX)
  @Matches(/\S/, { message: "title must not be blank" })
  title?: string | null;

  @Field(() => NewsStatus, { nullable: true })
  @IsOptional()
  status?: NewsStatus | null;
}
