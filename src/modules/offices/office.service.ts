import { DUPLICATE } from "../../db/errors";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { newSections, replaceSections } from "../sections/section.replace";
import { rankOf } from "./office-level";
import type { OfficeHolderRepository } from "./office-holder.repository";
import { runningSlots, type OfficeSlots } from "./office-slots";
import {
  OfficeSortBy,
  SortOrder,
  type CreateOfficeArgs,
  type OfficeListArgs,
  type UpdateOfficeArgs,
} from "./office.input";
import type { OfficeRecord } from "./office.model";
import type { OfficeChanges, OfficeRepository, OfficeSortField } from "./office.repository";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";
import { OfficeTitle } from "./office.type";

const SECTION_RULES = { titleRequired: true };

/** Which stored field each sortBy orders by. */
const SORT_FIELDS: Record<OfficeSortBy, OfficeSortField> = {
  [OfficeSortBy.createdAt]: "createdAt",
  [OfficeSortBy.updatedAt]: "updatedAt",
  [OfficeSortBy.name]: "nameKey",
  [OfficeSortBy.title]: "nameKey",
  [OfficeSortBy.level]: "levelRank",
};

/** Office titles. Any signed-in caller reads; the resolver gates writes to admins. */
export class OfficeService {
  constructor(
    private readonly offices: OfficeRepository,
    private readonly holders: OfficeHolderRepository,
    private readonly slots: OfficeSlots,
    /** The service's clock: which terms still count in a title's slots. */
    private readonly now: () => Date,
    /** Tells the organisation's site its directory of offices changed (webhooks). */
    private readonly changes: () => ChangeFeed = () => NO_CHANGE_FEED,
  ) {}

  /** The holder counts shown are the running terms, lapsed ones left out without a write. */
  async list(args: OfficeListArgs): Promise<PageResult<OfficeTitle>> {
    const { records, total } = await this.offices.page({
      search: args.search,
      sortBy: SORT_FIELDS[args.sortBy],
      direction: args.sortOrder === SortOrder.asc ? 1 : -1,
      page: args.page,
      limit: args.limit,
    });
    return pageOf(args, await this.present(records), total);
  }

  async get(id: string): Promise<OfficeTitle> {
    return (await this.present([await this.findRecord(id)]))[0];
  }

  async create(args: CreateOfficeArgs): Promise<OfficeTitle> {
    const name = nameOf(args);
    if (name === undefined) throw ValidationError.field("name", "name (or title) is required");
    const description = args.description?.trim() || null;
    const record = await this.offices.insert({
      _id: uuidv7(),
      name,
      nameKey: name.toLowerCase(),
      level: args.level,
      levelRank: rankOf(args.level),
      description,
      searchText: searchableText(name, description),
      maxSlots: args.maxSlots ?? null,
      activeHolders: 0,
      slotsChangedAt: null,
      sections: newSections(args.sections ?? [], SECTION_RULES),
    });
    if (record === DUPLICATE) throw duplicateName(name);
    await this.changes().record("directory.changed", { id: record._id, office: name });
    return OfficeTitle.from(record);
  }

  /**
   * A partial update. Lowering maxSlots is conditional on the slots taken at that moment, in
   * the same update, so no appointment can slip in between the check and the write.
   */
  async update(args: UpdateOfficeArgs): Promise<OfficeTitle> {
    for (const field of ["name", "title", "level"] as const) {
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be null`);
    }
    const current = await this.findRecord(args.id);
    const changes = this.changesOf(current, args);
    const updated =
      typeof changes.maxSlots === "number"
        ? await this.updateWithin(args.id, changes, changes.maxSlots)
        : await this.offices.update(args.id, changes);
    if (updated === DUPLICATE) throw duplicateName(changes.name ?? current.name);
    if (!updated) throw notFound();
    await this.changes().record("directory.changed", { id: updated._id, office: updated.name });
    return (await this.present([updated]))[0];
  }

  /** Refused while anyone holds the office; its ended appointments go with it. */
  async delete(id: string): Promise<void> {
    await this.findRecord(id);
    if (!(await this.offices.deleteUnheld(id))) {
      // Refuse only on a count checked against the appointments.
      await this.slots.settle(id);
      if (!(await this.offices.deleteUnheld(id))) {
        const held = (await this.findRecord(id)).activeHolders ?? 0;
        throw new ConflictError(
          `${held} member(s) hold this office; end their appointments before deleting it`,
        );
      }
    }
    await this.holders.deleteAllOfOffice(id);
    await this.changes().record("directory.changed", { id, office: null });
  }

  /** Changes that set maxSlots to `limit`, applied only while no more slots are taken. */
  private async updateWithin(id: string, changes: OfficeChanges, limit: number) {
    const updated = await this.offices.update(id, changes, limit);
    if (updated) return updated;
    await this.findRecord(id);
    await this.slots.settle(id);
    const retried = await this.offices.update(id, changes, limit);
    if (retried) return retried;
    const held = (await this.findRecord(id)).activeHolders ?? 0;
    throw new ConflictError(
      `${held} appointments to this office are running; end some before lowering maxSlots to ${limit}`,
    );
  }

  private changesOf(current: OfficeRecord, args: UpdateOfficeArgs): OfficeChanges {
    const changes: OfficeChanges = {};
    const name = nameOf(args);
    if (name !== undefined) {
      changes.name = name;
      changes.nameKey = name.toLowerCase();
    }
    if (args.level) {
      changes.level = args.level;
      changes.levelRank = rankOf(args.level);
    }
    if (args.description !== undefined) changes.description = args.description?.trim() || null;
    if (args.maxSlots !== undefined) changes.maxSlots = args.maxSlots;
    if (args.sections !== undefined && args.sections !== null) {
      changes.sections = replaceSections(current.sections, args.sections, SECTION_RULES);
    }
    if (changes.name !== undefined || changes.description !== undefined) {
      changes.searchText = searchableText(
        changes.name ?? current.name,
        changes.description !== undefined ? changes.description : current.description,
      );
    }
    return changes;
  }

  /** The titles as read, each counting only the terms running now. */
  private async present(records: OfficeRecord[]): Promise<OfficeTitle[]> {
    const held = records.filter((record) => (record.activeHolders ?? 0) > 0);
    const lapsed = await this.holders.lapsedPerOffice(
      held.map((record) => record._id),
      this.now(),
    );
    return records.map((record) =>
      OfficeTitle.from({
        ...record,
        activeHolders: runningSlots(record, lapsed.get(record._id) ?? 0),
      }),
    );
  }

  private async findRecord(id: string): Promise<OfficeRecord> {
    const record = await this.offices.findById(id);
    if (!record) throw notFound();
    return record;
  }
}

/** `name`, or its alias `title`; both given must agree. */
function nameOf(args: { name?: string | null; title?: string | null }): string | undefined {
  const name = args.name?.trim() || undefined;
  const title = args.title?.trim() || undefined;
  if (name && title && name !== title) {
    throw ValidationError.field("title", "title is an alias of name; give one, or the same value");
  }
  return name ?? title;
}

function notFound(): NotFoundError {
  return new NotFoundError("No office title has this id");
}

function duplicateName(name: string): ConflictError {
  return new ConflictError(`An office title named "${name}" already exists`);
}
