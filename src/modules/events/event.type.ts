import { Field, ID, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType, PayloadType } from "../../graphql/envelopes";
import {
  EventCategory,
  EventStatus,
  EventType,
  EventVisibility,
  MeetingPlatform,
} from "./event.enums";
import type { EventRecord } from "./event.model";

/** An event as the public pages see it: no way into the meeting. */
@ObjectType("PublicEvent", { simpleResolvers: true, description: "An event on the public pages" })
export class PublicEvent {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => EventCategory) category!: EventCategory;
  @Field(() => EventType) type!: EventType;
  @Field(() => String, { nullable: true }) location!: string | null;
  @Field(() => String, { nullable: true }) onlineLink!: string | null;
  @Field(() => MeetingPlatform, { nullable: true }) meetingPlatform!: MeetingPlatform | null;
  @Field(() => String, { nullable: true }) description!: string | null;

  @Field(() => String, { nullable: true, description: "The image's public URL" })
  thumbnailUrl!: string | null;

  @Field(() => String, { nullable: true }) organizer!: string | null;
  @Field(() => DateTimeScalar) startsAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) endsAt!: Date | null;
  @Field(() => EventStatus) status!: EventStatus;
  @Field(() => EventVisibility) visibility!: EventVisibility;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;

  static from(record: EventRecord, thumbnailUrl: string | null): PublicEvent {
    return Object.assign(new PublicEvent(), publicFields(record, thumbnailUrl));
  }
}

/** An event as signed-in members and administrators see it, with the meeting's id and password. */
@ObjectType("Event", { simpleResolvers: true, description: "An event, with how to join" })
export class Event extends PublicEvent {
  @Field(() => String, { nullable: true }) meetingId!: string | null;
  @Field(() => String, { nullable: true }) meetingPassword!: string | null;

  static full(record: EventRecord, thumbnailUrl: string | null): Event {
    return Object.assign(new Event(), {
      ...publicFields(record, thumbnailUrl),
      meetingId: record.meetingId,
      meetingPassword: record.meetingPassword,
    });
  }
}

/** Copies field by field: nothing of the record reaches an answer unless named here. */
function publicFields(record: EventRecord, thumbnailUrl: string | null) {
  return {
    id: record._id,
    name: record.name,
    category: record.category,
    type: record.type,
    location: record.location,
    onlineLink: record.onlineLink,
    meetingPlatform: record.meetingPlatform,
    description: record.description,
    thumbnailUrl,
    organizer: record.organizer,
    startsAt: record.startsAt,
    endsAt: record.endsAt,
    status: record.status,
    visibility: record.visibility,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export const EventPayload = PayloadType(Event, "EventPayload");
export const EventPage = PageType(Event, "EventPage");
export const PublicEventPayload = PayloadType(PublicEvent, "PublicEventPayload");
export const PublicEventPage = PageType(PublicEvent, "PublicEventPage");
