import { ConflictError, NotFoundError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import type { PageArgs } from "../../graphql/paging";
import { DUPLICATE } from "../../db/errors";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { newSections, replaceSections } from "../sections/section.replace";
import type { BranchServiceRecord } from "./branch-service.model";
import type { BranchChanges, BranchServiceRepository } from "./branch-service.repository";
import { BranchService } from "./branch-service.type";
import type { CreateBranchServiceArgs, UpdateBranchServiceArgs } from "./branch-service.input";

/** Tells whether member records still name a branch; the members module provides the real one. */
export type BranchUsageCheck = (branchId: string) => Promise<boolean>;

const SECTION_RULES = { titleRequired: false };

/** Branch-of-service records. Reading is public; the resolver gates writes to admins. */
export class BranchServiceService {
  constructor(
    private readonly branches: BranchServiceRepository,
    private readonly isBranchInUse: BranchUsageCheck,
  ) {}

  /** Newest first; `search` looks in the title and description. */
  async list(args: PageArgs): Promise<PageResult<BranchService>> {
    const { records, total } = await this.branches.page(args);
    return pageOf(
      args,
      records.map((record) => BranchService.from(record)),
      total,
    );
  }

  async get(id: string): Promise<BranchService> {
    return BranchService.from(await this.findRecord(id));
  }

  async create(args: CreateBranchServiceArgs): Promise<BranchService> {
    const title = args.title.trim();
    const description = args.description.trim();
    const record = await this.branches.insert({
      _id: uuidv7(),
      title,
      titleKey: title.toLowerCase(),
      description,
      searchText: searchableText(title, description),
      sections: newSections(args.sections ?? [], SECTION_RULES),
    });
    if (record === DUPLICATE) throw duplicateTitle(title);
    return BranchService.from(record);
  }

  async update(args: UpdateBranchServiceArgs): Promise<BranchService> {
    const current = await this.findRecord(args.id);
    const changes: BranchChanges = {};
    if (args.title !== undefined) {
      changes.title = args.title.trim();
      changes.titleKey = changes.title.toLowerCase();
    }
    if (args.description !== undefined) changes.description = args.description.trim();
    if (args.sections !== undefined) {
      changes.sections = replaceSections(current.sections, args.sections, SECTION_RULES);
    }
    if (changes.title !== undefined || changes.description !== undefined) {
      changes.searchText = searchableText(
        changes.title ?? current.title,
        changes.description ?? current.description,
      );
    }
    const updated = await this.branches.update(args.id, changes);
    if (updated === DUPLICATE) throw duplicateTitle(changes.title ?? current.title);
    if (!updated) throw this.notFound(args.id);
    return BranchService.from(updated);
  }

  async delete(id: string): Promise<void> {
    await this.findRecord(id);
    if (await this.isBranchInUse(id)) {
      throw new ConflictError(
        "Member records still name this branch of service; it cannot be deleted",
      );
    }
    await this.branches.delete(id);
  }

  /** Which of these ids name a branch of service (for applications that name branches). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    return new Set((await this.branches.withIds(ids)).map((branch) => branch._id));
  }

  /** The titles of these branches by id; ids of deleted branches are left out. */
  async titlesOf(ids: readonly string[]): Promise<Map<string, string>> {
    const found = await this.branches.withIds(ids);
    return new Map(found.map((branch) => [branch._id, branch.title] as const));
  }

  /** The branches whose title is one of these names, in any letter case (a member's page). */
  async byTitles(names: readonly string[]): Promise<{ id: string; title: string }[]> {
    const found = await this.branches.withTitleKeys(names.map((name) => name.trim().toLowerCase()));
    return found.map((branch) => ({ id: branch._id, title: branch.title }));
  }

  private async findRecord(id: string): Promise<BranchServiceRecord> {
    const record = await this.branches.findById(id);
    if (!record) throw this.notFound(id);
    return record;
  }

  private notFound(id: string): NotFoundError {
    return new NotFoundError(`No branch of service with id ${id}`);
  }
}

const duplicateTitle = (title: string) =>
  new ConflictError(`A branch of service titled "${title}" already exists`);
