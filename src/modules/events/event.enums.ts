import { registerEnumType } from "type-graphql";

export enum EventCategory {
  CONFERENCE = "CONFERENCE",
  OUTREACH = "OUTREACH",
  TRAINING = "TRAINING",
  WORSHIP = "WORSHIP",
  ORIENTATION = "ORIENTATION",
  SEMINAR = "SEMINAR",
  FELLOWSHIP = "FELLOWSHIP",
  PRAYER = "PRAYER",
  OTHER = "OTHER",
}

export enum EventType {
  ONSITE = "ONSITE",
  ONLINE = "ONLINE",
}

export enum MeetingPlatform {
  ZOOM = "ZOOM",
  GOOGLE_MEET = "GOOGLE_MEET",
  MICROSOFT_TEAMS = "MICROSOFT_TEAMS",
  OTHER = "OTHER",
}

export enum EventStatus {
  SCHEDULED = "SCHEDULED",
  ONGOING = "ONGOING",
  COMPLETED = "COMPLETED",
  CANCELLED = "CANCELLED",
}

export enum EventVisibility {
  PUBLIC = "PUBLIC",
  PRIVATE = "PRIVATE",
}

/** The orders the public and administrators' event lists offer. */
export enum EventSortBy {
  startsAt = "startsAt",
  createdAt = "createdAt",
  name = "name",
}

registerEnumType(EventCategory, { name: "EventCategory" });
registerEnumType(EventType, { name: "EventType", description: "Where it takes place" });
registerEnumType(MeetingPlatform, { name: "MeetingPlatform" });
registerEnumType(EventStatus, {
  name: "EventStatus",
  description: "Set by administrators; CANCELLED events stay listed, marked so",
});
registerEnumType(EventVisibility, {
  name: "EventVisibility",
  description: "PUBLIC: on the public pages; PRIVATE: signed-in members only",
});
registerEnumType(EventSortBy, {
  name: "EventSortBy",
  description: "name sorts case-insensitively",
});
