import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { Weekday } from "./interview-calendar";
import type { InterviewRecord, InterviewerRecord } from "./interview.model";

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

@ObjectType("FreeSlot", {
  simpleResolvers: true,
  description: "A slot a booking made now can take",
})
export class FreeSlot {
  @Field({ description: "Calendar date in Asia/Manila, YYYY-MM-DD" }) date!: string;
  @Field({ description: 'e.g. "09:00 AM" (Asia/Manila)' }) timeSlot!: string;
}

@ObjectType("Interviewer", {
  simpleResolvers: true,
  description: "An officer or administrator who interviews members, with the slots still free",
})
export class Interviewer {
  @Field(() => ID, { description: "The interviewer's user id" }) id!: string;
  @Field() name!: string;
  @Field() active!: boolean;
  @Field(() => [Weekday]) days!: Weekday[];
  @Field(() => [String]) timeSlots!: string[];
  @Field(() => [FreeSlot], { description: "The next free slots, soonest first" })
  nextFree!: FreeSlot[];

  static from(record: InterviewerRecord, name: string, nextFree: FreeSlot[]): Interviewer {
    return Object.assign(new Interviewer(), {
      id: record._id,
      name,
      active: record.active,
      days: record.days,
      timeSlots: record.timeSlots,
      nextFree,
    });
  }
}

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
    names: { interviewer: string; member: string | null },
  ): OnlineInterview {
    return Object.assign(new OnlineInterview(), {
      id: record._id,
      memberId: record.memberId,
      memberName: names.member,
      interviewerId: record.interviewerId,
      interviewerName: names.interviewer,
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

export const InterviewerPayload = PayloadType(Interviewer, "InterviewerPayload");
export const InterviewPage = PageType(OnlineInterview, "InterviewPage");

@ObjectType("InterviewerListPayload", { simpleResolvers: true })
export class InterviewerListPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [Interviewer]) data!: Interviewer[];
}

@ObjectType("OnlineInterviewPayload", { simpleResolvers: true })
export class OnlineInterviewPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => OnlineInterview, { nullable: true, description: "null until booked" })
  data!: OnlineInterview | null;
}
