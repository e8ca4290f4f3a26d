import { Schema, type Connection, type Model } from "mongoose";
import { registerEnumType } from "type-graphql";

export enum PaymentMethod {
  E_WALLET = "E_WALLET",
  DIRECT_DEBIT = "DIRECT_DEBIT",
  OVER_THE_COUNTER = "OVER_THE_COUNTER",
  CASH = "CASH",
}

export enum PaymentStatus {
  SUBMITTED = "SUBMITTED",
  VERIFIED = "VERIFIED",
  REJECTED = "REJECTED",
}

registerEnumType(PaymentMethod, { name: "PaymentMethod" });
registerEnumType(PaymentStatus, { name: "PaymentStatus" });

/** The membership fee of one member record (`_id` is the member's id). */
export interface PaymentRecord {
  _id: string;
  userId: string;
  paymentMethod: PaymentMethod;
  proofFileId: string | null;
  isPromissoryNote: boolean;
  promissoryNoteFileId: string | null;
  amount: number;
  currency: string;
  status: PaymentStatus;
  reviewNote: string | null;
  reviewedBy: string | null;
  submittedAt: Date;
  verifiedAt: Date | null;
  /** `YYYY-MM` (Manila) of verifiedAt: the reports sum by it. */
  verifiedMonth?: string | null;
  updatedAt: Date;
}

const paymentSchema = new Schema<PaymentRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    paymentMethod: { type: String, enum: Object.values(PaymentMethod), required: true },
    proofFileId: { type: String, default: null },
    isPromissoryNote: { type: Boolean, default: false },
    promissoryNoteFileId: { type: String, default: null },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, enum: Object.values(PaymentStatus), required: true },
    reviewNote: { type: String, default: null },
    reviewedBy: { type: String, default: null },
    submittedAt: { type: Date, required: true },
    verifiedAt: { type: Date, default: null },
    verifiedMonth: { type: String, default: null },
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);
// GET /payments?status=SUBMITTED: oldest first.
paymentSchema.index({ status: 1, submittedAt: 1, _id: 1 });
paymentSchema.index({ userId: 1 });
// The reports: verified payments by the month of their verification.
paymentSchema.index({ status: 1, verifiedMonth: 1 });

export type PaymentModel = Model<PaymentRecord>;

export function createPaymentModel(connection: Connection): PaymentModel {
  return connection.model<PaymentRecord>("MembershipPayment", paymentSchema, "membership_payments");
}
