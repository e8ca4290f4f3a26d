import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import type { FilePurpose } from "./file-refs";

export const FILE_PURPOSES: readonly FilePurpose[] = [
  "REQUIREMENT",
  "PAYMENT_PROOF",
  "PROMISSORY_NOTE",
  "AVATAR",
  "EVENT_IMAGE",
  "NEWS_MEDIA",
  "CERTIFICATE",
  "PUBLIC_RECORD",
  "GENERATED",
];

/** A stored file's record; its bytes live in object storage under `storageKey`. */
export interface FileRecord {
  /** UUID v7, made by the service. */
  _id: string;
  ownerId: string;
  purpose: FilePurpose;
  /** The client's name for it, reduced to a safe base name. */
  fileName: string;
  /** Decided by the bytes, never by the client. */
  mimeType: string;
  size: number;
  sha256: string;
  storageKey: string;
  /** When a record first named it (null: none yet). */
  attachedAt: Date | null;
  /** Since when no record names it (null: one does); the orphan sweep deletes it past FILE_ORPHAN_HOURS. */
  unnamedSince: Date | null;
  /**
   * An upload's place in its owner's quota, `<ownerId>:<n>` with n below FILE_MAX_PER_USER;
   * unique, so two uploads racing for the last place cannot both take it. Absent on the
   * service's own files and on uploads stored before places were kept (counted apart).
   */
  quotaKey?: string;
  /** When an image's bytes were re-encoded without their metadata; null for PDFs and for images stored before. */
  cleanedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const fileSchema = new Schema<FileRecord>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    purpose: { type: String, required: true, enum: FILE_PURPOSES },
    fileName: { type: String, required: true },
    mimeType: { type: String, required: true },
    size: { type: Number, required: true },
    sha256: { type: String, required: true },
    storageKey: { type: String, required: true },
    attachedAt: { type: Date, default: null },
    unnamedSince: { type: Date, default: null },
    quotaKey: { type: String },
    cleanedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// The caller's own files (newest first), the per-account quota count, erasure and the export.
fileSchema.index({ ownerId: 1, createdAt: -1, _id: -1 });
// The orphan sweep: files nobody names, oldest first.
fileSchema.index({ unnamedSince: 1 });
// One upload per place of the quota (sparse: the service's own files have none).
fileSchema.index({ quotaKey: 1 }, { unique: true, sparse: true });
// The start-up migration: images stored before their metadata was stripped.
fileSchema.index({ mimeType: 1, cleanedAt: 1 });

export type FileModel = Model<FileRecord>;

// Public reads are made of this collection: every write changes their ETag.
fileSchema.plugin(changeStamped, { source: "files" });

export function createFileModel(connection: Connection): FileModel {
  return connection.model<FileRecord>("StoredFile", fileSchema, "files");
}
