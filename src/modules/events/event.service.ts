import { NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { fileIdOf } from "../files/file-links";
import type { FileRefs } from "../files/file-refs";
import { SortOrder } from "../offices/office.input";
import { EventSortBy, EventVisibility } from "./event.enums";
import type { CreateEventArgs, EventListArgs, UpdateEventArgs } from "./event.input";
import type { EventRecord } from "./event.model";
import type { EventChanges, EventRepository } from "./event.repository";
import { Event, PublicEvent } from "./event.type";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

const SORT_FIELD = { startsAt: "startsAt", createdAt: "createdAt", name: "nameKey" } as const;

/** Optional texts: trimmed, and blank is no value. */
const OPTIONAL_TEXTS = [
  "location",
  "onlineLink",
  "meetingId",
  "meetingPassword",
  "description",
  "organizer",
] as const;

/** Fields a record must keep: an update may leave them out, not clear them. */
const REQUIRED = ["name", "category", "type", "startsAt", "status", "visibility"] as const;

const cleanText = (value: string | null | undefined) => value?.trim() || null;

/** Events: administrators write them; the public pages and members read them. */
export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly files: () => FileRefs,
    /** Tells the organisation's site of a change to what it shows (webhooks). */
    private readonly changes: () => ChangeFeed = () => NO_CHANGE_FEED,
  ) {}

  /** Every event, with how to join (administrators). */
  async list(args: EventListArgs): Promise<PageResult<Event>> {
    return this.page(args, false, (record, url) => Event.full(record, url));
  }

  /** PUBLIC events, without the meeting's id and password. */
  async listPublic(args: EventListArgs): Promise<PageResult<PublicEvent>> {
    return this.page(args, true, (record, url) => PublicEvent.from(record, url));
  }

  /** Any event, with how to join (signed-in members). */
  async get(id: string): Promise<Event> {
    const record = await this.events.findById(id);
    if (!record) throw notFound(id);
    return Event.full(record, await this.thumbnailOf(record));
  }

  /** A PUBLIC event; a PRIVATE one answers the same 404 as none. */
  async getPublic(id: string): Promise<PublicEvent> {
    const record = await this.events.findPublic(id);
    if (!record) throw notFound(id);
    return PublicEvent.from(record, await this.thumbnailOf(record));
  }

  async create(adminId: string, args: CreateEventArgs): Promise<Event> {
    checkDates(args.startsAt, args.endsAt ?? null);
    const thumbnailFileId = args.thumbnailUrl ? await this.claim(adminId, args.thumbnailUrl) : null;
    const name = args.name.trim();
    const texts = Object.fromEntries(OPTIONAL_TEXTS.map((key) => [key, cleanText(args[key])]));
    const record = {
      _id: uuidv7(),
      name,
      nameKey: name.toLowerCase(),
      category: args.category,
      type: args.type,
      meetingPlatform: args.meetingPlatform ?? null,
      thumbnailFileId,
      startsAt: args.startsAt,
      endsAt: args.endsAt ?? null,
      status: args.status,
      visibility: args.visibility,
      ...(texts as Pick<EventRecord, (typeof OPTIONAL_TEXTS)[number]>),
      searchText: searchableText(name, texts.description, texts.location),
    };
    try {
      const saved = await this.events.insert(record);
      if (isPublic(saved)) await this.changes().record("event.published", changeOf(saved));
      return Event.full(saved, await this.thumbnailOf(saved));
    } catch (error) {
      if (thumbnailFileId) await this.files().release([thumbnailFileId]);
      throw error;
    }
  }

  async update(adminId: string, args: UpdateEventArgs): Promise<Event> {
    for (const field of REQUIRED) {
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be cleared`);
    }
    const current = await this.events.findById(args.id);
    if (!current) throw notFound(args.id);
    const changes: EventChanges = {};
    if (args.name) {
      changes.name = args.name.trim();
      changes.nameKey = changes.name.toLowerCase();
    }
    for (const field of ["category", "type", "status", "visibility", "startsAt"] as const) {
      if (args[field]) Object.assign(changes, { [field]: args[field] });
    }
    for (const field of OPTIONAL_TEXTS) {
      if (args[field] !== undefined) changes[field] = cleanText(args[field]);
    }
    if (args.meetingPlatform !== undefined) changes.meetingPlatform = args.meetingPlatform;
    if (args.endsAt !== undefined) changes.endsAt = args.endsAt;
    checkDates(changes.startsAt ?? current.startsAt, changes.endsAt ?? current.endsAt);
    if (["name", "description", "location"].some((field) => field in changes)) {
      changes.searchText = searchableText(
        changes.name ?? current.name,
        changes.description !== undefined ? changes.description : current.description,
        changes.location !== undefined ? changes.location : current.location,
      );
    }
    if (args.thumbnailUrl !== undefined) {
      changes.thumbnailFileId = args.thumbnailUrl
        ? await this.thumbnailRef(adminId, args.thumbnailUrl.trim(), current)
        : null;
    }
    const updated = await this.events.update(args.id, changes);
    if (!updated) throw notFound(args.id);
    const replaced = current.thumbnailFileId;
    if (replaced && "thumbnailFileId" in changes && changes.thumbnailFileId !== replaced) {
      await this.files().release([replaced]);
    }
    if (isPublic(updated))
      await this.changes().record(
        isPublic(current) ? "event.changed" : "event.published",
        changeOf(updated),
      );
    else if (isPublic(current)) await this.changes().record("event.changed", changeOf(updated));
    return Event.full(updated, await this.thumbnailOf(updated));
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.events.delete(id);
    if (!deleted) throw notFound(id);
    if (deleted.thumbnailFileId) await this.files().release([deleted.thumbnailFileId]);
    if (isPublic(deleted)) await this.changes().record("event.deleted", { id: deleted._id });
  }

  private async page<T>(
    args: EventListArgs,
    publicOnly: boolean,
    view: (record: EventRecord, thumbnailUrl: string | null) => T,
  ): Promise<PageResult<T>> {
    const { records, total } = await this.events.page({
      page: args.page,
      limit: args.limit,
      search: args.search,
      sortBy: SORT_FIELD[args.sortBy ?? EventSortBy.createdAt],
      direction: args.sortOrder === SortOrder.asc ? 1 : -1,
      publicOnly,
    });
    const urls = await this.thumbnailsOf(records);
    return pageOf(
      args,
      records.map((record) => view(record, urlOf(urls, record))),
      total,
    );
  }

  /**
   * The event's own thumbnail sent back (its id or URL) stays as it is, so any administrator
   * may edit another's event; another file is claimed as the caller's upload.
   */
  private async thumbnailRef(adminId: string, ref: string, current: EventRecord) {
    const own = current.thumbnailFileId;
    if (own && fileIdOf(ref) === own) return own;
    return this.claim(adminId, ref);
  }

  private claim(adminId: string, ref: string): Promise<string> {
    return this.files().claim(ref.trim(), {
      ownerId: adminId,
      purposes: ["EVENT_IMAGE"],
      field: "thumbnailUrl",
    });
  }

  /**
   * A PUBLIC event's image by its public URL (the public pages show it to anyone); a PRIVATE
   * event's, which /files/public/{id} does not serve, by a signed link.
   */
  private async thumbnailsOf(records: EventRecord[]): Promise<Map<string, string>> {
    const urls = new Map<string, string>();
    // A file a PUBLIC event shows is public wherever it appears: its URL is set last.
    for (const visibility of [EventVisibility.PRIVATE, EventVisibility.PUBLIC]) {
      const ids = records.flatMap((record) =>
        record.thumbnailFileId && record.visibility === visibility ? [record.thumbnailFileId] : [],
      );
      if (ids.length === 0) continue;
      const kind = visibility === EventVisibility.PUBLIC ? "public" : "private";
      for (const [id, view] of await this.files().describe(ids, kind)) urls.set(id, view.fileUrl);
    }
    return urls;
  }

  private async thumbnailOf(record: EventRecord): Promise<string | null> {
    return urlOf(await this.thumbnailsOf([record]), record);
  }
}

const urlOf = (urls: Map<string, string>, record: EventRecord) =>
  (record.thumbnailFileId && urls.get(record.thumbnailFileId)) || null;

function checkDates(startsAt: Date, endsAt: Date | null): void {
  if (endsAt && endsAt < startsAt)
    throw ValidationError.field("endsAt", "endsAt must not be before startsAt");
}

const notFound = (id: string) => new NotFoundError(`No event with id ${id}`);

const isPublic = (record: EventRecord) => record.visibility === EventVisibility.PUBLIC;

/** What an event change tells the site: fields of its public page. */
function changeOf(record: EventRecord) {
  return {
    id: record._id,
    name: record.name,
    startsAt: record.startsAt.toISOString(),
    status: record.status,
    public: isPublic(record),
  };
}
