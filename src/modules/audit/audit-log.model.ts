import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";

/**
 * One administrative act: who, what, on which record, when, in which request. Ids only, never
 * personal data, so an entry can outlive the erasure of the person it names.
 */
export interface AuditLogRecord {
  /** UUID v7: entries sort by time. */
  _id: string;
  at: Date;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  /** The id the service gave the request (its log lines carry it). */
  requestId: string;
  /** The client's own x-request-id, if it sent a well-formed one: its claim, kept apart. */
  clientRequestId: string | null;
}

const auditLogSchema = new Schema<AuditLogRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    at: { type: Date, required: true },
    actorId: { type: String, default: null },
    actorRole: { type: String, default: null },
    action: { type: String, required: true },
    targetType: { type: String, required: true },
    targetId: { type: String, default: null },
    requestId: { type: String, required: true },
    clientRequestId: { type: String, default: null },
  },
  { versionKey: false },
);
// Newest first, alone or narrowed by one of the list's equality filters (time ranges walk these).
auditLogSchema.index({ at: -1, _id: -1 });
auditLogSchema.index({ actorId: 1, at: -1, _id: -1 });
auditLogSchema.index({ targetId: 1, at: -1, _id: -1 });
auditLogSchema.index({ action: 1, at: -1, _id: -1 });

export type AuditLogModel = Model<AuditLogRecord>;

export function createAuditLogModel(connection: Connection): AuditLogModel {
  return connection.model<AuditLogRecord>("AuditLog", auditLogSchema, "audit_logs");
}
