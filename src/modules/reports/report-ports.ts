import type { OnboardingStep } from "../onboarding/onboarding-steps";

/**
 * What each module answers for the reports: one aggregation each, on its own collection. The
 * reports module only puts them together; it never reads another module's collection.
 */
export interface CountBy {
  key: string | null;
  count: number;
}

export interface SumByMonth {
  month: string;
  count: number;
  /** Amounts in the currency's unit (pesos). */
  total: number;
}

/** How many members spent a number of whole days at a step before first moving past it. */
export interface StepDays {
  step: OnboardingStep;
  days: number;
  count: number;
}

export interface MemberReportSource {
  /** Records not archived, by status. */
  byStatus(): Promise<CountBy[]>;
  /** APPROVED records not archived, by region. */
  byRegion(): Promise<CountBy[]>;
  /** APPROVED records by the month (Manila) of their approval. */
  byApprovalMonth(): Promise<CountBy[]>;
  /** APPROVED records not archived, by the onboarding step they are at now. */
  byOnboardingStep(): Promise<CountBy[]>;
  /**
   * Of APPROVED records not archived, the steps first moved past in [from, to) (no lower
   * bound when from is null), by step and whole days spent at them.
   */
  stepDays(from: Date | null, to: Date): Promise<StepDays[]>;
}

export interface PaymentReportSource {
  /** VERIFIED payments by the month (Manila) they were verified, with their sums. */
  verifiedByMonth(): Promise<SumByMonth[]>;
}

/** Membership renewals (the membership module): verified renewals by month. */
export interface RenewalReportSource {
  verifiedByMonth(): Promise<SumByMonth[]>;
}

export interface InterviewReportSource {
  /** Interviews by interviewer and outcome, with the interviewer's name. */
  byInterviewerAndOutcome(): Promise<
    { interviewerId: string; interviewer: string; outcome: string; count: number }[]
  >;
}

/** The month an instant falls in, in Manila (UTC+8, no daylight saving): `YYYY-MM`. */
export function manilaMonth(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 7);
}

/** Monthly sums kept per currency (renewals), as one row a month: the fee is in pesos. */
export function sumsByMonth(
  rows: readonly { month: string; count: number; amount: number }[],
): SumByMonth[] {
  const months = new Map<string, SumByMonth>();
  for (const row of rows) {
    const sum = months.get(row.month) ?? { month: row.month, count: 0, total: 0 };
    sum.count += row.count;
    sum.total += row.amount;
    months.set(row.month, sum);
  }
  return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
}
