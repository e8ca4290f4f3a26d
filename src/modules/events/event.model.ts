import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { uuidv7 } from "../../db/uuid";
import {
  EventCategory,
  EventStatus,
  EventType,
  EventVisibility,
  MeetingPlatform,
} from "./event.enums";

export interface EventRecord {
  _id: string;
  name: string;
  /** Lower-cased name: the order of sortBy=name. */
  nameKey: string;
  category: EventCategory;
  type: EventType;
  location: string | null;
  onlineLink: string | null;
  meetingPlatform: MeetingPlatform | null;
  /** For signed-in members only: never in a public answer. */
  meetingId: string | null;
  meetingPassword: string | null;
  description: string | null;
  /** An EVENT_IMAGE file (files module); its URL is rendered on read. */
  thumbnailFileId: string | null;
  organizer: string | null;
  startsAt: Date;
  endsAt: Date | null;
  status: EventStatus;
  visibility: EventVisibility;
  /** Name, description and location, for `search` (src/db/search-text.ts). */
  searchText: string;
  createdAt: Date;
  updatedAt: Date;
}

const nullableString = { type: String, default: null };
const enumOf = (values: object, required = true) => ({
  type: String,
  enum: Object.values(values),
  required,
});

const eventSchema = new Schema<EventRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    name: { type: String, required: true },
    nameKey: { type: String, required: true },
    category: enumOf(EventCategory),
    type: enumOf(EventType),
    location: nullableString,
    onlineLink: nullableString,
    meetingPlatform: { ...enumOf(MeetingPlatform, false), default: null },
    meetingId: nullableString,
    meetingPassword: nullableString,
    description: nullableString,
    thumbnailFileId: nullableString,
    organizer: nullableString,
    startsAt: { type: Date, required: true },
    endsAt: { type: Date, default: null },
    status: enumOf(EventStatus),
    visibility: enumOf(EventVisibility),
    searchText: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);
// Each sort of the lists ends in _id (UUID v7) so pages neither repeat nor skip; the public
// list pins visibility first. One direction each: the reverse order walks the same index.
for (const field of ["startsAt", "createdAt", "nameKey"]) {
  eventSchema.index({ [field]: 1, _id: 1 });
  eventSchema.index({ visibility: 1, [field]: 1, _id: 1 });
}
eventSchema.index({ searchText: 1 });
// Whether a PUBLIC event shows an image (/files/public/{id}).
eventSchema.index({ thumbnailFileId: 1 });

export type EventModel = Model<EventRecord>;

// Public reads are made of this collection: every write changes their ETag.
eventSchema.plugin(changeStamped, { source: "events" });

export function createEventModel(connection: Connection): EventModel {
  return connection.model<EventRecord>("Event", eventSchema, "events");
}
