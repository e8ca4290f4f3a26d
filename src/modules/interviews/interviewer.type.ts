import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { Weekday } from "./interview-calendar";
import type { InterviewerRecord } from "./interview.model";

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
  description: "Someone who interviews members, with the slots still free (no contact data)",
})
export class Interviewer {
  @Field(() => ID) id!: string;
  @Field({ description: "The handle bookings may use instead of the id, e.g. ptr-rodel" })
  key!: string;
  @Field() name!: string;
  @Field() title!: string;
  @Field() active!: boolean;
  @Field(() => [Weekday]) days!: Weekday[];
  @Field(() => [String]) timeSlots!: string[];
  @Field(() => [FreeSlot], { description: "The next free slots, soonest first" })
  nextFree!: FreeSlot[];

  static from(record: InterviewerRecord, nextFree: FreeSlot[]): Interviewer {
    return Object.assign(new Interviewer(), {
      id: record._id,
      key: record.key,
      name: record.name,
      title: record.title,
      active: record.active,
      days: record.days,
      timeSlots: record.timeSlots,
      nextFree,
    });
  }
}

@ObjectType("InterviewerDetails", {
  simpleResolvers: true,
  description: "An interviewer record as administrators keep it",
})
export class InterviewerDetails {
  @Field(() => ID) id!: string;
  @Field() key!: string;
  @Field() name!: string;
  @Field() title!: string;
  @Field(() => String, { nullable: true, description: "Where invitations go; none without it" })
  email!: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "The OFFICER or ADMIN account that records this interviewer's outcomes",
  })
  userId!: string | null;
  @Field({ description: "Members may book an active interviewer" }) active!: boolean;
  @Field(() => [Weekday]) days!: Weekday[];
  @Field(() => [String]) timeSlots!: string[];
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;

  static from(record: InterviewerRecord): InterviewerDetails {
    return Object.assign(new InterviewerDetails(), {
      id: record._id,
      key: record.key,
      name: record.name,
      title: record.title,
      email: record.email ?? null,
      userId: record.userId ?? null,
      active: record.active,
      days: record.days,
      timeSlots: record.timeSlots,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    });
  }
}

export const InterviewerDetailsPayload = PayloadType(
  InterviewerDetails,
  "InterviewerDetailsPayload",
);
export const InterviewerDetailsPage = PageType(InterviewerDetails, "InterviewerDetailsPage");

@ObjectType("InterviewerListPayload", { simpleResolvers: true })
export class InterviewerListPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => [Interviewer]) data!: Interviewer[];
}
