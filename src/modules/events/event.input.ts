import { IsOptional, IsUrl, Length, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageArgs } from "../../graphql/paging";
import { SortOrder } from "../offices/office.input";
import {
  EventCategory,
  EventSortBy,
  EventStatus,
  EventType,
  EventVisibility,
  MeetingPlatform,
} from "./event.enums";

const NAME_MAX = 200;
const SHORT_MAX = 500;
const DESCRIPTION_MAX = 20_000;

/** An optional text field; null clears it on update. */
function Text(max: number, description?: string): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: true, description })(target, property);
    IsOptional()(target, property);
    MaxLength(max)(target, property);
  };
}

/** The event's name: 1–200 characters, not only spaces. */
function Name(required: boolean): PropertyDecorator {
  return (target, property) => {
    Field(() => String, { nullable: !required })(target, property);
    if (!required) IsOptional()(target, property);
    Length(1, NAME_MAX)(target, property);
    Matches(/\S/, { message: "name must not be blank" })(target, property);
  };
}

function OnlineLink(): PropertyDecorator {
  return (target, property) => {
    Text(2048, "An http(s) link to join online")(target, property);
    IsUrl(
      { protocols: ["http", "https"], require_protocol: true },
      { message: "onlineLink must be an http(s) URL" },
    )(target, property);
  };
}

const THUMBNAIL =
  "An EVENT_IMAGE file you uploaded: its id or its fileUrl; answers give its public URL";

/** The fields create and update share, all optional on update. */
@ArgsType()
class EventFields {
  @Text(SHORT_MAX) location?: string | null;
  @OnlineLink() onlineLink?: string | null;

  @Field(() => MeetingPlatform, { nullable: true })
  @IsOptional()
  meetingPlatform?: MeetingPlatform | null;

  @Text(NAME_MAX, "Shown to signed-in members only") meetingId?: string | null;
  @Text(NAME_MAX, "Shown to signed-in members only") meetingPassword?: string | null;
  @Text(DESCRIPTION_MAX) description?: string | null;
  @Text(2048, THUMBNAIL) thumbnailUrl?: string | null;
  @Text(NAME_MAX) organizer?: string | null;

  @Field(() => DateTimeScalar, { nullable: true, description: "At or after startsAt" })
  @IsOptional()
  endsAt?: Date | null;
}

/** POST /events/create */
@ArgsType()
export class CreateEventArgs extends EventFields {
  @Name(true) name!: string;

  @Field(() => EventCategory)
  category!: EventCategory;

  @Field(() => EventType)
  type!: EventType;

  @Field(() => DateTimeScalar)
  startsAt!: Date;

  @Field(() => EventStatus, { defaultValue: EventStatus.SCHEDULED })
  status!: EventStatus;

  @Field(() => EventVisibility, { defaultValue: EventVisibility.PUBLIC })
  visibility!: EventVisibility;
}

/** PUT /events/{id}: every field optional; the optional ones may be set to null. */
@ArgsType()
export class UpdateEventArgs extends EventFields {
  @Field(() => UUIDResolver)
  id!: string;

  @Name(false) name?: string | null;

  @Field(() => EventCategory, { nullable: true })
  @IsOptional()
  category?: EventCategory | null;

  @Field(() => EventType, { nullable: true })
  @IsOptional()
  type?: EventType | null;

  @Field(() => DateTimeScalar, { nullable: true })
  @IsOptional()
  startsAt?: Date | null;

  @Field(() => EventStatus, { nullable: true })
  @IsOptional()
  status?: EventStatus | null;

  @Field(() => EventVisibility, { nullable: true })
  @IsOptional()
  visibility?: EventVisibility | null;
}

/** GET /events and GET /events/public; `search` looks in name, description and location. */
@ArgsType()
export class EventListArgs extends PageArgs {
  @Field(() => EventSortBy, { defaultValue: EventSortBy.createdAt })
  sortBy!: EventSortBy;

  @Field(() => SortOrder, { defaultValue: SortOrder.desc })
  sortOrder!: SortOrder;
}
