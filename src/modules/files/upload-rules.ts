import type { Readable } from "node:stream";
import { ForbiddenError, ValidationError, type AppError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { Role } from "../users/role";
import { IMAGE_TYPES } from "./file-bytes";
import type { ReceivedFile } from "./file-intake";
import type { FilePurpose } from "./file-refs";

/** What a client may upload, and who. GENERATED files are the service's own. */
const MEMBER_PURPOSES: readonly FilePurpose[] = [
  "REQUIREMENT",
  "PAYMENT_PROOF",
  "PROMISSORY_NOTE",
  "AVATAR",
  "CERTIFICATE",
  "PUBLIC_RECORD",
];
const ADMIN_PURPOSES: readonly FilePurpose[] = ["EVENT_IMAGE", "NEWS_MEDIA"];
/** Every purpose an upload may name (the OpenAPI document lists these). */
export const UPLOAD_PURPOSES: readonly FilePurpose[] = [...MEMBER_PURPOSES, ...ADMIN_PURPOSES];
const IMAGE_PURPOSES: readonly FilePurpose[] = [
  "AVATAR",
  "PUBLIC_RECORD",
  "EVENT_IMAGE",
  "NEWS_MEDIA",
];
export const ALL_TYPES: readonly string[] = ["application/pdf", ...IMAGE_TYPES];

/** Whom an upload is for: the Bearer's account, or the account a site's upload link was issued to. */
export interface UploadOwner {
  id: string;
  role: Role;
  isEmailVerified: boolean;
}

export const ownerOf = (caller: Caller): UploadOwner => ({
  id: caller.id,
  role: caller.role,
  isEmailVerified: caller.user.isEmailVerified,
});

/**
 * Takes the file part of a request into storage; `purposeSoFar` is the purpose the request
 * named before its file, when it did (the bytes are then checked against it as they come).
 */
export type FileReceiver = (
  file: Readable,
  name: string | undefined,
  purposeSoFar: string | undefined,
) => Promise<ReceivedFile>;

/** What reading an upload request came to (the HTTP layer reads it: src/http/multipart-upload.ts). */
export interface ReadUpload {
  purpose?: string;
  received?: ReceivedFile;
  /** Why the request is refused (the client's fault). */
  failure?: AppError;
  /** A fault of ours (the storage failed): a 500, logged. */
  unexpected?: Error;
}

export interface UploadOptions {
  /** Fixed by the upload link (the site's uploaders): a `purpose` field is then ignored. */
  purpose?: FilePurpose;
  /** Types narrower than the purpose's (an uploader's). */
  types?: readonly string[];
}

/** The `purpose` field: 400 when missing or unknown, 403 for an administrators' purpose. */
export function checkPurpose(owner: UploadOwner, purpose: string | undefined): FilePurpose {
  if (purpose === undefined || purpose.trim() === "") {
    throw ValidationError.field("purpose", "purpose is required");
  }
  const value = purpose.trim() as FilePurpose;
  if (ADMIN_PURPOSES.includes(value)) {
    if (owner.role !== Role.ADMIN) throw new ForbiddenError("Only administrators upload this");
    return value;
  }
  if (!MEMBER_PURPOSES.includes(value)) {
    throw ValidationError.field("purpose", `purpose must be one of ${UPLOAD_PURPOSES.join(", ")}`);
  }
  return value;
}

/** The types a purpose takes (images only for image purposes), narrowed to an uploader's. */
export function typesFor(purpose: FilePurpose | undefined, narrower?: readonly string[]) {
  const types = purpose && IMAGE_PURPOSES.includes(purpose) ? IMAGE_TYPES : ALL_TYPES;
  return narrower ? types.filter((type) => narrower.includes(type)) : types;
}
