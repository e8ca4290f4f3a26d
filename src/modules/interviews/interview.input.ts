import { ArrayMaxSize, IsIn, IsOptional, IsUrl, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DATE_INPUT_FORMS } from "../../graphql/date-time";
import { PageArgs } from "../../graphql/paging";
import { TIME_SLOTS, Weekday } from "./interview-calendar";
import { Outcome } from "./interview.type";

const SLOT_MESSAGE = `each time slot must be one of ${TIME_SLOTS.join(", ")}`;

@ArgsType()
export class SetInterviewerArgs {
  @Field(() => UUIDResolver, { description: "An OFFICER or ADMIN account" })
  userId!: string;

  @Field({ description: "Members may book an active interviewer" })
  active!: boolean;

  @Field(() => [Weekday])
  @ArrayMaxSize(7)
  days!: Weekday[];

  @Field(() => [String], { description: `Hourly slots: ${TIME_SLOTS.join(", ")}` })
  @ArrayMaxSize(TIME_SLOTS.length)
  @IsIn(TIME_SLOTS, { each: true, message: SLOT_MESSAGE })
  timeSlots!: string[];
}

const MEETING_FIELD_MAX = 200;

/** An http(s) link to the online meeting. */
function MeetingLink(): PropertyDecorator {
  const url = IsUrl(
    { protocols: ["http", "https"], require_protocol: true },
    { message: "zoomLink must be an http(s) URL" },
  );
  const length = MaxLength(2048);
  return (target, key) => {
    url(target, key);
    length(target, key);
  };
}

@ArgsType()
export class BookInterviewArgs {
  @Field(() => UUIDResolver, { description: "The interviewer's user id (GET /interviewers)" })
  interviewerId!: string;

  @Field(() => Weekday, { description: "The next such day (Asia/Manila) at least 24 h ahead" })
  day!: Weekday;

  @Field({ description: 'One of the interviewer\'s slots, e.g. "09:00 AM"' })
  @IsIn(TIME_SLOTS, { message: `timeSlot must be one of ${TIME_SLOTS.join(", ")}` })
  timeSlot!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MeetingLink()
  zoomLink?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(MEETING_FIELD_MAX)
  meetingId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(MEETING_FIELD_MAX)
  passcode?: string | null;
}

@ArgsType()
export class RecordOutcomeArgs {
  @Field(() => UUIDResolver, { description: "The member record" })
  id!: string;

  @Field(() => Outcome)
  outcome!: Outcome;

  @Field(() => String, { nullable: true, description: "Mailed to the member" })
  @IsOptional()
  @MaxLength(2000)
  note?: string | null;

  @Field(() => String, { nullable: true, description: "Replaces the meeting link" })
  @IsOptional()
  @MeetingLink()
  zoomLink?: string | null;
}

@ArgsType()
export class ScheduleArgs extends PageArgs {
  // Strings read by the service (parseDateInput): a query string's date reaches the date
  // scalar unparsed on the REST path, where only full date-times pass.
  @Field(() => String, {
    nullable: true,
    description: `From this date in Asia/Manila: ${DATE_INPUT_FORMS}`,
  })
  @IsOptional()
  from?: string;

  @Field(() => String, {
    nullable: true,
    description: `Up to this date in Asia/Manila, included: ${DATE_INPUT_FORMS}`,
  })
  @IsOptional()
  to?: string;

  @Field(() => UUIDResolver, { nullable: true, description: "One interviewer's interviews" })
  @IsOptional()
  interviewerId?: string;
}
