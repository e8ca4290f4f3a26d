import { ArrayMaxSize, IsIn, IsOptional, Length, Matches } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { PageWindowArgs } from "../../graphql/paging";
import { IsEmailAddress } from "../users/email";
import { TIME_SLOTS, Weekday } from "./interview-calendar";
import { IsInterviewerKey, KEY_RULE } from "./interviewer-key";

const TEXT_MAX = 200;
const SLOT_MESSAGE = `each time slot must be one of ${TIME_SLOTS.join(", ")}`;

/** A name or title: 1–200 characters, not only spaces; left out of an update when optional. */
function Text(description: string, optional: boolean): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: optional, description })(target, property);
    if (optional) IsOptional()(target, property);
    Length(1, TEXT_MAX)(target, property);
    Matches(/\S/, { message: `${String(property)} must not be blank` })(target, property);
  };
}

/** The interviewer an operation acts on: its id or its key. */
export function InterviewerRefField(description: string): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { description: `${description}: its id or key (e.g. ptr-rodel)` })(
      target,
      property,
    );
    IsInterviewerKey(true)(target, property);
  };
}

/** The fields create and update share, each optional. */
@ArgsType()
class InterviewerFields {
  @Field(() => String, { nullable: true, description: "Invitations go here; null removes it" })
  @IsOptional()
  @IsEmailAddress()
  email?: string | null;

  @Field(() => UUIDResolver, {
    nullable: true,
    description:
      "An OFFICER or ADMIN account that may record this interviewer's outcomes; null unlinks",
  })
  @IsOptional()
  userId?: string | null;

  @Field(() => Boolean, { nullable: true, description: "Members may book an active interviewer" })
  @IsOptional()
  active?: boolean | null;

  @Field(() => [Weekday], { nullable: true, description: "SATURDAY and SUNDAY by default" })
  @IsOptional()
  @ArrayMaxSize(7)
  days?: Weekday[] | null;

  @Field(() => [String], {
    nullable: true,
    description: `Hourly slots: ${TIME_SLOTS.join(", ")} (all by default)`,
  })
  @IsOptional()
  @ArrayMaxSize(TIME_SLOTS.length)
  @IsIn(TIME_SLOTS, { each: true, message: SLOT_MESSAGE })
  timeSlots?: string[] | null;
}

@ArgsType()
export class CreateInterviewerArgs extends InterviewerFields {
  @Field({ description: `A unique handle: ${KEY_RULE}` })
  @IsInterviewerKey(false)
  key!: string;

  @Text("e.g. Ptr. Maria Santos", false)
  name!: string;

  @Text("e.g. Formation Interviewer", false)
  title!: string;
}

@ArgsType()
export class UpdateInterviewerArgs extends InterviewerFields {
  @InterviewerRefField("The interviewer")
  id!: string;

  @Field(() => String, { nullable: true, description: `A new handle: ${KEY_RULE}` })
  @IsOptional()
  @IsInterviewerKey(false)
  key?: string | null;

  @Text("The interviewer's name", true)
  name?: string | null;

  @Text("e.g. Formation Interviewer", true)
  title?: string | null;
}

@ArgsType()
export class InterviewerRefArgs {
  @InterviewerRefField("The interviewer")
  id!: string;
}

@ArgsType()
export class InterviewerListArgs extends PageWindowArgs {}
