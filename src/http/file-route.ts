import type { ErrorCode } from "../errors/app-errors";
import type { Json } from "./openapi/openapi-parts";

/** The handlers of the byte routes (src/http/file-routes.ts, src/http/site-upload-handlers.ts). */
export type FileHandlerName =
  "upload" | "readPublic" | "read" | "presign" | "ingestHead" | "ingest";

/**
 * One byte route, declared once: src/http/file-routes.ts mounts its method and path with the
 * handler it names, and describeFileRoutes writes it into the OpenAPI document (Sofa describes
 * GraphQL operations only), so a route cannot be served without being documented, nor
 * documented under another path.
 */
export interface FileRoute {
  method: "GET" | "POST" | "HEAD" | "PUT";
  /** Under /api/v1, in express's notation. */
  path: string;
  handler: FileHandlerName;
  /** The site's uploader its presign route serves (a key of SITE_UPLOADERS). */
  uploader?: string;
  operationId: string;
  summary: string;
  description: string;
  /** Bearer required, a Bearer or a signed link, a signed link only, or nothing. */
  access: "bearer" | "bearer-or-link" | "link" | "public";
  parameters: Json[];
  requestBody?: Json;
  success: { status: number; description: string; headers: Json; content: Json };
  errors: number[];
  /** Codes errorResponses lists only for the routes naming them. */
  errorCodes?: ErrorCode[];
  /** What a status means on this route, where the JSON routes' reason does not apply. */
  reasons?: Record<number, string>;
}

export const text = (description: string) => ({ description, schema: { type: "string" } });

/** A UUID path parameter. */
export const uuidInPath = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string", format: "uuid" },
});

/** The types a stored file may have: the upload inspector decides them from the bytes. */
export const FILE_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp"];

/** Query parameters of a signed link, each described; none required by the document. */
export const linkParameters = (entries: [string, string, Json][]): Json[] =>
  entries.map(([name, description, schema]) => ({
    name,
    in: "query",
    required: false,
    description,
    schema,
  }));

/** What 413 and 415 mean on an upload (the JSON routes' reasons do not apply). */
export const UPLOAD_REASONS: Record<number, string> = {
  413: "The file is larger than FILE_MAX_BYTES, or the image has more pixels than the service takes",
  415: "Not multipart/form-data, or a file whose bytes are none of the accepted types",
};
