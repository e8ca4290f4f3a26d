import {
  ArrayMaxSize,
  IsOptional,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field, Int, registerEnumType } from "type-graphql";
import { PageArgs } from "../../graphql/paging";
import { SECTION_LIMITS, SectionInput } from "../sections/section.input";
import { OfficeLevel } from "./office-level";

const NAME_MAX = 200;
const DESCRIPTION_MAX = 20_000;
export const MAX_SLOTS_LIMIT = 10_000;

export enum OfficeSortBy {
  createdAt = "createdAt",
  updatedAt = "updatedAt",
  name = "name",
  title = "title",
  level = "level",
}

export enum SortOrder {
  asc = "asc",
  desc = "desc",
}

registerEnumType(OfficeSortBy, {
  name: "OfficeSortBy",
  description: "title is the same as name; level follows the hierarchy, not the alphabet",
});
registerEnumType(SortOrder, { name: "SortOrder" });

/** An office name: 1–200 characters, not only spaces. */
function OfficeName(): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true })(target, property);
    IsOptional()(target, property);
    Length(1, NAME_MAX)(target, property);
    Matches(/\S/, { message: `${String(property)} must not be blank` })(target, property);
  };
}

function Description(): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true })(target, property);
    IsOptional()(target, property);
    Length(0, DESCRIPTION_MAX)(target, property);
  };
}

function MaxSlots(): PropertyDecorator {
  return (target, property) => {
    Field(() => Int, { nullable: true, description: "At least 1; null for no limit" })(
      target,
      property,
    );
    IsOptional()(target, property);
    Min(1)(target, property);
    Max(MAX_SLOTS_LIMIT)(target, property);
  };
}

function Sections(description?: string): PropertyDecorator {
  return (target, property) => {
    Field(() => [SectionInput], { nullable: true, description })(target, property);
    IsOptional()(target, property);
    ArrayMaxSize(SECTION_LIMITS.sections)(target, property);
    ValidateNested({ each: true })(target, property);
  };
}

/** POST /offices/create. `title` is an alias of `name`: the organisation's client sends it. */
@ArgsType()
export class CreateOfficeArgs {
  @OfficeName() name?: string | null;
  @OfficeName() title?: string | null;

  @Field(() => OfficeLevel)
  level!: OfficeLevel;

  @Description() description?: string | null;
  @MaxSlots() maxSlots?: number | null;
  @Sections() sections?: SectionInput[] | null;
}

/** PUT /offices/{id}: every field optional; `description` and `maxSlots` may be set to null. */
@ArgsType()
export class UpdateOfficeArgs {
  @Field(() => UUIDResolver)
  id!: string;

  @OfficeName() name?: string | null;
  @OfficeName() title?: string | null;

  @Field(() => OfficeLevel, { nullable: true })
  @IsOptional()
  level?: OfficeLevel | null;

  @Description() description?: string | null;
  @MaxSlots() maxSlots?: number | null;
  @Sections("Replaces the list (see SectionInput)") sections?: SectionInput[] | null;
}

@ArgsType()
export class OfficeListArgs extends PageArgs {
  @Field(() => OfficeSortBy, { defaultValue: OfficeSortBy.createdAt })
  sortBy!: OfficeSortBy;

  @Field(() => SortOrder, { defaultValue: SortOrder.desc })
  sortOrder!: SortOrder;
}
