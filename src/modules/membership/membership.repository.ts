import type { PipelineStage } from "mongoose";
import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { atMost } from "../../db/operators";
import type { ReminderKind } from "./membership-year";
import {
  RenewalStatus,
  type MembershipTermModel,
  type MembershipTermRecord,
  type RenewalModel,
  type RenewalRecord,
} from "./membership.model";

/** Every database call on membership years. */
export class MembershipTermRepository {
  constructor(private readonly terms: MembershipTermModel) {}

  ofMember(memberId: string): Promise<MembershipTermRecord | null> {
    return this.terms.findById(memberId).lean<MembershipTermRecord>().exec();
  }

  /** Starts (or starts again) the year at the oath; a revocation stays. */
  async start(
    member: { memberId: string; userId: string },
    year: { startedAt: Date; expiresAt: Date; nextReminderAt: Date },
  ): Promise<void> {
    await this.terms.updateOne(
      { _id: member.memberId },
      { $set: { ...year, lastReminder: null }, $setOnInsert: { userId: member.userId } },
      { upsert: true },
    );
  }

  /** Moves the end of a year that ends at `from`; false when it changed meanwhile. */
  async extend(
    memberId: string,
    from: Date,
    to: { expiresAt: Date; nextReminderAt: Date },
  ): Promise<boolean> {
    const result = await this.terms.updateOne(
      { _id: memberId, expiresAt: from },
      { $set: { ...to, lastReminder: null } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Revokes once; answers null when already revoked (the filter misses and the upsert's insert
   * meets the member's `_id`).
   */
  async revoke(
    member: { memberId: string; userId: string },
    revocation: { revokedAt: Date; revokedReason: string; revokedBy: string },
  ): Promise<MembershipTermRecord | null> {
    const revoked = await unlessDuplicate(
      this.terms
        .findOneAndUpdate(
          { _id: member.memberId, revokedAt: null },
          {
            $set: { ...revocation, nextReminderAt: null },
            $setOnInsert: { userId: member.userId },
          },
          { upsert: true, returnDocument: "after" },
        )
        .lean<MembershipTermRecord>()
        .exec(),
    );
    return revoked === DUPLICATE ? null : revoked;
  }

  /** Terms whose next reminder is due, a batch at a time. */
  due(now: Date, limit: number): Promise<MembershipTermRecord[]> {
    return this.terms
      .find({ nextReminderAt: atMost(now) })
      .sort({ nextReminderAt: 1 })
      .limit(limit)
      .lean<MembershipTermRecord[]>()
      .exec();
  }

  /**
   * Claims a reminder before it is mailed: of replicas that saw the same term, the one whose
   * conditional update matches sends it; the others find it changed.
   */
  async claimReminder(
    term: MembershipTermRecord,
    sent: ReminderKind | null,
    next: Date | null,
  ): Promise<boolean> {
    const result = await this.terms.updateOne(
      { _id: term._id, nextReminderAt: term.nextReminderAt, expiresAt: term.expiresAt },
      { $set: { lastReminder: sent ?? term.lastReminder, nextReminderAt: next } },
    );
    return result.modifiedCount === 1;
  }

  /**
   * Gives a claimed reminder back when its mail did not go: the term is due again as it was,
   * unless it changed since the claim (renewed, revoked), when its new state stands.
   */
  async releaseReminder(term: MembershipTermRecord, claimedNext: Date | null): Promise<void> {
    await this.terms.updateOne(
      { _id: term._id, nextReminderAt: claimedNext, expiresAt: term.expiresAt },
      { $set: { lastReminder: term.lastReminder, nextReminderAt: term.nextReminderAt } },
    );
  }

  ofUser(userId: string): Promise<MembershipTermRecord[]> {
    return this.terms.find({ userId }).lean<MembershipTermRecord[]>().exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.terms.deleteMany({ userId }).exec();
  }
}

/** Verified renewals of one month, counted and summed. */
export interface MonthlyRenewals {
  /** `YYYY-MM`, in Asia/Manila. */
  month: string;
  count: number;
  amount: number;
  currency: string;
}

/** Every database call on renewals. */
export class RenewalRepository {
  constructor(private readonly renewals: RenewalModel) {}

  /** DUPLICATE when the member already has a renewal waiting (its unique openFor). */
  async insert(
    record: Omit<RenewalRecord, "createdAt" | "updatedAt">,
  ): Promise<RenewalRecord | Duplicate> {
    const created = await unlessDuplicate(this.renewals.create(record));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
  }

  byId(id: string): Promise<RenewalRecord | null> {
    return this.renewals.findById(id).lean<RenewalRecord>().exec();
  }

  latestOf(memberId: string): Promise<RenewalRecord | null> {
    return this.renewals
      .findOne({ memberId })
      .sort({ submittedAt: -1 })
      .lean<RenewalRecord>()
      .exec();
  }

  /** Decides a SUBMITTED renewal once; null when it is not SUBMITTED any more. */
  decide(
    id: string,
    decision: Pick<
      RenewalRecord,
      | "status"
      | "note"
      | "decidedAt"
      | "decidedBy"
      | "previousExpiresAt"
      | "extendedTo"
      | "verifiedMonth"
    >,
  ): Promise<RenewalRecord | null> {
    return this.renewals
      .findOneAndUpdate(
        { _id: id, status: RenewalStatus.SUBMITTED },
        { $set: decision, $unset: { openFor: 1 } },
        { returnDocument: "after" },
      )
      .lean<RenewalRecord>()
      .exec();
  }

  async page(
    status: RenewalStatus,
    page: number,
    limit: number,
  ): Promise<{ records: RenewalRecord[]; total: number }> {
    const [records, total] = await Promise.all([
      this.renewals
        .find({ status })
        .sort({ submittedAt: 1, _id: 1 })
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<RenewalRecord[]>()
        .exec(),
      this.renewals.countDocuments({ status }).exec(),
    ]);
    return { records, total };
  }

  /**
   * Renewals VERIFIED in [from, to), by month of verification (Asia/Manila): one aggregation
   * served by `{status, decidedAt}`. It groups by amount too and the sums are folded from those
   * few groups: a `$sum` of a field is not answered alike by every MongoDB-compatible server
   * (docs/decisions.md, "Reports"), a count is.
   */
  async verifiedByMonth(from: Date, to: Date): Promise<MonthlyRenewals[]> {
    const pipeline: PipelineStage[] = [
      { $match: { status: RenewalStatus.VERIFIED, decidedAt: { $gte: from, $lt: to } } },
      {
        $group: {
          _id: { month: "$verifiedMonth", currency: "$currency", amount: "$amount" },
          count: { $sum: 1 },
        },
      },
    ];
    const groups = await this.renewals
      .aggregate<{ _id: { month: string; currency: string; amount: number }; count: number }>(
        pipeline,
      )
      .exec();
    const months = new Map<string, MonthlyRenewals>();
    for (const { _id, count } of groups) {
      const key = `${_id.month} ${_id.currency}`;
      const row = months.get(key) ?? {
        month: _id.month,
        currency: _id.currency,
        count: 0,
        amount: 0,
      };
      row.count += count;
      row.amount += count * _id.amount;
      months.set(key, row);
    }
    return [...months.values()].sort(
      (a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency),
    );
  }

  ofUser(userId: string): Promise<RenewalRecord[]> {
    return this.renewals.find({ userId }).lean<RenewalRecord[]>().exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.renewals.deleteMany({ userId }).exec();
  }
}
