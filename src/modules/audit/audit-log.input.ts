import { UUIDResolver } from "graphql-scalars";
import { DateTimeScalar } from "../../graphql/date-time";
import { IsOptional, Matches, Max, Min } from "class-validator";
import { ArgsType, Field, Int } from "type-graphql";
import { MAX_PAGE_LIMIT } from "../../graphql/paging";

@ArgsType()
export class AuditLogListArgs {
  @Field(() => Int, { defaultValue: 1, description: "1-based page number" })
  @Min(1)
  @Max(1_000_000)
  page!: number;

  @Field(() => Int, {
    defaultValue: 20,
    description: `Entries per page, at most ${MAX_PAGE_LIMIT}`,
  })
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit!: number;

  @Field(() => UUIDResolver, { nullable: true, description: "Only acts of this account" })
  @IsOptional()
  actorId?: string | null;

  @Field(() => UUIDResolver, { nullable: true, description: "Only acts on this record" })
  @IsOptional()
  targetId?: string | null;

  @Field(() => String, { nullable: true, description: "Only this action, e.g. member.status" })
  @IsOptional()
  @Matches(/^[a-zA-Z]+\.[a-zA-Z]+$/, { message: "action looks like member.status" })
  action?: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: "At or after this time" })
  @IsOptional()
  from?: Date | null;

  @Field(() => DateTimeScalar, { nullable: true, description: "Before this time" })
  @IsOptional()
  to?: Date | null;
}
