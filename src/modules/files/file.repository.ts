import { oneOf, lessThan } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import type { FilePurpose } from "./file-refs";
import type { FileModel, FileRecord } from "./file.model";

/** Every database call on file records. */
export class FileRepository {
  constructor(private readonly files: FileModel) {}

  findById(id: string): Promise<FileRecord | null> {
    return this.files.findById(id).lean<FileRecord>().exec();
  }

  withIds(ids: readonly string[]): Promise<FileRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.files
      .find({ _id: oneOf([...new Set(ids)]) })
      .lean<FileRecord[]>()
      .exec();
  }

  /** The owner's files, newest first. */
  pageOf(ownerId: string, window: PageWindow): Promise<FoundPage<FileRecord>> {
    return findPage(this.files, { ownerId }, { createdAt: -1, _id: -1 }, window);
  }

  /** Every file of the owner (erasure and the subject-access export), newest first. */
  allOf(ownerId: string): Promise<FileRecord[]> {
    return this.files
      .find({ ownerId })
      .sort({ createdAt: -1, _id: -1 })
      .lean<FileRecord[]>()
      .exec();
  }

  countOf(ownerId: string): Promise<number> {
    return this.files.countDocuments({ ownerId }).exec();
  }

  async insert(record: Omit<FileRecord, "createdAt" | "updatedAt">): Promise<FileRecord> {
    return (await this.files.create(record)).toObject();
  }

  /**
   * Marks the file named by a record, if it is `ownerId`'s with one of `purposes`: one
   * conditional update, so a file of someone else is never claimed. Answers whether it matched.
   */
  async claim(id: string, ownerId: string, purposes: readonly FilePurpose[]): Promise<boolean> {
    const result = await this.files
      .updateOne(
        { _id: id, ownerId, purpose: oneOf([...purposes]) },
        { $set: { unnamedSince: null } },
      )
      .exec();
    if (result.matchedCount !== 1) return false;
    await this.files
      .updateOne({ _id: id, attachedAt: null }, { $set: { attachedAt: new Date() } })
      .exec();
    return true;
  }

  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.files
      .updateMany({ _id: oneOf([...ids]) }, { $set: { unnamedSince: new Date() } })
      .exec();
  }

  /** Up to `limit` files nobody has named since before `cutoff`. */
  unnamedBefore(cutoff: Date, limit: number): Promise<FileRecord[]> {
    return this.files
      .find({ unnamedSince: lessThan(cutoff) })
      .sort({ unnamedSince: 1 })
      .limit(limit)
      .lean<FileRecord[]>()
      .exec();
  }

  /** Deletes the record only if it is still unnamed since before `cutoff` (a claim may have come in between). */
  async deleteIfUnnamedBefore(id: string, cutoff: Date): Promise<boolean> {
    const result = await this.files.deleteOne({ _id: id, unnamedSince: lessThan(cutoff) }).exec();
    return result.deletedCount === 1;
  }

  async delete(id: string): Promise<void> {
    await this.files.deleteOne({ _id: id }).exec();
  }
}
