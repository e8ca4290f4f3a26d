import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType } from "../../graphql/envelopes";
import { Weekday } from "./interview-calendar";
import type { InterviewRecord } from "./interview.model";

export enum Outcome {
  PENDING = "PENDING",
  PASSED = "PASSED",
  FAILED = "FAILED",
  NO_SHOW = "NO_SHOW",
}

registerEnumType(Outcome, {
  name: "InterviewOutcome",
  description: "How an online interview went",
});

@ObjectType("OnlineInterview", {
  simpleResolvers: true,
  description: "A member's booked online interview and its outcome",
})
export class OnlineInterview {
  @Field(() => ID) id!: string;
  @Field(() => ID) memberId!: string;
  @Field(() => String, { nullable: true, description: "The member's full name" })
  memberName!: string | null;
  @Field(() => ID) interviewerId!: string;
  @Field(() => String, { nullable: true, description: "null once the interviewer was erased" })
  interviewerKey!: string | null;
  @Field() interviewerName!: string;
  @Field(() => Weekday) day!: Weekday;
  @Field({ description: "Calendar date in Asia/Manila, YYYY-MM-DD" }) date!: string;
  @Field() timeSlot!: string;
  @Field(() => DateTimeScalar) scheduledAt!: Date;
  @Field(() => String, { nullable: true }) zoomLink!: string | null;
  @Field(() => String, { nullable: true }) meetingId!: string | null;
  @Field(() => String, { nullable: true }) passcode!: string | null;
  @Field(() => DateTimeScalar, { description: "When the slot was taken" }) confirmedAt!: Date;
  @Field(() => Outcome) outcome!: Outcome;
  @Field(() => String, { nullable: true, description: "The interviewer's note on the outcome" })
  note!: string | null;
  @Field(() => DateTimeScalar, { nullable: true }) decidedAt!: Date | null;

  static from(
    record: InterviewRecord,
    names: { interviewer: { key: string; name: string } | null; member: string | null },
  ): OnlineInterview {
    return Object.assign(new OnlineInterview(), {
      id: record._id,
      memberId: record.memberId,
      memberName: names.member,
      interviewerId: record.interviewerId,
      interviewerKey: names.interviewer?.key ?? null,
      interviewerName: names.interviewer?.name ?? "(former interviewer)",
      day: record.day,
      date: record.date,
      timeSlot: record.timeSlot,
      scheduledAt: record.scheduledAt,
      zoomLink: record.zoomLink,
      meetingId: record.meetingId,
      passcode: record.passcode,
      confirmedAt: record.confirmedAt,
      outcome: record.outcome as Outcome,
      note: record.note,
      decidedAt: record.decidedAt,
    });
  }
}

export const InterviewPage = PageType(OnlineInterview, "InterviewPage");

@ObjectType("OnlineInterviewPayload", { simpleResolvers: true })
export class OnlineInterviewPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => OnlineInterview, { nullable: true, description: "null until booked" })
  data!: OnlineInterview | null;
}
