import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import { containsText, type PageArgs } from "../../graphql/paging";
import { isDuplicateKeyError } from "../../db/errors";
import { newSections, replaceSections } from "../sections/section.replace";
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
    private readonly isBranchInUse: BranchUsageCheck,
  ) {}

  async list(args: PageArgs): Promise<Omit<Page<BranchService>, "code" | "message">> {
    const search = args.search?.trim();
    const filter = search
      ? {
          $or: [{ title: containsText(search) }, { description: containsText(search) }],
        }
      : {};
    const [records, total] = await Promise.all([
      this.branches
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip((args.page - 1) * args.limit)
        .limit(args.limit)
        .lean(),
      this.branches.countDocuments(filter),
    ]);
    return {
      data: records.map((record) => BranchService.from(record)),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }

  async get(id: string): Promise<BranchService> {
    return BranchService.from(await this.findRecord(id));
  }

  async create(_caller: Caller, args: CreateBranchServiceArgs): Promise<BranchService> {
    const title = args.title.trim();
    try {
      const record = await this.branches.create({
        title,
        titleKey: title.toLowerCase(),
        description: args.description.trim(),
        sections: newSections(args.sections ?? [], SECTION_RULES),
      });
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
      const updated = await this.branches
        .findByIdAndUpdate(
          args.id,
          { $set: changes },
          { returnDocument: "after", runValidators: true },
        )
        .lean();
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
    await this.branches.deleteOne({ _id: id });
  }

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
