import { isDuplicateKeyError } from "../../db/errors";
import type { Locks } from "../../db/locks";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import { containsText } from "../../graphql/paging";
import { newSections, replaceSections } from "../sections/section.replace";
import { rankOf } from "./office-level";
import { officeLock, type OfficeHolderService } from "./office-holder.service";
import {
  OfficeSortBy,
  SortOrder,
  type CreateOfficeArgs,
  type OfficeListArgs,
  type UpdateOfficeArgs,
} from "./office.input";
import type { OfficeModel, OfficeRecord } from "./office.model";
import { OfficeTitle } from "./office.type";

const SECTION_RULES = { titleRequired: true };

/** Which stored field each sortBy orders by; ties fall back to name, then id. */
const SORT_FIELDS: Record<OfficeSortBy, string> = {
  [OfficeSortBy.createdAt]: "createdAt",
  [OfficeSortBy.updatedAt]: "updatedAt",
  [OfficeSortBy.name]: "nameKey",
  [OfficeSortBy.title]: "nameKey",
  [OfficeSortBy.level]: "levelRank",
};

/** Office titles (contract §7). Any signed-in caller reads; the resolver gates writes to admins. */
export class OfficeService {
  constructor(
    private readonly offices: OfficeModel,
    private readonly holders: OfficeHolderService,
    private readonly locks: Locks,
  ) {}

  async list(args: OfficeListArgs): Promise<Omit<Page<OfficeTitle>, "code" | "message">> {
    const search = args.search?.trim();
    const filter = search
      ? { $or: [{ name: containsText(search) }, { description: containsText(search) }] }
      : {};
    const direction = args.sortOrder === SortOrder.asc ? 1 : -1;
    const sortField = SORT_FIELDS[args.sortBy];
    const sort: Record<string, 1 | -1> = { [sortField]: direction };
    if (sortField !== "nameKey") sort.nameKey = 1;
    sort._id = direction;
    const [records, total] = await Promise.all([
      this.offices
        .find(filter)
        .sort(sort)
        .skip((args.page - 1) * args.limit)
        .limit(args.limit)
        .lean(),
      this.offices.countDocuments(filter),
    ]);
    return {
      data: await this.present(records),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }

  async get(id: string): Promise<OfficeTitle> {
    return (await this.present([await this.findRecord(id)]))[0];
  }

  async create(_caller: Caller, args: CreateOfficeArgs): Promise<OfficeTitle> {
    const name = nameOf(args);
    if (name === undefined) throw ValidationError.field("name", "name (or title) is required");
    try {
      const record = await this.offices.create({
        name,
        nameKey: name.toLowerCase(),
        level: args.level,
        levelRank: rankOf(args.level),
        description: args.description?.trim() || null,
        maxSlots: args.maxSlots ?? null,
        sections: newSections(args.sections ?? [], SECTION_RULES),
      });
      return OfficeTitle.from(record.toObject(), 0);
    } catch (error) {
      throw duplicateName(error, name);
    }
  }

  /**
   * A partial update, under the office's lock: lowering maxSlots below the appointments
   * running now is refused, and no appointment can slip in between the check and the write.
   */
  async update(_caller: Caller, args: UpdateOfficeArgs): Promise<OfficeTitle> {
    for (const field of ["name", "title", "level"] as const) {
      if (args[field] === null) throw ValidationError.field(field, `${field} cannot be null`);
    }
    return this.locks.withLock(officeLock(args.id), async () => {
      const current = await this.findRecord(args.id);
      const changes = this.changesOf(current, args);
      if (typeof changes.maxSlots === "number") {
        const active = (await this.holders.countActive([current._id])).get(current._id) ?? 0;
        if (active > changes.maxSlots) {
          throw new ConflictError(
            `${active} appointments to this office are running; end some before lowering maxSlots to ${changes.maxSlots}`,
          );
        }
      }
      try {
        const updated = await this.offices
          .findByIdAndUpdate(args.id, { $set: changes }, { returnDocument: "after" })
          .lean();
        if (!updated) throw notFound();
        return (await this.present([updated]))[0];
      } catch (error) {
        throw duplicateName(error, changes.name ?? current.name);
      }
    });
  }

  /** Refused while anyone holds the office; its ended appointments go with it. */
  async delete(_caller: Caller, id: string): Promise<void> {
    await this.locks.withLock(officeLock(id), async () => {
      const current = await this.findRecord(id);
      const active = (await this.holders.countActive([current._id])).get(current._id) ?? 0;
      if (active > 0) {
        throw new ConflictError(
          `${active} member(s) hold this office; end their appointments before deleting it`,
        );
      }
      await this.offices.deleteOne({ _id: id });
      await this.holders.deleteAllOfOffice(id);
    });
  }

  private changesOf(current: OfficeRecord, args: UpdateOfficeArgs): Partial<OfficeRecord> {
    const changes: Partial<OfficeRecord> = {};
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
    return changes;
  }

  private async present(records: OfficeRecord[]): Promise<OfficeTitle[]> {
    const counts = await this.holders.countActive(records.map((record) => record._id));
    return records.map((record) => OfficeTitle.from(record, counts.get(record._id) ?? 0));
  }

  private async findRecord(id: string): Promise<OfficeRecord> {
    const record = await this.offices.findById(id).lean();
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

function duplicateName(error: unknown, name: string): unknown {
  return isDuplicateKeyError(error)
    ? new ConflictError(`An office title named "${name}" already exists`)
    : error;
}
