import mongoose from "mongoose";
import { IsOptional, Max, MaxLength, Min } from "class-validator";
import { ArgsType, Field, Int } from "type-graphql";

export const MAX_PAGE_LIMIT = 100;

/** A page of a list that takes no search. */
@ArgsType()
export class PageWindowArgs {
  @Field(() => Int, { defaultValue: 1, description: "1-based page number" })
  @Min(1)
  @Max(1_000_000)
  page!: number;

  @Field(() => Int, {
    defaultValue: 10,
    description: `Records per page, at most ${MAX_PAGE_LIMIT}`,
  })
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit!: number;
}

@ArgsType()
export class PageArgs extends PageWindowArgs {
  @Field(() => String, { nullable: true, description: "Case-insensitive substring match" })
  @IsOptional()
  @MaxLength(200)
  search?: string;
}

/**
 * A case-insensitive substring condition on a user's text, taken literally. Marked trusted
 * because it is our operator: sanitizeFilter neutralises every other `$` key in a filter.
 */
export function containsText(text: string) {
  return mongoose.trusted({ $regex: text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), $options: "i" });
}
