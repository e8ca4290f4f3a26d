import type { SortOrder } from "mongoose";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { searchFilter } from "../../db/search-text";
import { EventVisibility } from "./event.enums";
import type { EventModel, EventRecord } from "./event.model";

export type EventSortField = "startsAt" | "createdAt" | "nameKey";

export interface EventListQuery extends PageWindow {
  search?: string | null;
  sortBy: EventSortField;
  direction: 1 | -1;
  /** The public pages' list: PUBLIC events only. */
  publicOnly: boolean;
}

export type EventChanges = Partial<Omit<EventRecord, "_id" | "createdAt" | "updatedAt">>;

/** Every database call on events. */
export class EventRepository {
  constructor(private readonly events: EventModel) {}

  /** Each sort ends in _id; event.model.ts declares an index for each, with and without visibility. */
  page(query: EventListQuery): Promise<FoundPage<EventRecord>> {
    const filter = {
      ...(query.publicOnly ? { visibility: EventVisibility.PUBLIC } : {}),
      ...searchFilter(query.search),
    };
    const sort: Record<string, SortOrder> = {
      [query.sortBy]: query.direction,
      _id: query.direction,
    };
    return findPage(this.events, filter, sort, query);
  }

  findById(id: string): Promise<EventRecord | null> {
    return this.events.findById(id).lean<EventRecord>().exec();
  }

  findPublic(id: string): Promise<EventRecord | null> {
    return this.events
      .findOne({ _id: id, visibility: EventVisibility.PUBLIC })
      .lean<EventRecord>()
      .exec();
  }

  /** Whether a PUBLIC event shows this file (its image is public while one does). */
  async showsPublicly(fileId: string): Promise<boolean> {
    const found = await this.events
      .exists({ thumbnailFileId: fileId, visibility: EventVisibility.PUBLIC })
      .exec();
    return found !== null;
  }

  async insert(record: Omit<EventRecord, "createdAt" | "updatedAt">): Promise<EventRecord> {
    return (await this.events.create(record)).toObject();
  }

  update(id: string, changes: EventChanges): Promise<EventRecord | null> {
    return this.events
      .findByIdAndUpdate(id, { $set: changes }, { returnDocument: "after", runValidators: true })
      .lean<EventRecord>()
      .exec();
  }

  /** The deleted record, or null when there was none. */
  delete(id: string): Promise<EventRecord | null> {
    return this.events.findOneAndDelete({ _id: id }).lean<EventRecord>().exec();
  }
}
