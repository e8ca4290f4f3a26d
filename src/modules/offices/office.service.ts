import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import type { Locks } from "../../db/locks";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import { newSections, replaceSections } from "../sections/section.replace";
import { activeHolders, type OfficeDirectory, type OfficeEntry } from "./office-directory";
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

type SortField = "createdAt" | "updatedAt" | "nameKey" | "levelRank";

/** Which stored field each sortBy orders by; ties fall back to name, then id. */
const SORT_FIELDS: Record<OfficeSortBy, SortField> = {
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
    private readonly directory: OfficeDirectory,
    private readonly holders: OfficeHolderService,
    private readonly locks: Locks,
  ) {}

  /** From the office directory: sort, search and count need every title and its holders. */
  async list(args: OfficeListArgs): Promise<Omit<Page<OfficeTitle>, "code" | "message">> {
    const search = args.search?.trim().toLowerCase();
    const field = SORT_FIELDS[args.sortBy];
    const direction = args.sortOrder === SortOrder.asc ? 1 : -1;
    const sorted = await this.directory.sorted(`${field}:${direction}`, orderBy(field, direction));
    const matching = search
      ? sorted.filter(
          (entry) =>
            entry.record.nameKey.includes(search) ||
            (entry.record.description?.toLowerCase().includes(search) ?? false),
        )
      : sorted;
    const start = (args.page - 1) * args.limit;
    const now = new Date();
    return {
      data: matching
        .slice(start, start + args.limit)
        .map((entry) => OfficeTitle.from(entry.record, activeHolders(entry, now))),
      pagination: Pagination.of(args.page, args.limit, matching.length),
    };
  }

  async get(id: string): Promise<OfficeTitle> {
    const entry = await this.directory.get(id);
    if (!entry) throw notFound();
    return OfficeTitle.from(entry.record, activeHolders(entry));
  }

  async create(_caller: Caller, args: CreateOfficeArgs): Promise<OfficeTitle> {
    const name = nameOf(args);
    if (name === undefined) throw ValidationError.field("name", "name (or title) is required");
    const id = uuidv7();
    try {
      const record = await this.directory.write(id, () =>
        this.offices.create({
          _id: id,
          name,
          nameKey: name.toLowerCase(),
          level: args.level,
          levelRank: rankOf(args.level),
          description: args.description?.trim() || null,
          maxSlots: args.maxSlots ?? null,
          sections: newSections(args.sections ?? [], SECTION_RULES),
        }),
      );
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
        const updated = await this.directory.write(args.id, () =>
          this.offices
            .findByIdAndUpdate(args.id, { $set: changes }, { returnDocument: "after" })
            .lean(),
        );
        if (!updated) throw notFound();
        return this.get(updated._id);
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
      await this.directory.write(id, async () => {
        await this.offices.deleteOne({ _id: id });
        await this.holders.deleteAllOfOffice(id);
      });
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

/** Entries ordered by `field` in `direction`, then by name, then by id in `direction`. */
function orderBy(field: SortField, direction: 1 | -1) {
  const compare = (a: OfficeRecord, b: OfficeRecord, key: SortField | "_id") => {
    const left = a[key] instanceof Date ? (a[key] as Date).getTime() : a[key];
    const right = b[key] instanceof Date ? (b[key] as Date).getTime() : b[key];
    return left < right ? -1 : left > right ? 1 : 0;
  };
  return (a: OfficeEntry, b: OfficeEntry) =>
    compare(a.record, b.record, field) * direction ||
    compare(a.record, b.record, "nameKey") ||
    compare(a.record, b.record, "_id") * direction;
}

function notFound(): NotFoundError {
  return new NotFoundError("No office title has this id");
}

function duplicateName(error: unknown, name: string): unknown {
  return isDuplicateKeyError(error)
    ? new ConflictError(`An office title named "${name}" already exists`)
    : error;
}
