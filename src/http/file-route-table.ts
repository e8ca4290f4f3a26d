import { fileTooLarge } from "../errors/byte-size";
import { errorResponses, type Json } from "./openapi/openapi-parts";
import { SHARED_ERRORS } from "./openapi/openapi";
import { UPLOAD_PURPOSES } from "../modules/files/upload-rules";
import {
  FILE_TYPES,
  UPLOAD_REASONS,
  linkParameters,
  text,
  uuidInPath,
  type FileRoute,
} from "./file-route";
import { SITE_UPLOAD_ROUTES } from "./site-upload-route-table";

const FILE_ID = uuidInPath("id", "The file's id (its record's `id`)");
const binary = (types: string[]) =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: "string", format: "binary" } }]));
const BYTES_HEADERS = {
  "Content-Type": text("The type decided from the bytes at upload"),
  "Content-Length": { description: "The file's size", schema: { type: "integer" } },
  "Content-Disposition": text(
    "`inline` for images, `attachment` for PDFs, with the stored name (RFC 6266 `filename*`)",
  ),
  "X-Content-Type-Options": text("Always `nosniff`"),
  "Content-Security-Policy": text("`default-src 'none'; sandbox`: the bytes never run as a page"),
  "Cross-Origin-Resource-Policy": text("`cross-origin`: the web client shows these from its own"),
};

const FILE_BYTE_ROUTES = {
  upload: {
    method: "POST",
    handler: "upload",
    path: "/files",
    operationId: "uploadFile",
    summary: "Upload one file (multipart), streamed into storage",
    description:
      "Any signed-in caller with a verified email. One part `file` and a field `purpose`, in " +
      "either order. The type is decided from the bytes (PDF, JPEG, PNG, WebP; AVATAR, " +
      "PUBLIC_RECORD, EVENT_IMAGE and NEWS_MEDIA images only), never from the declared name or " +
      "type; the size limit (FILE_MAX_BYTES) is enforced while reading; an image is stored " +
      "re-encoded without its metadata (Exif, GPS, XMP, text chunks), so `size` and `sha256` " +
      "are those of the stored bytes; a refused upload leaves nothing stored. " +
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
    reasons: UPLOAD_REASONS,
  },
  // Before `/files/:id` for a reader's sake; the paths cannot both match one request.
  readPublic: {
    method: "GET",
    handler: "readPublic",
    path: "/files/public/:id",
    operationId: "readPublicFile",
    summary: "A public file's bytes (event and news images, consented photos)",
    description:
      "Anyone. An event's image while a PUBLIC event shows it, news media while a post that " +
      "is out (PUBLISHED, its publishedAt come) shows them, a listed member's current avatar " +
      "and the approved photo a member chose to show, while that holds; any other id is the " +
      "same 404. Not a GraphQL operation.",
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
    handler: "read",
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
      ...linkParameters([
        ["expires", "The link's expiry, in seconds since the epoch", { type: "integer" }],
        [
          "reader",
          "The administrator the link was rendered for, when it names one",
          { type: "string" },
        ],
        ["signature", "The link's HMAC", { type: "string" }],
      ]),
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

/** Every byte route: the files' own and the organisation's site's upload protocol. */
export const FILE_ROUTES: Record<string, FileRoute> = {
  ...FILE_BYTE_ROUTES,
  ...SITE_UPLOAD_ROUTES,
};

/**
 * Adds the byte routes to the OpenAPI document (called where the document is made); an upload's
 * 413 example names the file limit the service enforces (FILE_MAX_BYTES).
 */
export function describeFileRoutes(openApi: Json, fileMaxBytes: number): void {
  const paths = openApi.paths as Record<string, Record<string, Json>>;
  const schemas = (openApi.components as { schemas: Record<string, Json> }).schemas;
  if (!schemas.StoredFile) throw new Error("The OpenAPI document lacks the StoredFile schema");
  for (const route of Object.values(FILE_ROUTES)) {
    const path = route.path.replace(/:(\w+)/g, "{$1}");
    const errors = errorResponses(
      route.access === "bearer" ? route.errors : route.errors.filter((code) => code !== 401),
      route.errorCodes,
    );
    for (const [status, reason] of Object.entries(route.reasons ?? {})) {
      if (errors[status]) errors[status].description = reason;
    }
    const tooLarge = route.reasons?.[413] && exampleOfCode(errors[413], "PAYLOAD_TOO_LARGE");
    if (tooLarge) tooLarge.message = fileTooLarge(fileMaxBytes);
    const security = {
      bearer: [{ bearerAuth: [] }],
      "bearer-or-link": [{}, { bearerAuth: [] }],
      link: [],
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

/** The example value of `code` under an error response, if it lists one. */
function exampleOfCode(response: Json | undefined, code: string): Json | undefined {
  const content = response?.content as
    Record<string, { examples?: Record<string, { value: Json }> }> | undefined;
  return content?.["application/json"]?.examples?.[code]?.value;
}
