import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import express, { type Request, type Response } from "express";
import {
  AppError,
  BadRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors/app-errors";
import { assertAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import { entryFor } from "../modules/audit/audit-log.service";
import type { Caller } from "../modules/auth/caller";
import type { FilePurpose } from "../modules/files/file-refs";
import type { FileRecord } from "../modules/files/file.model";
import type { FileService, ReceivedFile } from "../modules/files/file.service";
import { StoredFile } from "../modules/files/file.type";
import { FILE_ROUTES, type FileRouteName } from "./file-route-table";

/** Multipart framing and the purpose field may add this much to the file before we stop reading. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * The byte routes of stored files (contract section 10), the only ones outside GraphQL:
 * POST /files (multipart, streamed into storage), GET /files/{id} (owner or administrator by
 * Bearer, or a signed link) and GET /files/public/{id}. Authentication is the request context's,
 * as for every other route. Methods and paths are those of FILE_ROUTES, which the OpenAPI
 * document is written from too.
 */
export function fileRoutes(
  buildContext: (req: Request, res: Response) => Promise<RequestContext>,
  maxBytes: number,
): express.Router {
  const handlers: Record<FileRouteName, (req: Request, res: Response) => Promise<void>> = {
    upload: async (req, res) => {
      const context = await buildContext(req, res);
      assertAccess(context, []);
      const caller = context.caller!;
      const files = context.services.files;
      await files.admitUpload(caller);
      await context.services.rateLimits.consumeUpload(caller.id);
      if (!req.is("multipart/form-data")) {
        throw new UnsupportedMediaTypeError(
          "Send multipart/form-data with one part `file` and a field `purpose`",
        );
      }
      const form = await readForm(req, files, caller, maxBytes);
      if (form.unexpected !== undefined) throw form.unexpected;
      if (form.failure) {
        if (form.received) await files.discard(form.received);
        // The rest of an over-long body is not read: close the connection after answering.
        if (form.failure instanceof PayloadTooLargeError) res.setHeader("connection", "close");
        throw form.failure;
      }
      if (!form.received) throw ValidationError.field("file", "A part named `file` is required");
      let purpose: FilePurpose;
      try {
        purpose = files.checkPurpose(caller, form.purpose);
      } catch (error) {
        await files.discard(form.received);
        throw error;
      }
      const view = await files.record(caller, form.received, purpose);
      if (purpose === "AVATAR") await context.services.users.useAvatarFile(caller, view.id);
      res.status(FILE_ROUTES.upload.success.status).json({
        code: "CREATED",
        message: "File stored",
        data: StoredFile.from(view),
      });
    },

    readPublic: async (req, res) => {
      const context = await buildContext(req, res);
      const read = await context.services.files.readPublic(String(req.params.id));
      await send(res, read.file, read.body, "public, max-age=86400");
    },

    read: async (req, res) => {
      const context = await buildContext(req, res);
      const { expires, signature, reader } = req.query;
      const read = await context.services.files.readPrivate(String(req.params.id), {
        caller: context.caller,
        link: { expires, signature, reader },
      });
      if (read.adminRead) {
        // By Bearer the caller; by a link, the administrator it was rendered for.
        const { requestId, clientRequestId } = context;
        await context.services.audit.record(
          entryFor(
            { caller: read.adminRead, requestId, clientRequestId },
            { action: "file.read", targetType: "file", targetId: read.file._id },
          ),
        );
      }
      await send(res, read.file, read.body, "private, no-store");
    },
  };

  const router = express.Router();
  for (const [name, route] of Object.entries(FILE_ROUTES)) {
    const method = route.method.toLowerCase() as "get" | "post";
    router[method](route.path, handlers[name as FileRouteName]);
  }
  return router;
}

interface Form {
  purpose?: string;
  received?: ReceivedFile;
  failure?: AppError;
  /** A fault of ours (the storage failed): a 500, logged. */
  unexpected?: Error;
}

/**
 * Reads the multipart body, streaming its one `file` part into storage as it arrives. Resolves
 * once the body is read (or abandoned), and the file stored or refused; never rejects.
 */
function readForm(
  req: IncomingMessage,
  files: FileService,
  caller: Caller,
  maxBytes: number,
): Promise<Form> {
  return new Promise((resolve) => {
    const form: Form = {};
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
        fail(new PayloadTooLargeError("The request body is too large"));
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
      let known: FilePurpose | undefined;
      if (form.purpose !== undefined) {
        try {
          known = files.checkPurpose(caller, form.purpose);
        } catch (error) {
          fail(error as AppError);
          stream.resume();
          return;
        }
      }
      current = stream;
      storing = files.receive(stream, info.filename, known).then(
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

async function send(res: Response, file: FileRecord, body: Readable, cacheControl: string) {
  const image = file.mimeType.startsWith("image/");
  res.status(200);
  res.setHeader("content-type", file.mimeType);
  res.setHeader("content-length", String(file.size));
  res.setHeader("content-disposition", disposition(image ? "inline" : "attachment", file.fileName));
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("cache-control", cacheControl);
  // The web client shows these from its own origin (an <img> of a signed link).
  res.setHeader("cross-origin-resource-policy", "cross-origin");
  try {
    await pipeline(body, res);
  } catch {
    // The client left, or the storage failed after the status line: cut the answer short.
    res.destroy();
  }
}

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function disposition(kind: string, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
