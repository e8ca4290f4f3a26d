import { funnelOf, funnelRange, type FunnelStep } from "./onboarding-funnel";
import type {
  CountBy,
  InterviewReportSource,
  MemberReportSource,
  PaymentReportSource,
  RenewalReportSource,
  SumByMonth,
} from "./report-ports";

export interface ReportSources {
  members: MemberReportSource;
  payments: PaymentReportSource;
  interviews: InterviewReportSource;
  /** Renewals (membership module); without it their part is empty. */
  renewals?: RenewalReportSource;
}

/** The funnel's range as a client sends it: Manila calendar days or date-times, both optional. */
export interface FunnelRangeInput {
  from?: unknown;
  to?: unknown;
}

/** The office's reports: each read from the module that keeps the records. */
export class ReportsService {
  constructor(
    /** Asked on use: the modules that keep the records are built around this one. */
    private readonly sources: () => ReportSources,
    /** Today, for a range that names no end (the clock tests move). */
    private readonly now: () => Date,
  ) {}

  membersByStatus(): Promise<CountBy[]> {
    return this.sources().members.byStatus();
  }

  membersByRegion(): Promise<CountBy[]> {
    return this.sources().members.byRegion();
  }

  membersByApprovalMonth(): Promise<CountBy[]> {
    return this.sources().members.byApprovalMonth();
  }

  /** Members at each step now; of the steps first moved past in the range, the median days. */
  async onboardingFunnel(range: FunnelRangeInput = {}): Promise<FunnelStep[]> {
    const { from, to } = funnelRange(range, this.now());
    const [atStep, days] = await Promise.all([
      this.sources().members.byOnboardingStep(),
      this.sources().members.stepDays(from, to),
    ]);
    return funnelOf(atStep, days);
  }

  paymentsByMonth(): Promise<SumByMonth[]> {
    return this.sources().payments.verifiedByMonth();
  }

  renewalsByMonth(): Promise<SumByMonth[]> {
    return this.sources().renewals?.verifiedByMonth() ?? Promise.resolve([]);
  }

  interviewsByInterviewer() {
    return this.sources().interviews.byInterviewerAndOutcome();
  }
}

/** Each report's REST name (`GET /reports/<name>`), its service method and CSV columns. */
export const REPORTS = {
  "members-by-status": { field: "membersByStatus", columns: ["key", "count"] },
  "members-by-region": { field: "membersByRegion", columns: ["key", "count"] },
  "members-by-approval-month": { field: "membersByApprovalMonth", columns: ["key", "count"] },
  "onboarding-funnel": {
    field: "onboardingFunnel",
    columns: ["step", "members", "finished", "medianDays"],
  },
  "payments-by-month": { field: "paymentsByMonth", columns: ["month", "count", "total"] },
  "renewals-by-month": { field: "renewalsByMonth", columns: ["month", "count", "total"] },
  "interviews-by-interviewer": {
    field: "interviewsByInterviewer",
    columns: ["interviewerId", "interviewer", "outcome", "count"],
  },
} as const satisfies Record<string, { field: keyof ReportsService; columns: readonly string[] }>;

export type ReportName = keyof typeof REPORTS;
