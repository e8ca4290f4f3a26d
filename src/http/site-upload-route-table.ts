import { SITE_UPLOADERS, type SiteUploaderSlug } from "../modules/files/site-upload-slugs";
import { SHARED_ERRORS } from "./openapi/openapi";
import { UPLOAD_REASONS, linkParameters, text, uuidInPath, type FileRoute } from "./file-route";

/**
 * The organisation's site uploads with the `uploadthing` v7 client (docs/web-client.md, "Uploads"):
 * a presign POST at each uploader's URL, then HEAD and PUT on the one-time link it answers.
 * Declared beside the files' own byte routes (FILE_ROUTES), mounted and documented with them.
 */
const PRESIGNED = {
  type: "object",
  required: ["url", "key", "customId", "name"],
  properties: {
    url: { type: "string", description: "The one-time upload link: HEAD, then PUT the file" },
    key: { type: "string", description: "The link's id" },
    customId: { type: "string", nullable: true, description: "Always null" },
    name: { type: "string", description: "The file's name as declared" },
  },
};

const DECLARED_FILES = {
  type: "object",
  required: ["files"],
  properties: {
    input: { description: "Ignored" },
    files: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "size", "type"],
        properties: {
          name: { type: "string", example: "photo-2x2.jpg" },
          size: { type: "integer", example: 120400 },
          type: { type: "string", example: "image/jpeg" },
          lastModified: { type: "integer", description: "Ignored" },
        },
      },
    },
  },
};

const EXAMPLE_NAMES: Record<string, string> = {
  "application/pdf": "nbi-clearance.pdf",
  "image/jpeg": "photo-2x2.jpg",
};

function presignRoute(path: string, slug: SiteUploaderSlug, what: string): FileRoute {
  const uploader = SITE_UPLOADERS[slug];
  const count = uploader.maxFiles === 1 ? "one file" : `up to ${uploader.maxFiles} files`;
  return {
    method: "POST",
    path,
    handler: "presign",
    uploader: slug,
    operationId: `presign${slug[0].toUpperCase()}${slug.slice(1)}`,
    summary: `Upload links for ${what} (the site's ${slug})`,
    description:
      `A verified account: ${count} (${uploader.types.join(", ")}) stored as ` +
      `${uploader.purpose}. Answers one link per declared file, signed and used once, living ` +
      "FILE_LINK_TTL_SECONDS: HEAD it, then PUT the file to it (PUT /files/ingest/{ticket}). " +
      "An unknown slug is 404; too many files, an empty or mistyped one 400; one over " +
      "FILE_MAX_BYTES 413; no room left in the account's FILE_MAX_PER_USER 409, each with its " +
      "`message` (what the client shows)." +
      (uploader.purpose === "AVATAR" ? " The uploaded image becomes the account's avatar." : "") +
      " Not a GraphQL operation.",
    access: "bearer",
    parameters: [
      {
        name: "actionType",
        in: "query",
        required: true,
        schema: { type: "string", enum: ["upload"] },
      },
      { name: "slug", in: "query", required: true, schema: { type: "string", enum: [slug] } },
    ],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: DECLARED_FILES,
          example: {
            input: null,
            files: [
              { name: EXAMPLE_NAMES[uploader.types[0]], size: 120400, type: uploader.types[0] },
            ],
          },
        },
      },
    },
    success: {
      status: 200,
      description: "One upload link per declared file, in order",
      headers: {},
      content: { "application/json": { schema: { type: "array", items: PRESIGNED } } },
    },
    errors: [...SHARED_ERRORS, 401, 403, 404, 409, 413, 415],
    errorCodes: ["EMAIL_NOT_VERIFIED"],
  };
}

const INGEST_LINK = [
  uuidInPath("ticket", "The link's id (`key` of the presign answer)"),
  ...linkParameters([
    ["expires", "The link's expiry, in seconds since the epoch", { type: "integer" }],
    ["signature", "The link's HMAC", { type: "string" }],
  ]),
];

export const SITE_UPLOAD_ROUTES: Record<string, FileRoute> = {
  presignRequirement: presignRoute(
    "/members/requirements/upload",
    "requirementUploader",
    "a member document (requirement, payment proof, promissory note)",
  ),
  presignCertificate: presignRoute(
    "/members/certificates/upload",
    "memberCertificateUploader",
    "a certificate",
  ),
  presignPublicRecord: presignRoute(
    "/members/public-records/upload",
    "memberPublicRecordAttachmentUploader",
    "public record pictures",
  ),
  presignAvatar: presignRoute("/users/avatar/upload", "avatarUploader", "the account's avatar"),
  ingestHead: {
    method: "HEAD",
    path: "/files/ingest/:ticket",
    handler: "ingestHead",
    operationId: "uploadLinkState",
    summary: "How much of the file an upload link holds (always 0: files are taken whole)",
    description:
      "Anyone holding the link. 200 with `x-ut-range-start: 0` while it is unused; a used, " +
      "altered or expired link 403/404. Not a GraphQL operation.",
    access: "link",
    parameters: INGEST_LINK,
    success: {
      status: 200,
      description: "The link is unused",
      headers: { "x-ut-range-start": { ...text("Bytes already held: 0"), example: "0" } },
      content: {},
    },
    errors: [...SHARED_ERRORS, 403, 404],
  },
  ingest: {
    method: "PUT",
    path: "/files/ingest/:ticket",
    handler: "ingest",
    operationId: "uploadByLink",
    summary: "Upload the file to its one-time link (multipart, streamed into storage)",
    description:
      "Anyone holding the link (no Bearer needed; a Bearer of another account is 403). One part " +
      "`file`; `Range`, when sent, must start at 0. The same checks as POST /files (type by " +
      "bytes, FILE_MAX_BYTES, images cleaned of metadata, the quota), for the uploader's " +
      "purpose and types. The link works once: a second PUT is 409, an altered or expired " +
      "one 403. A refusal carries its message as `error` too (what the site's client reads) " +
      "and leaves nothing stored. Not a GraphQL operation.",
    access: "link",
    parameters: INGEST_LINK,
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file"],
            properties: { file: { type: "string", format: "binary" } },
          },
          example: { file: "(the file's bytes)" },
        },
      },
    },
    success: {
      status: 200,
      description: "Stored: the file's links (all the same signed `fileUrl`) and its record's id",
      headers: {},
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["url", "appUrl", "ufsUrl", "fileHash", "serverData"],
            properties: {
              url: { type: "string" },
              appUrl: { type: "string" },
              ufsUrl: { type: "string" },
              fileHash: { type: "string", description: "SHA-256 of the stored bytes, hex" },
              serverData: {
                type: "object",
                required: ["fileId", "fileUrl"],
                properties: { fileId: { type: "string" }, fileUrl: { type: "string" } },
              },
              avatarUrl: { type: "string", description: "avatarUploader only" },
            },
          },
        },
      },
    },
    errors: [...SHARED_ERRORS, 403, 409, 413, 415],
    reasons: { ...UPLOAD_REASONS, 403: "An altered or expired link, or another account's" },
  },
};
