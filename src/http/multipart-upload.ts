import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";
import type { Response } from "express";
import { fileTooLarge } from "../errors/byte-size";
import {
  AppError,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors/app-errors";
import type { FileReceiver, ReadUpload } from "../modules/files/upload-rules";

/** Multipart framing and the purpose field may add this much to the file before we stop reading. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * Reads a multipart upload (POST /files, the site's PUT to an upload link), handing its one
 * `file` part to `receive` as it arrives, with the `purpose` field when it came first. Resolves
 * once the body is read (or abandoned), and the file stored or refused; never rejects.
 */
export function readMultipartUpload(
  req: IncomingMessage,
  receive: FileReceiver,
  maxBytes: number,
): Promise<ReadUpload> {
  if (!/^multipart\/form-data\s*(;|$)/i.test(req.headers["content-type"] ?? "")) {
    return Promise.resolve({
      failure: new UnsupportedMediaTypeError(
        "Send multipart/form-data with one part `file` (and, on POST /files, a field `purpose`)",
      ),
    });
  }
  return new Promise((resolve) => {
    const form: ReadUpload = {};
    const fail = (error: AppError) => {
      form.failure ??= error;
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes + 1, fields: 4, fieldSize: 1024, parts: 6 },
      });
    } catch {
      return resolve({ failure: new BadRequestError("The multipart body has no boundary") });
    }
    let storing: Promise<void> = Promise.resolve();
    let current: Readable | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // A file part the parser will not finish: fail it, so its bytes are removed.
      if (form.failure && current && !current.readableEnded) {
        current.destroy(new Error("upload abandoned"));
      }
      void storing.then(() => resolve(form));
    };
    let read = 0;
    req.on("data", (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes + FORM_OVERHEAD_BYTES && !settled) {
        fail(new PayloadTooLargeError(fileTooLarge(maxBytes)));
        parser.destroy();
        finish();
      }
    });
    // A client that stops half-way: the parser never ends, so end it (the file part fails).
    req.on("close", () => {
      if (!req.complete && !settled) {
        fail(new BadRequestError("The upload was cut off"));
        parser.destroy(new Error("client aborted"));
        finish();
      }
    });
    parser.on("field", (name, value) => {
      if (name !== "purpose") return;
      if (form.purpose !== undefined) fail(ValidationError.field("purpose", "Send purpose once"));
      form.purpose = value;
    });
    parser.on("file", (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== "file") {
        stream.resume();
        return fail(ValidationError.field(name, "The only file part is `file`"));
      }
      current = stream;
      storing = receive(stream, info.filename, form.purpose).then(
        (received) => {
          form.received = received;
        },
        (error: unknown) => {
          if (error instanceof AppError) fail(error);
          else form.unexpected = error instanceof Error ? error : new Error(String(error));
        },
      );
    });
    parser.on("filesLimit", () => fail(ValidationError.field("file", "Send one file per upload")));
    parser.on("partsLimit", () => fail(new BadRequestError("The form has too many parts")));
    parser.on("fieldsLimit", () => fail(new BadRequestError("The form has too many fields")));
    parser.on("error", () => {
      fail(new BadRequestError("The multipart body is malformed or incomplete"));
      finish();
    });
    parser.on("close", finish);
    req.pipe(parser);
  });
}

/** The rest of an over-long body is not read: close the connection after answering. */
export async function closingOnTooLarge<T>(res: Response, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PayloadTooLargeError) res.setHeader("connection", "close");
    throw error;
  }
}
