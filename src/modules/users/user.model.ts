import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { uuidv7 } from "../../db/uuid";
import { Role } from "./role";

/**
 * An account. Secrets (password hash, code and token hashes, TOTP secrets) live here but never
 * leave through the User type; flat fields rather than subdocuments keep the indexes and
 * conditional updates simple on MongoDB and on the development database alike.
 */
export interface UserRecord {
  _id: string;
  name: string;
  email: string;
  passwordHash: string;
  avatar: string | null;
  role: Role;
  isEmailVerified: boolean;
  /** sha256 of the pending email verification code. */
  verificationCodeHash: string | null;
  verificationExpiresAt: Date | null;
  /** sha256 of the pending password reset token (single use). */
  resetTokenHash: string | null;
  resetExpiresAt: Date | null;
  mfaEnabled: boolean;
  /** The TOTP secret, sealed (src/db/field-cipher.ts, field name MFA_SECRET_FIELD). */
  mfaSecret: string | null;
  /** Set by MFA setup, sealed likewise, promoted to mfaSecret once a code from it is confirmed. */
  mfaPendingSecret: string | null;
  /** The last TOTP time step accepted, so a code cannot be replayed. */
  mfaLastStep: number | null;
  /** The id of the MFA step token the last correct password earned; it is spent by its use. */
  mfaLoginTokenId?: string | null;
  /**
   * The account's earlier addresses, sealed (FORMER_EMAILS_FIELD), kept only while the service
   * keeps mail itself (the outbox): erasure deletes the mail to every address the account had.
   */
  formerEmails?: string[];
  /** Set while an erasure is in progress (see UsersService.delete). */
  deletingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    name: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    avatar: { type: String, default: null },
    role: { type: String, enum: Object.values(Role), required: true, default: Role.MEMBER },
    isEmailVerified: { type: Boolean, required: true, default: false },
    verificationCodeHash: { type: String, default: null },
    verificationExpiresAt: { type: Date, default: null },
    resetTokenHash: { type: String, default: null },
    resetExpiresAt: { type: Date, default: null },
    mfaEnabled: { type: Boolean, required: true, default: false },
    mfaSecret: { type: String, default: null },
    mfaPendingSecret: { type: String, default: null },
    mfaLastStep: { type: Number, default: null },
    mfaLoginTokenId: { type: String, default: null },
    deletingSince: { type: Date, default: null },
    formerEmails: { type: [String], default: undefined },
  },
  { timestamps: true, versionKey: false },
);
// The email's unique index (above) finds accounts by email and refuses a second account with one.
userSchema.index({ createdAt: -1, _id: -1 });
// A code or token is looked up by its hash while it has not expired.
userSchema.index({ verificationCodeHash: 1, verificationExpiresAt: 1 });
userSchema.index({ resetTokenHash: 1, resetExpiresAt: 1 });
// Whether an administrator remains who is not being erased, and how many accounts are.
userSchema.index({ deletingSince: 1, role: 1 });
// The migration that seals TOTP secrets an earlier version stored in clear finds them by range.
userSchema.index({ mfaSecret: 1 });
userSchema.index({ mfaPendingSecret: 1 });
// A member's public page shows the account's name and avatar: every write changes its ETag.
userSchema.plugin(changeStamped, { source: "users" });

/** The name a TOTP secret is sealed under, pending or active alike (enable moves it as is). */
export const MFA_SECRET_FIELD = "mfaSecret";
/** The name an earlier address is sealed under. */
export const FORMER_EMAILS_FIELD = "formerEmails";

export type UserModel = Model<UserRecord>;

export function createUserModel(connection: Connection): UserModel {
  return connection.model<UserRecord>("User", userSchema, "users");
}
