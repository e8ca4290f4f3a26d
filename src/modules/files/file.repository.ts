import { isDuplicateKeyError } from "../../db/errors";
import { oneOf, lessThan, notEqual } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import type { FilePurpose } from "./file-refs";
import type { FileModel, FileRecord } from "./file.model";

export type NewFile = Omit<FileRecord, "createdAt" | "updatedAt">;

const quotaKeyOf = (ownerId: string, place: number) => `${ownerId}:${place}`;

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

  /** The owner's uploads, which the quota counts (the service's own files are not). */
  countOf(ownerId: string): Promise<number> {
    return this.files.countDocuments({ ownerId, purpose: notEqual("GENERATED") }).exec();
  }

  async insert(record: NewFile): Promise<FileRecord> {
    return (await this.files.create(record)).toObject();
  }

  /**
   * Inserts an upload in the lowest free place of its owner's quota of `max`, or answers null
   * when none is free. The unique quotaKey decides races: the loser of a place looks again, so
   * however many arrive at once, no more than `max` uploads are ever kept. Uploads stored
   * before places were kept hold none and take one place each off the end.
   */
  async insertWithinQuota(record: NewFile, max: number): Promise<FileRecord | null> {
    for (;;) {
      const held = await this.files
        .find({ ownerId: record.ownerId }, { quotaKey: 1, purpose: 1 })
        .lean<Pick<FileRecord, "quotaKey" | "purpose">[]>()
        .exec();
      const taken = new Set(held.map((file) => file.quotaKey));
      const unplaced = held.filter((file) => !file.quotaKey && file.purpose !== "GENERATED");
      let place = 0;
      while (place < max - unplaced.length && taken.has(quotaKeyOf(record.ownerId, place))) {
        place += 1;
      }
      if (place >= max - unplaced.length) return null;
      try {
        return await this.insert({ ...record, quotaKey: quotaKeyOf(record.ownerId, place) });
      } catch (error) {
        // Another upload took this place first: each loss is a place taken, so this ends.
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }

  /**
   * Puts cleaned bytes in place of an image's, once: false when another instance did first
   * (its bytes, not these, are then the file's).
   */
  async replaceBytes(
    id: string,
    fromKey: string,
    bytes: Pick<FileRecord, "storageKey" | "size" | "sha256" | "cleanedAt">,
  ): Promise<boolean> {
    const { modifiedCount } = await this.files
      .updateOne({ _id: id, storageKey: fromKey, cleanedAt: null }, { $set: bytes })
      .exec();
    return modifiedCount === 1;
  }

  /** Images stored before metadata was stripped (the start-up migration). */
  uncleanedImages(types: readonly string[]): AsyncIterable<FileRecord> {
    return this.files
      .find({ mimeType: oneOf([...types]), cleanedAt: null })
      .lean<FileRecord[]>()
      .cursor({ batchSize: 100 });
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
