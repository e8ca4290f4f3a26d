import type { ErrorCode } from "../errors/app-errors";
import { errorResponses, type Json } from "./openapi/openapi-parts";
import { SHARED_ERRORS } from "./openapi/openapi";
import { UPLOAD_PURPOSES } from "../modules/files/file.service";

/**
 * The byte routes of stored files, declared once: src/http/file-routes.ts mounts each entry's
 * method and path with the handler of its name, and describeFileRoutes writes the same entries
 * into the OpenAPI document (Sofa describes GraphQL operations only), so a route cannot be
 * served without being documented, nor documented under another path.
 */
export interface FileRoute {
  method: "GET" | "POST";
  /** Under /api/v1, in express's notation. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Bearer required, a Bearer or a signed link, or nothing. */
  access: "bearer" | "bearer-or-link" | "public";
  parameters: Json[];
  requestBody?: Json;
  success: { status: number; description: string; headers: Json; content: Json };
  errors: number[];
  /** Codes errorResponses lists only for the routes naming them. */
  errorCodes?: ErrorCode[];
}

const text = (description: string) => ({ description, schema: { type: "string" } });
const FILE_ID = {
  name: "id",
  in: "path",
  required: true,
  description: "The file's id (its record's `id`)",
  schema: { type: "string", format: "uuid" },
};
/** The types a stored file may have: the upload inspector decides them from the bytes. */
const FILE_TYPES = ["application/pdf", "image/jpeg", "image/png", "image/webp"];
const binary = (types: string[]) =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: "string", format: "binary" } }]));
const BYTES_HEADERS = {
  "Content-Type": text("The type decided from the bytes at upload"),
  "Content-Length": { description: "The file's size", schema: { type: "integer" } },
  "Content-Disposition": text(
    "`inline` for images, `attachment` for PDFs, with the stored name (RFC 6266 `filename*`)",
  ),
  "X-Content-Type-Options": text("Always `nosniff`"),
  "Cross-Origin-Resource-Policy": text("`cross-origin`: the web client shows these from its own"),
};

export const FILE_ROUTES = {
  upload: {
    method: "POST",
    path: "/files",
    operationId: "uploadFile",
    summary: "Upload one file (multipart), streamed into storage",
    description:
      "Any signed-in caller with a verified email. One part `file` and a field `purpose`, in " +
      "either order. The type is decided from the bytes (PDF, JPEG, PNG, WebP; AVATAR, " +
      "EVENT_IMAGE and NEWS_MEDIA images only), never from the declared name or type; the size " +
      "limit (FILE_MAX_BYTES) is enforced while reading; a refused upload leaves nothing stored. " +
      "At most FILE_MAX_PER_USER files per account; rate limited per account. A file no record " +
      "names is deleted after FILE_ORPHAN_HOURS. Not a GraphQL operation.",
    access: "bearer",
    parameters: [],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file", "purpose"],
            properties: {
              file: { type: "string", format: "binary", description: "The file; one part only" },
              purpose: {
                type: "string",
                enum: [...UPLOAD_PURPOSES],
                description: "EVENT_IMAGE and NEWS_MEDIA: administrators only",
              },
            },
          },
          encoding: { file: { contentType: FILE_TYPES.join(", ") } },
          example: { purpose: "REQUIREMENT", file: "(the file's bytes)" },
        },
      },
    },
    success: {
      status: 201,
      description: "Stored: the file's record, with a freshly signed `fileUrl`",
      headers: {},
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["code", "message", "data"],
            properties: {
              code: { type: "string", example: "CREATED" },
              message: { type: "string", example: "File stored" },
              data: { $ref: "#/components/schemas/StoredFile" },
            },
          },
        },
      },
    },
    errors: [...SHARED_ERRORS, 401, 403, 409, 413, 415],
    errorCodes: ["EMAIL_NOT_VERIFIED"],
  },
  // Before `/files/:id` for a reader's sake; the paths cannot both match one request.
  readPublic: {
    method: "GET",
    path: "/files/public/:id",
    operationId: "readPublicFile",
    summary: "A public file's bytes (event and news images, consented photos)",
    description:
      "Anyone. Event and news images, and the avatars and approved photos a member's consent " +
      "opens, while it holds; any other id is 404. Not a GraphQL operation.",
    access: "public",
    parameters: [FILE_ID],
    success: {
      status: 200,
      description: "The file's bytes",
      headers: { ...BYTES_HEADERS, "Cache-Control": text("`public, max-age=86400`") },
      content: binary(FILE_TYPES),
    },
    errors: [...SHARED_ERRORS, 404],
  },
  read: {
    method: "GET",
    path: "/files/:id",
    operationId: "readFile",
    summary: "A private file's bytes, by Bearer or by its signed link",
    description:
      "Its owner or an administrator by Bearer, or anyone holding an unaltered, unexpired " +
      "`fileUrl` (signed for FILE_LINK_TTL_SECONDS). Every other case, an altered or expired " +
      "link and a malformed id included, is the same 404. An administrator's read of another " +
      "person's file is audited (`file.read`), by Bearer or by a link rendered for them. Not " +
      "a GraphQL operation.",
    access: "bearer-or-link",
    parameters: [
      FILE_ID,
      ...[
        ["expires", "The link's expiry, in seconds since the epoch", { type: "integer" }],
        [
          "reader",
          "The administrator the link was rendered for, when it names one",
          { type: "string" },
        ],
        ["signature", "The link's HMAC", { type: "string" }],
      ].map(([name, description, schema]) => ({
        name,
        in: "query",
        required: false,
        description,
        schema,
      })),
    ],
    success: {
      status: 200,
      description: "The file's bytes",
      headers: { ...BYTES_HEADERS, "Cache-Control": text("`private, no-store`") },
      content: binary(FILE_TYPES),
    },
    errors: [...SHARED_ERRORS, 404],
  },
} satisfies Record<string, FileRoute>;

export type FileRouteName = keyof typeof FILE_ROUTES;

/** What 413 and 415 mean on an upload (the JSON routes' reasons do not apply). */
const UPLOAD_REASONS: Record<number, string> = {
  413: "The file is larger than FILE_MAX_BYTES",
  415: "Not multipart/form-data, or a file whose bytes are none of the accepted types",
};

/** Adds the byte routes to the OpenAPI document (called where the document is made). */
export function describeFileRoutes(openApi: Json): void {
  const paths = openApi.paths as Record<string, Record<string, Json>>;
  const schemas = (openApi.components as { schemas: Record<string, Json> }).schemas;
  if (!schemas.StoredFile) throw new Error("The OpenAPI document lacks the StoredFile schema");
  for (const route of Object.values(FILE_ROUTES) as FileRoute[]) {
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const errors = errorResponses(
      route.access === "bearer" ? route.errors : route.errors.filter((code) => code !== 401),
      route.errorCodes,
    );
    for (const [status, reason] of Object.entries(UPLOAD_REASONS)) {
      if (route.requestBody && errors[status]) errors[status].description = reason;
    }
    const security = {
      bearer: [{ bearerAuth: [] }],
      "bearer-or-link": [{}, { bearerAuth: [] }],
      public: [],
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: ["Files"],
      security: security[route.access],
      parameters: structuredClone(route.parameters),
      ...(route.requestBody ? { requestBody: structuredClone(route.requestBody) } : {}),
      responses: {
        [route.success.status]: {
          description: route.success.description,
          headers: structuredClone(route.success.headers),
          content: structuredClone(route.success.content),
        },
        ...errors,
      },
    };
  }
}
