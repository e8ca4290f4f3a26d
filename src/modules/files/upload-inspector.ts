import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import {
  AppError,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../../errors/app-errors";
import { SNIFF_BYTES, sniffType } from "./file-bytes";
import { fileTooLarge } from "../../errors/byte-size";

/**
 * Sits between the upload and the storage: counts the bytes (failing past the limit, so the
 * service never holds more than one chunk), hashes them, and decides the type from the first
 * bytes before any of them is passed on, announcing it as the `type` event. `failure` names
 * why it stopped, if it did.
 */
export class UploadInspector extends Transform {
  size = 0;
  mimeType: string | null = null;
  failure: AppError | null = null;
  private readonly hash = createHash("sha256");
  private head: Buffer[] = [];
  private headLength = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly allowed: readonly string[],
  ) {
    super();
  }

  get sha256(): string {
    return this.hash.copy().digest("hex");
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      return done(this.fail(new PayloadTooLargeError(fileTooLarge(this.maxBytes))));
    }
    this.hash.update(chunk);
    if (this.mimeType !== null) return done(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return done();
    done(this.decide());
  }

  override _flush(done: TransformCallback): void {
    if (this.size === 0) return done(this.fail(new BadRequestError("The file is empty")));
    if (this.mimeType === null) return done(this.decide());
    done();
  }

  private decide(): Error | null {
    const head = Buffer.concat(this.head);
    this.head = [];
    const type = sniffType(head);
    if (type === null || !this.allowed.includes(type)) {
      return this.fail(
        new UnsupportedMediaTypeError(
          `Only ${this.allowed.map(label).join(", ")} files are accepted (judged by their content)`,
        ),
      );
    }
    this.mimeType = type;
    this.emit("type", type);
    this.push(head);
    return null;
  }

  private fail(error: AppError): AppError {
    this.failure = error;
    return error;
  }
}

const label = (type: string) => type.split("/")[1].toUpperCase();
