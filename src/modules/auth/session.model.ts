import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";

/** One login: the refresh-token chain and what the user sees about where they are signed in. */
export interface SessionRecord {
  _id: string;
  userId: string;
  /** sha256 of the one live refresh token. */
  refreshTokenHash: string;
  /** Hashes of rotated-out tokens: presenting one again means the chain leaked. */
  retiredTokenHashes: string[];
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  /**
   * When this session last proved the password (login, its MFA step, register, or
   * re-authentication; never a refresh). Null: never, as for sessions older than the field.
   */
  authenticatedAt: Date | null;
  /** When the refresh token was last rotated: the two-tabs grace window runs from here. */
  rotatedAt: Date | null;
  /** The live refresh token dies at this time; each rotation moves it. */
  refreshExpiresAt: Date;
  /** No rotation extends a session past this (an absolute lifetime). */
  expiresAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
}

const sessionSchema = new Schema<SessionRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    userId: { type: String, required: true },
    refreshTokenHash: { type: String, required: true },
    retiredTokenHashes: { type: [String], default: [] },
    userAgent: { type: String, default: null },
    ip: { type: String, default: null },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, required: true },
    authenticatedAt: { type: Date, default: null },
    rotatedAt: { type: Date, default: null },
    refreshExpiresAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
  },
  { versionKey: false },
);
// A user's sessions newest first (subject access, the session list); ending or erasing them all
// uses its prefix.
sessionSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// A session past its absolute end can never be used again.
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export type SessionModel = Model<SessionRecord>;

export function createSessionModel(connection: Connection): SessionModel {
  return connection.model<SessionRecord>("Session", sessionSchema, "sessions");
}
