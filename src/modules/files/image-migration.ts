import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { uuidv7 } from "../../db/uuid";
import { AppError } from "../../errors/app-errors";
import type { Logger } from "../../logger";
import { ObjectNotFoundError, type ObjectStorage } from "../../storage/object-storage";
import { IMAGE_TYPES } from "./file-bytes";
import type { FileRepository } from "./file.repository";
import { cleanImage } from "./image-cleaning";

/**
 * Start-up migration: images stored before uploads were cleaned get their metadata stripped as
 * new ones do (src/modules/files/image-cleaning.ts). The clean bytes go under a new key and the
 * record moves to them in one conditional update, so of two instances migrating at once one
 * wins and the other removes its copy; the old bytes go once the record no longer leads to them.
 * An image that cannot be decoded is left as it is and named in the log (its id only).
 */
export async function cleanStoredImages(
  files: FileRepository,
  storage: ObjectStorage,
  log: Logger,
): Promise<number> {
  let cleaned = 0;
  for await (const file of files.uncleanedImages(IMAGE_TYPES)) {
    let bytes: Buffer;
    try {
      bytes = await readAll(storage, file.storageKey);
    } catch (error) {
      // Bytes already gone (erased, swept): nothing to clean.
      if (error instanceof ObjectNotFoundError) continue;
      throw error;
    }
    let clean: Buffer;
    try {
      clean = await cleanImage(bytes, file.mimeType);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      log.warn({ fileId: file._id, reason: error.message }, "stored image left uncleaned");
      continue;
    }
    const key = uuidv7();
    await storage.put(key, Readable.from([clean]));
    const moved = await files.replaceBytes(file._id, file.storageKey, {
      storageKey: key,
      size: clean.length,
      sha256: createHash("sha256").update(clean).digest("hex"),
      cleanedAt: new Date(),
    });
    await storage.delete(moved ? file.storageKey : key);
    if (moved) cleaned += 1;
  }
  return cleaned;
}

async function readAll(storage: ObjectStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
