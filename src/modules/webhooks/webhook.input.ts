import { ArrayMaxSize, IsOptional, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { PageWindowArgs } from "../../graphql/paging";
import { WEBHOOK_EVENTS } from "./change-feed";

const EVENTS_HELP = `Event types, of: ${WEBHOOK_EVENTS.join(", ")}`;

@ArgsType()
export class CreateWebhookArgs {
  @Field({ description: "https, on a public address" })
  @MaxLength(2048)
  url!: string;

  @Field(() => [String], { description: EVENTS_HELP })
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @MaxLength(50, { each: true })
  events!: string[];

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  description?: string | null;
}

@ArgsType()
export class UpdateWebhookArgs {
  @Field(() => UUIDResolver) id!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(2048)
  url?: string | null;

  @Field(() => [String], { nullable: true, description: EVENTS_HELP })
  @IsOptional()
  @ArrayMaxSize(WEBHOOK_EVENTS.length)
  @MaxLength(50, { each: true })
  events?: string[] | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(500)
  description?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "true enables a disabled endpoint again; false disables it",
  })
  @IsOptional()
  enabled?: boolean | null;
}

@ArgsType()
export class WebhookDeliveriesArgs extends PageWindowArgs {
  @Field(() => UUIDResolver) id!: string;
}
