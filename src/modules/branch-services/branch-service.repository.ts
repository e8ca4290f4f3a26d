import type { Collection } from "mongodb";
import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { backfillSearchText, searchFilter } from "../../db/search-text";
import type { BranchServiceModel, BranchServiceRecord } from "./branch-service.model";

export type BranchChanges = Partial<
  Pick<BranchServiceRecord, "title" | "titleKey" | "description" | "searchText" | "sections">
>;

/** Every database call on branches of service. */
export class BranchServiceRepository {
  constructor(private readonly branches: BranchServiceModel) {}

  /** Newest first; `search` looks in the title and the description. */
  page(query: PageWindow & { search?: string | null }): Promise<FoundPage<BranchServiceRecord>> {
    return findPage(this.branches, searchFilter(query.search), { createdAt: -1, _id: -1 }, query);
  }

  findById(id: string): Promise<BranchServiceRecord | null> {
    return this.branches.findById(id).lean<BranchServiceRecord>().exec();
  }

  /** DUPLICATE when another branch has the same titleKey. */
  async insert(
    record: Omit<BranchServiceRecord, "createdAt" | "updatedAt">,
  ): Promise<BranchServiceRecord | Duplicate> {
    const created = await unlessDuplicate(this.branches.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
  }

  /** Null when no branch has this id; DUPLICATE when another has the new titleKey. */
  update(id: string, changes: BranchChanges): Promise<BranchServiceRecord | null | Duplicate> {
    return unlessDuplicate(
      this.branches
        .findByIdAndUpdate(id, { $set: changes }, { returnDocument: "after", runValidators: true })
        .lean<BranchServiceRecord>()
        .exec(),
    );
  }

  async delete(id: string): Promise<void> {
    await this.branches.deleteOne({ _id: id }).exec();
  }

  /** Id and title of each of these branches that exists. */
  withIds(ids: readonly string[]): Promise<Pick<BranchServiceRecord, "_id" | "title">[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.branches
      .find({ _id: oneOf([...new Set(ids)]) }, { title: 1 })
      .lean<Pick<BranchServiceRecord, "_id" | "title">[]>()
      .exec();
  }

  /** Id and title of the branches whose titleKey (the lower-cased title) is one of these. */
  withTitleKeys(keys: readonly string[]): Promise<Pick<BranchServiceRecord, "_id" | "title">[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.branches
      .find({ titleKey: oneOf([...new Set(keys)]) }, { title: 1 })
      .lean<Pick<BranchServiceRecord, "_id" | "title">[]>()
      .exec();
  }

  /** Branches written before searchText existed get it (a migration step). Returns how many. */
  backfillSearchText(): Promise<number> {
    return backfillSearchText(this.branches.collection as unknown as Collection<{ _id: string }>, [
      "title",
      "description",
    ]);
  }
}
