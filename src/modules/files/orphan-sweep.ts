import { every } from "../../background-tasks";
import type { Logger } from "../../logger";
import type { ObjectStorage } from "../../storage/object-storage";
import type { FileRepository } from "./file.repository";

const BATCH = 100;

/**
 * Deletes files no record has named for FILE_ORPHAN_HOURS (uploads never used, documents
 * replaced): the bytes first, then the record, so a crash between the two leaves a record
 * without bytes (read as no file, swept again) rather than bytes no record leads to, which
 * erasure could not find. Every instance may sweep; deleting twice is harmless.
 */
export async function sweepOrphans(
  files: FileRepository,
  storage: ObjectStorage,
  orphanHours: number,
  now = Date.now(),
): Promise<number> {
  const cutoff = new Date(now - orphanHours * 3600 * 1000);
  let deleted = 0;
  for (;;) {
    const batch = await files.unnamedBefore(cutoff, BATCH);
    for (const file of batch) {
      await storage.delete(file.storageKey);
      if (await files.deleteIfUnnamedBefore(file._id, cutoff)) deleted += 1;
    }
    if (batch.length < BATCH) return deleted;
  }
}

export function startOrphanSweep(run: () => Promise<number>, log: Logger, everyMs: number) {
  return every(everyMs, async () => {
    try {
      const count = await run();
      if (count > 0) log.info({ count }, "orphaned files deleted");
    } catch (error) {
      log.warn({ err: error }, "orphaned files not swept");
    }
  });
}
