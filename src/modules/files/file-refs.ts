/**
 * What other modules may do with stored files. The files module implements it; onboarding,
 * events, news and public profiles depend on this port only, never on the storage driver.
 * A record names a file by its id; every URL is rendered fresh when a record is read.
 */
import type { Role } from "../users/role";

/** Why a file was uploaded (upload-rules.ts), plus files the service renders itself. */
export type FilePurpose =
  | "REQUIREMENT"
  | "PAYMENT_PROOF"
  | "PROMISSORY_NOTE"
  | "AVATAR"
  | "EVENT_IMAGE"
  | "NEWS_MEDIA"
  | "CERTIFICATE"
  | "PUBLIC_RECORD"
  | "GENERATED";

/** A stored file as answers show it. */
export interface FileView {
  id: string;
  /** A link signed for FILE_LINK_TTL_SECONDS (private files) or /files/public/{id}. */
  fileUrl: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  purpose: FilePurpose;
  ownerId: string;
  createdAt: Date;
}

/** Whom links are rendered for (the request's caller). */
export interface LinkReader {
  id: string;
  role: Role;
}

export interface FileRefs {
  /**
   * Takes a file id or a `fileUrl` this service issued, of a file `ownerId` owns with one of
   * `purposes`, and marks it named by a record (so the orphan sweep leaves it). Anything else
   * throws a ValidationError on `field`. Answers the file's id.
   */
  claim(
    ref: string,
    owner: { ownerId: string; purposes: readonly FilePurpose[]; field: string },
  ): Promise<string>;
  /** The record no longer names these files: the orphan sweep may delete them. */
  release(ids: readonly string[]): Promise<void>;
  /**
   * Views of the files that exist, keyed by id, with `fileUrl` rendered now: signed private
   * links, or public URLs when `visibility` is "public" (for files a public page shows).
   * `reader` is whom the answer is for: a link rendered for an administrator reading another
   * person's file names them, so a download by it is audited as their read.
   */
  describe(
    ids: readonly string[],
    visibility: "private" | "public",
    reader?: LinkReader,
  ): Promise<Map<string, FileView>>;
  /** Bytes the service rendered itself (ID card, certificate, QR): a private file of `ownerId`, already named by a record. */
  storeGenerated(input: {
    ownerId: string;
    fileName: string;
    mimeType: string;
    bytes: Buffer;
  }): Promise<FileView>;
  /** A stored file's bytes, for the service's own use (the 2x2 photo on the ID card). */
  read(id: string): Promise<Buffer>;
}

/**
 * Decides whether a file that is not public by its purpose (an avatar, an approved 2x2 photo)
 * may be served at /files/public/{id} now: supplied by the module that knows the consent.
 */
export type PublicFileRule = (file: {
  id: string;
  ownerId: string;
  purpose: FilePurpose;
}) => Promise<boolean>;
