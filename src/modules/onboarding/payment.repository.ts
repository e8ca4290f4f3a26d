import { DUPLICATE, unlessDuplicate } from "../../db/errors";
import { notEqual } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { PaymentStatus, type PaymentModel, type PaymentRecord } from "./payment.model";
import { manilaMonth, type PaymentReportSource, type SumByMonth } from "../reports/report-ports";

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
export class PaymentRepository implements PaymentReportSource {
  constructor(private readonly payments: PaymentModel) {}

  /**
   * One `$match` on the status (an index's lead) and one `$group` by month and amount; the
   * few groups (one per fee a month saw) are added up here: not every MongoDB-compatible server
   * answers a `$sum` of a field alike (docs/decisions.md, "Reports"), so the database counts and
   * the amounts are multiplied after.
   */
  async verifiedByMonth(): Promise<SumByMonth[]> {
    const groups = await this.payments
      .aggregate<{ _id: { month: string | null; amount: number }; count: number }>([
        { $match: { status: PaymentStatus.VERIFIED } },
        {
          $group: {
            _id: { month: "$verifiedMonth", amount: "$amount" },
            count: { $sum: 1 },
          },
        },
      ])
      .exec();
    const months = new Map<string, SumByMonth>();
    for (const group of groups) {
      const month = group._id.month ?? "";
      const row = months.get(month) ?? { month, count: 0, total: 0 };
      row.count += group.count;
      row.total += group.count * group._id.amount;
      months.set(month, row);
    }
    return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
  }

  /** Verified payments from before verifiedMonth was kept get it (a migration step). */
  async backfillVerifiedMonth(): Promise<number> {
    const stale = this.payments
      .find(
        { status: PaymentStatus.VERIFIED, verifiedMonth: null },
        { verifiedAt: 1, updatedAt: 1 },
      )
      .lean<{ _id: string; verifiedAt: Date | null; updatedAt: Date }[]>()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of stale) {
      const month = manilaMonth(record.verifiedAt ?? record.updatedAt);
      await this.payments.updateOne({ _id: record._id }, { $set: { verifiedMonth: month } }).exec();
      changed += 1;
    }
    return changed;
  }

  findOf(memberId: string): Promise<PaymentRecord | null> {
    return this.payments.findById(memberId).lean<PaymentRecord>().exec();
  }

  /**
   * A (new) submission, unless the payment was VERIFIED meanwhile: then null (the filter
   * misses, the upsert's insert meets the existing `_id`).
   */
  async submit(memberId: string, submission: PaymentSubmission): Promise<PaymentRecord | null> {
    const saved = await unlessDuplicate(
      this.payments
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
        .exec(),
    );
    return saved === DUPLICATE ? null : saved;
  }

  /** An administrator's decision on a submitted payment; null when it was not SUBMITTED. */
  decide(
    memberId: string,
    decision: { status: PaymentStatus; reviewNote: string | null; reviewedBy: string },
  ): Promise<PaymentRecord | null> {
    return this.payments
      .findOneAndUpdate(
        { _id: memberId, status: PaymentStatus.SUBMITTED },
        { $set: { ...decision, ...verification(decision.status === PaymentStatus.VERIFIED) } },
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

function verification(verified: boolean) {
  const at = verified ? new Date() : null;
  return { verifiedAt: at, verifiedMonth: at && manilaMonth(at) };
}
