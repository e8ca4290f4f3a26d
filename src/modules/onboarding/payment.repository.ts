import { notEqual } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { PaymentStatus, type PaymentModel, type PaymentRecord } from "./payment.model";

export type PaymentSubmission = Pick<
  PaymentRecord,
  | "userId"
  | "paymentMethod"
  | "proofFileId"
  | "isPromissoryNote"
  | "promissoryNoteFileId"
  | "amount"
  | "currency"
>;

/** Every database call on membership payments. */
export class PaymentRepository {
  constructor(private readonly payments: PaymentModel) {}

  findOf(memberId: string): Promise<PaymentRecord | null> {
    return this.payments.findById(memberId).lean<PaymentRecord>().exec();
  }

  /**
   * A (new) submission, unless the payment was VERIFIED meanwhile: then the filter misses, the
   * upsert's insert meets the existing `_id` and fails with a duplicate key (→ 409).
   */
  submit(memberId: string, submission: PaymentSubmission): Promise<PaymentRecord | null> {
    return this.payments
      .findOneAndUpdate(
        { _id: memberId, status: notEqual(PaymentStatus.VERIFIED) },
        {
          $set: {
            ...submission,
            status: PaymentStatus.SUBMITTED,
            reviewNote: null,
            reviewedBy: null,
            submittedAt: new Date(),
            verifiedAt: null,
          },
        },
        { upsert: true, returnDocument: "after" },
      )
      .lean<PaymentRecord>()
      .exec();
  }

  /** An administrator's decision on a submitted payment; null when it was not SUBMITTED. */
  decide(
    memberId: string,
    decision: { status: PaymentStatus; reviewNote: string | null; reviewedBy: string },
  ): Promise<PaymentRecord | null> {
    return this.payments
      .findOneAndUpdate(
        { _id: memberId, status: PaymentStatus.SUBMITTED },
        {
          $set: {
            ...decision,
            verifiedAt: decision.status === PaymentStatus.VERIFIED ? new Date() : null,
          },
        },
        { returnDocument: "after" },
      )
      .lean<PaymentRecord>()
      .exec();
  }

  /** One status, oldest submission first. */
  page(status: PaymentStatus, window: PageWindow): Promise<FoundPage<PaymentRecord>> {
    return findPage(this.payments, { status }, { submittedAt: 1, _id: 1 }, window);
  }

  ofUser(userId: string): Promise<PaymentRecord[]> {
    return this.payments.find({ userId }).lean<PaymentRecord[]>().exec();
  }

  async deleteAllOfUser(userId: string): Promise<void> {
    await this.payments.deleteMany({ userId }).exec();
  }
}
