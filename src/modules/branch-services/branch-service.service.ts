import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { PageArgs } from "../../graphql/paging";
import { isDuplicateKeyError } from "../../db/errors";
import { oneOf } from "../../db/operators";
import { uuidv7 } from "../../db/uuid";
import { newSections, replaceSections } from "../sections/section.replace";
import type { BranchDirectory } from "./branch-directory";
import type { BranchServiceModel, BranchServiceRecord } from "./branch-service.model";
import { BranchService } from "./branch-service.type";
import type { CreateBranchServiceArgs, UpdateBranchServiceArgs } from "./branch-service.input";

/** Tells whether member records still name a branch; the members module provides the real one. */
export type BranchUsageCheck = (branchId: string) => Promise<boolean>;

const SECTION_RULES = { titleRequired: false };

/** Branch-of-service records. Reading is public; the resolver gates writes to admins. */
export class BranchServiceService {
  constructor(
    private readonly branches: BranchServiceModel,
    private readonly directory: BranchDirectory,
    private readonly isBranchInUse: BranchUsageCheck,
  ) {}

  /** From the branch directory, newest first; `search` looks in the title and description. */
  async list(args: PageArgs): Promise<Omit<Page<BranchService>, "code" | "message">> {
    const search = args.search?.trim().toLowerCase();
    const all = await this.directory.records();
    const matching = search
      ? all.filter(
          (record) =>
            record.titleKey.includes(search) || record.description.toLowerCase().includes(search),
        )
      : all;
    const start = (args.page - 1) * args.limit;
    return {
      data: matching.slice(start, start + args.limit).map((record) => BranchService.from(record)),
      pagination: Pagination.of(args.page, args.limit, matching.length),
    };
  }

  async get(id: string): Promise<BranchService> {
    const record = await this.directory.get(id);
    if (!record) throw this.notFound(id);
    return BranchService.from(record);
  }

  async create(_caller: Caller, args: CreateBranchServiceArgs): Promise<BranchService> {
    const title = args.title.trim();
    const id = uuidv7();
    try {
      const record = await this.directory.write(id, () =>
        this.branches.create({
          _id: id,
          title,
          titleKey: title.toLowerCase(),
          description: args.description.trim(),
          sections: newSections(args.sections ?? [], SECTION_RULES),
        }),
      );
      return BranchService.from(record.toObject());
    } catch (error) {
      throw this.duplicateTitle(error, title);
    }
  }

  async update(_caller: Caller, args: UpdateBranchServiceArgs): Promise<BranchService> {
    const current = await this.findRecord(args.id);
    const changes: Partial<BranchServiceRecord> = {};
    if (args.title !== undefined) {
      changes.title = args.title.trim();
      changes.titleKey = changes.title.toLowerCase();
    }
    if (args.description !== undefined) changes.description = args.description.trim();
    if (args.sections !== undefined) {
      changes.sections = replaceSections(current.sections, args.sections, SECTION_RULES);
    }
    try {
      const updated = await this.directory.write(args.id, () =>
        this.branches
          .findByIdAndUpdate(
            args.id,
            { $set: changes },
            { returnDocument: "after", runValidators: true },
          )
          .lean(),
      );
      if (!updated) throw this.notFound(args.id);
      return BranchService.from(updated);
    } catch (error) {
      throw this.duplicateTitle(error, changes.title ?? current.title);
    }
  }

  async delete(_caller: Caller, id: string): Promise<void> {
    await this.findRecord(id);
    if (await this.isBranchInUse(id)) {
      throw new ConflictError(
        "Member records still name this branch of service; it cannot be deleted",
      );
    }
    await this.directory.write(id, () => this.branches.deleteOne({ _id: id }));
  }

  /** Which of these ids name a branch of service (for applications that name branches). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.branches.find({ _id: oneOf([...ids]) }, { _id: 1 }).lean();
    return new Set(found.map((branch) => branch._id));
  }

  /** The titles of these branches by id; ids of deleted branches are left out. */
  async titlesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const found = await this.branches.find({ _id: oneOf([...ids]) }, { title: 1 }).lean();
    return new Map(found.map((branch) => [branch._id, branch.title] as const));
  }

  /** Writes decide from the stored record, not from this instance's copy. */
  private async findRecord(id: string): Promise<BranchServiceRecord> {
    const record = await this.branches.findById(id).lean();
    if (!record) throw this.notFound(id);
    return record;
  }

  private notFound(id: string): NotFoundError {
    return new NotFoundError(`No branch of service with id ${id}`);
  }

  private duplicateTitle(error: unknown, title: string): unknown {
    return isDuplicateKeyError(error)
      ? new ConflictError(`A branch of service titled "${title}" already exists`)
      : error;
  }
}
