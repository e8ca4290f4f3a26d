import { IsIn, IsOptional, IsUrl, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DATE_INPUT_FORMS } from "../../graphql/date-time";
import { PageArgs } from "../../graphql/paging";
import { TIME_SLOTS, WEEKDAYS } from "./interview-calendar";
import { InterviewerRefField } from "./interviewer.input";
import { IsInterviewerKey } from "./interviewer-key";
import { Outcome } from "./interview.type";

const DAY_SHAPE = new RegExp(`^(${WEEKDAYS.join("|")})$`, "i");

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
  @InterviewerRefField("One of GET /interviewers")
  interviewerId!: string;

  @Field({
    description:
      "A day of the week in any letter case (SATURDAY, Saturday): the next such day (Asia/Manila) at least 24 h ahead",
  })
  @Matches(DAY_SHAPE, { message: `day must be one of ${WEEKDAYS.join(", ")} (any letter case)` })
  day!: string;

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
}

@ArgsType()
export class SetMeetingArgs {
  @Field(() => UUIDResolver, { description: "The member record" })
  id!: string;

  @Field({ description: "The link to the online meeting" })
  @MeetingLink()
  zoomLink!: string;

  @Field(() => String, { nullable: true, description: "Left out: unchanged; null: removed" })
  @IsOptional()
  @MaxLength(MEETING_FIELD_MAX)
  meetingId?: string | null;

  @Field(() => String, { nullable: true, description: "Left out: unchanged; null: removed" })
  @IsOptional()
  @MaxLength(MEETING_FIELD_MAX)
  passcode?: string | null;
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

  @Field(() => String, {
    nullable: true,
    description: "One interviewer's interviews: its id or key",
  })
  @IsOptional()
  @IsInterviewerKey(true)
  interviewerId?: string;
}
