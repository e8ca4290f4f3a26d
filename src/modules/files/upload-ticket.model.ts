import { Schema, type Connection, type Model } from "mongoose";
import type { Role } from "../users/role";

/**
 * One ingest link the site's upload protocol handed out: whose upload it is and for which
 * uploader. Kept in the database, not in a process, so any replica takes the PUT; used once.
 */
export interface UploadTicketRecord {
  /** UUID v7, the link's last path segment. */
  _id: string;
  ownerId: string;
  /** The owner's role when the link was asked for (the purpose check of POST /files). */
  role: Role;
  /** A key of SITE_UPLOADERS. */
  slug: string;
  /** The link's own expiry; the document goes some time after it (TTL index). */
  expiresAt: Date;
  /** Set by the one PUT that claims the link; null until then. */
  usedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const uploadTicketSchema = new Schema<UploadTicketRecord>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    role: { type: String, required: true },
    slug: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// Expired links are the database's to remove (a link past `expiresAt` is refused either way).
uploadTicketSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
// An account's links: removed by erasure, and its expired ones when it asks for new ones.
uploadTicketSchema.index({ ownerId: 1, expiresAt: 1 });

export type UploadTicketModel = Model<UploadTicketRecord>;

export function createUploadTicketModel(connection: Connection): UploadTicketModel {
  return connection.model<UploadTicketRecord>("UploadTicket", uploadTicketSchema, "upload_tickets");
}
