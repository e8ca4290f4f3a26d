import { oneOf, within } from "../../db/operators";
import {
  manilaMonth,
  type CountBy,
  type MemberReportSource,
  type StepDays,
} from "../reports/report-ports";
import type { OnboardingStep } from "../onboarding/onboarding-steps";
import { MemberStatus } from "./member.enums";
import type { MemberModel } from "./member.model";

type Grouped = { _id: string | null; count: number };

/**
 * The members' side of the reports: each one `$match` on a status (the lead of a declared
 * index) and one `$group`, so the database counts and only the groups come back.
 */
export class MemberReportRepository implements MemberReportSource {
  constructor(private readonly members: MemberModel) {}

  byStatus(): Promise<CountBy[]> {
    return this.count({ status: oneOf(Object.values(MemberStatus)), archivedAt: null }, "$status");
  }

  byRegion(): Promise<CountBy[]> {
    return this.count({ status: MemberStatus.APPROVED, archivedAt: null }, "$region");
  }

  byApprovalMonth(): Promise<CountBy[]> {
    return this.count({ status: MemberStatus.APPROVED }, "$approvedMonth");
  }

  byOnboardingStep(): Promise<CountBy[]> {
    return this.count({ status: MemberStatus.APPROVED, archivedAt: null }, "$onboardingStep");
  }

  /**
   * The `$match` is served by `{status, archivedAt, onboardingTimes.at}` and finds only records
   * with a step moved past in the range; only their times go on (not every MongoDB-compatible
   * server carries other fields through `$unwind`), the range is asked again of each step's
   * time, and `$group` answers one row per step and number of whole days: few, whatever the
   * number of records (the median is read off them in the reports module).
   */
  async stepDays(from: Date | null, to: Date): Promise<StepDays[]> {
    const range = within(from, to);
    const groups = await this.members
      .aggregate<{ _id: { step: OnboardingStep; days: number }; count: number }>([
        {
          $match: { status: MemberStatus.APPROVED, archivedAt: null, "onboardingTimes.at": range },
        },
        { $project: { onboardingTimes: 1 } },
        { $unwind: "$onboardingTimes" },
        { $match: { "onboardingTimes.at": range } },
        {
          $group: {
            _id: { step: "$onboardingTimes.step", days: "$onboardingTimes.days" },
            count: { $sum: 1 },
          },
        },
      ])
      .exec();
    return groups.map((group) => ({ ...group._id, count: group.count }));
  }

  /**
   * Approved records from before approvedMonth was kept get it from their latest approval (a
   * migration step); returns how many.
   */
  async backfillApprovedMonth(): Promise<number> {
    const stale = this.members
      .find(
        { status: MemberStatus.APPROVED, approvedMonth: null },
        { statusHistory: 1, createdAt: 1 },
      )
      .lean<{ _id: string; statusHistory: { to: MemberStatus; at: Date }[]; createdAt: Date }[]>()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of stale) {
      const approval = record.statusHistory
        .filter((entry) => entry.to === MemberStatus.APPROVED)
        .at(-1);
      await this.members
        .updateOne(
          { _id: record._id },
          { $set: { approvedMonth: manilaMonth(approval?.at ?? record.createdAt) } },
        )
        .exec();
      changed += 1;
    }
    return changed;
  }

  private async count(match: Record<string, unknown>, key: string): Promise<CountBy[]> {
    const groups = await this.members
      .aggregate<Grouped>([{ $match: match }, { $group: { _id: key, count: { $sum: 1 } } }])
      .exec();
    return groups
      .map((group) => ({ key: group._id ?? null, count: group.count }))
      .sort((a, b) => String(a.key).localeCompare(String(b.key)));
  }
}
