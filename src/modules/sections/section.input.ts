import {
  ArrayMaxSize,
  IsOptional,
  Length,
  Matches,
  MaxLength,
  ValidateNested,
} from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { Field, InputType } from "type-graphql";
import { SectionType } from "./section.enums";

export const SECTION_LIMITS = { sections: 50, items: 200, title: 200, content: 20_000 };

@InputType("SectionItemInput")
export class SectionItemInput {
  @Field()
  @MaxLength(SECTION_LIMITS.content)
  @Matches(/\S/, { message: "content must not be blank" })
  content!: string;
}

@InputType("SectionInput", {
  description: "With the id of an existing section: replaces it. Without: a new section.",
})
export class SectionInput {
  @Field(() => UUIDResolver, { nullable: true })
  @IsOptional()
  id?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(1, SECTION_LIMITS.title)
  @Matches(/\S/, { message: "title must not be blank" })
  title?: string;

  @Field(() => SectionType)
  type!: SectionType;

  @Field(() => [SectionItemInput], { defaultValue: [] })
  @ArrayMaxSize(SECTION_LIMITS.items)
  @ValidateNested({ each: true })
  items!: SectionItemInput[];
}
