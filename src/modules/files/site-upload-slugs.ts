import { IMAGE_TYPES } from "./file-bytes";
import type { FilePurpose } from "./file-refs";

const PDF = "application/pdf";

/**
 * The uploaders of the organisation's site (its `uploadthing` client names them by slug): what
 * each stores its files as, how many it takes in one upload and which types. Their URLs are
 * src/http/file-route-table.ts's.
 */
export interface SiteUploader {
  slug: string;
  purpose: FilePurpose;
  maxFiles: number;
  types: readonly string[];
}

export const SITE_UPLOADERS = {
  requirementUploader: {
    slug: "requirementUploader",
    purpose: "REQUIREMENT",
    maxFiles: 1,
    types: [PDF, "image/jpeg", "image/png"],
  },
  memberCertificateUploader: {
    slug: "memberCertificateUploader",
    purpose: "CERTIFICATE",
    maxFiles: 1,
    types: [PDF, ...IMAGE_TYPES],
  },
  memberPublicRecordAttachmentUploader: {
    slug: "memberPublicRecordAttachmentUploader",
    purpose: "PUBLIC_RECORD",
    maxFiles: 6,
    types: IMAGE_TYPES,
  },
  avatarUploader: { slug: "avatarUploader", purpose: "AVATAR", maxFiles: 1, types: IMAGE_TYPES },
} as const satisfies Record<string, SiteUploader>;

export type SiteUploaderSlug = keyof typeof SITE_UPLOADERS;

/** What the site's client declares of each file before sending it. */
export interface DeclaredFile {
  name: string;
  size: number;
  type: string;
}

const EXTENSION_TYPES: Record<string, string> = {
  pdf: PDF,
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/**
 * The type a declared file claims: the browser's `type`, else its name's extension (a browser
 * that does not know the type sends ""). Only a claim: the stored type is decided by the bytes.
 */
export function declaredTypeOf(file: Pick<DeclaredFile, "name" | "type">): string | null {
  const type = file.type.trim().toLowerCase();
  if (type === "image/jpg") return "image/jpeg";
  if (type !== "") return type;
  const extension = /\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1]?.toLowerCase();
  return (extension && EXTENSION_TYPES[extension]) || null;
}

/** "PDF, JPEG or PNG": the types an uploader takes, as a person reads them. */
export function typesInWords(types: readonly string[]): string {
  const names = [...new Set(types.map((type) => type.split("/")[1].toUpperCase()))];
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}
