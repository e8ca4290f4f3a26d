import { ArrayMaxSize, IsOptional, Length, Matches, ValidateNested } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { SECTION_LIMITS, SectionInput } from "../sections/section.input";

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 20_000;

/** Flat arguments: each one is a top-level field of the REST body. */
@ArgsType()
export class CreateBranchServiceArgs {
  @Field()
  @Length(1, TITLE_MAX)
  @Matches(/\S/, { message: "title must not be blank" })
  title!: string;

  @Field()
  @Length(1, DESCRIPTION_MAX)
  @Matches(/\S/, { message: "description must not be blank" })
  description!: string;

  @Field(() => [SectionInput], { nullable: true })
  @IsOptional()
  @ArrayMaxSize(SECTION_LIMITS.sections)
  @ValidateNested({ each: true })
  sections?: SectionInput[];
}

@ArgsType()
export class UpdateBranchServiceArgs {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, TITLE_MAX)
  @Matches(/\S/, { message: "title must not be blank" })
  title?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, DESCRIPTION_MAX)
  @Matches(/\S/, { message: "description must not be blank" })
  description?: string;

  @Field(() => [SectionInput], {
    nullable: true,
    description: "Replaces the list (see SectionInput)",
  })
  @IsOptional()
  @ArrayMaxSize(SECTION_LIMITS.sections)
  @ValidateNested({ each: true })
  sections?: SectionInput[];
}
