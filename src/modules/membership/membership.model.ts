import { Schema, type Connection, type Model } from "mongoose";
import { registerEnumType } from "type-graphql";
import { changeStamped } from "../../db/change-stamps";
import { PaymentMethod } from "../onboarding/payment.model";
import type { ReminderKind } from "./membership-year";

/** A member's membership year (`_id` is the member record's id): started by the oath. */
export interface MembershipTermRecord {
  _id: string;
  /** The member's account (export and erasure find it by this). */
  userId: string;
  /** The oath's day; null for credentials revoked before the oath. */
  startedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The administrator's reason: personal data of the member. */
  revokedReason: string | null;
  revokedBy: string | null;
  /** The last reminder sent for the current end, and when the next one falls due. */
  lastReminder: ReminderKind | null;
  nextReminderAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const termSchema = new Schema<MembershipTermRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    startedAt: { type: Date, default: null },
    expiresAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
    revokedReason: { type: String, default: null },
    revokedBy: { type: String, default: null },
    lastReminder: { type: String, default: null },
    nextReminderAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
termSchema.index({ userId: 1 });
// The reminder sweep: terms whose next reminder is due.
termSchema.index({ nextReminderAt: 1 });
// The public check turns EXPIRED with time alone: its version includes the newest end past.
termSchema.index({ expiresAt: 1 });
termSchema.plugin(changeStamped, {
  source: "membership_terms",
  due: { filter: {}, field: "expiresAt" },
});

export enum RenewalStatus {
  SUBMITTED = "SUBMITTED",
  VERIFIED = "VERIFIED",
  REJECTED = "REJECTED",
}
registerEnumType(RenewalStatus, { name: "RenewalStatus" });

/** One renewal payment of a membership year. */
export interface RenewalRecord {
  _id: string;
  memberId: string;
  userId: string;
  /** The member's id while SUBMITTED, absent after the decision: one open renewal per member. */
  openFor?: string;
  paymentMethod: PaymentMethod;
  proofFileId: string | null;
  amount: number;
  currency: string;
  status: RenewalStatus;
  /** The administrator's note on the decision: personal data of the member. */
  note: string | null;
  submittedAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  /** The end of the year before, and after, a verification. */
  previousExpiresAt: Date | null;
  extendedTo: Date | null;
  /** `YYYY-MM` of the verification in Asia/Manila: what the monthly report groups by. */
  verifiedMonth: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const renewalSchema = new Schema<RenewalRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    userId: { type: String, required: true },
    openFor: { type: String },
    paymentMethod: { type: String, enum: Object.values(PaymentMethod), required: true },
    proofFileId: { type: String, default: null },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, enum: Object.values(RenewalStatus), required: true },
    note: { type: String, default: null },
    submittedAt: { type: Date, required: true },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: String, default: null },
    previousExpiresAt: { type: Date, default: null },
    extendedTo: { type: Date, default: null },
    verifiedMonth: { type: String, default: null },
  },
  { timestamps: true, versionKey: false },
);
renewalSchema.index({ openFor: 1 }, { unique: true, sparse: true });
renewalSchema.index({ userId: 1 });
renewalSchema.index({ memberId: 1, submittedAt: -1 });
// GET /renewals?status: oldest first.
renewalSchema.index({ status: 1, submittedAt: 1, _id: 1 });
// Verified renewals by month (reports).
renewalSchema.index({ status: 1, decidedAt: 1 });

export type MembershipTermModel = Model<MembershipTermRecord>;
export type RenewalModel = Model<RenewalRecord>;

export function createMembershipModels(connection: Connection) {
  return {
    terms: connection.model<MembershipTermRecord>("MembershipTerm", termSchema, "membership_terms"),
    renewals: connection.model<RenewalRecord>("Renewal", renewalSchema, "membership_renewals"),
  };
}
