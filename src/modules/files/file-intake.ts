import { createHash } from "node:crypto";
import { once } from "node:events";
import { Readable } from "node:stream";
import { uuidv7 } from "../../db/uuid";
import { AppError, BadRequestError } from "../../errors/app-errors";
import type { ObjectStorage } from "../../storage/object-storage";
import { IMAGE_TYPES, safeFileName } from "./file-bytes";
import { cleanImage } from "./image-cleaning";
import { UploadInspector } from "./upload-inspector";

/** Bytes kept in storage, not yet recorded: recorded or discarded by the caller. */
export interface ReceivedFile {
  key: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** Set for images: stored re-encoded, without their metadata. */
  cleanedAt: Date | null;
}

/**
 * Takes a file's bytes into storage, checking them on the way: its size, its type decided by
 * its first bytes, emptiness. A PDF streams straight through to storage; an image is held
 * (FILE_MAX_BYTES at most) and re-encoded without its metadata first, so what a photo says of
 * where it was taken is never stored. On any failure nothing is left in storage.
 */
export class FileIntake {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly maxBytes: number,
  ) {}

  /**
   * The file in `body`, if its bytes are one of `allowed`; else the reason is thrown: the
   * inspector's (413, 415, 400), the image's (413, 415), a broken body's (400), or the
   * storage's own.
   */
  async receive(
    body: Readable,
    clientName: string | undefined,
    allowed: readonly string[],
  ): Promise<ReceivedFile> {
    const key = uuidv7();
    const inspector = new UploadInspector(this.maxBytes, allowed);
    let broken: Error | null = null;
    body.on("error", (error: Error) => {
      broken = error;
      inspector.destroy(error);
    });
    // Once refused, the rest of the upload is read and dropped, so the request can still end.
    inspector.on("error", () => {
      body.unpipe(inspector);
      body.resume();
    });
    body.pipe(inspector);
    let stored: { size: number; sha256: string; cleanedAt: Date | null };
    try {
      const [type] = (await once(inspector, "type")) as [string];
      stored = IMAGE_TYPES.includes(type)
        ? await this.storeImage(key, type, inspector)
        : await this.storeAsIs(key, inspector);
    } catch (error) {
      await this.storage.delete(key);
      if (inspector.failure) throw inspector.failure;
      if (error instanceof AppError && !broken) throw error;
      if (broken || error instanceof AppError) {
        throw new BadRequestError("The upload ended before the file was complete");
      }
      throw error;
    }
    return {
      key,
      fileName: safeFileName(clientName, inspector.mimeType!),
      mimeType: inspector.mimeType!,
      ...stored,
    };
  }

  async discard(received: Pick<ReceivedFile, "key">): Promise<void> {
    await this.storage.delete(received.key);
  }

  private async storeAsIs(key: string, inspector: UploadInspector) {
    await this.storage.put(key, inspector);
    return { size: inspector.size, sha256: inspector.sha256, cleanedAt: null };
  }

  private async storeImage(key: string, type: string, inspector: UploadInspector) {
    const chunks: Buffer[] = [];
    for await (const chunk of inspector) chunks.push(chunk as Buffer);
    const clean = await cleanImage(Buffer.concat(chunks), type);
    await this.storage.put(key, Readable.from([clean]));
    return {
      size: clean.length,
      sha256: createHash("sha256").update(clean).digest("hex"),
      cleanedAt: new Date(),
    };
  }
}
