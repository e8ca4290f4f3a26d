import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type Request, type Response } from "express";
import { assertAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import { entryFor } from "../modules/audit/audit-log.service";
import type { FileRecord } from "../modules/files/file.model";
import { ownerOf } from "../modules/files/upload-rules";
import { StoredFile } from "../modules/files/file.type";
import type { FileHandlerName } from "./file-route";
import { FILE_ROUTES } from "./file-route-table";
import { jsonBody } from "./json-body";
import { closingOnTooLarge, readMultipartUpload } from "./multipart-upload";
import { siteUploadHandlers, type FileHandler } from "./site-upload-handlers";

/**
 * The byte routes of stored files, the only ones outside GraphQL (docs/architecture.md):
 * POST /files (multipart, streamed into storage), GET /files/{id} (owner or administrator by
 * Bearer, or a signed link), GET /files/public/{id}, and the site's upload protocol
 * (src/http/site-upload-handlers.ts). Authentication is the request context's, as for every
 * other route. Methods and paths are those of FILE_ROUTES, which the OpenAPI document is
 * written from too.
 */
export function addFileRoutes(
  router: express.Router,
  buildContext: (req: Request, res: Response) => Promise<RequestContext>,
  limits: { maxBytes: number; bodyLimitBytes: number },
): void {
  const handlers: Record<FileHandlerName, FileHandler> = {
    upload: async (req, res) => {
      const context = await buildContext(req, res);
      assertAccess(context, []);
      const view = await closingOnTooLarge(res, () =>
        context.services.files.upload(ownerOf(context.caller!), (receive) =>
          readMultipartUpload(req, receive, limits.maxBytes),
        ),
      );
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

    ...siteUploadHandlers(buildContext, limits),
  };

  const json = jsonBody(limits.bodyLimitBytes, true);
  for (const route of Object.values(FILE_ROUTES)) {
    const method = route.method.toLowerCase() as "get" | "post" | "head" | "put";
    const handler = handlers[route.handler];
    const takesJson =
      route.requestBody?.content !== undefined &&
      "application/json" in (route.requestBody.content as object);
    router[method](route.path, ...(takesJson ? json : []), (req, res) => handler(req, res, route));
  }
}

async function send(res: Response, file: FileRecord, body: Readable, cacheControl: string) {
  const image = file.mimeType.startsWith("image/");
  res.status(200);
  res.setHeader("content-type", file.mimeType);
  res.setHeader("content-length", String(file.size));
  res.setHeader("content-disposition", disposition(image ? "inline" : "attachment", file.fileName));
  res.setHeader("x-content-type-options", "nosniff");
  // Opened as a page, the bytes run nothing and reach nothing, whatever they hold.
  res.setHeader("content-security-policy", "default-src 'none'; sandbox");
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
