import { Args, Ctx, FieldResolver, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Rest } from "../../graphql/rest-route";
import { NotAudited } from "../audit/audited-operations";
import { Role } from "../users/role";
import {
  FunnelRangeArgs,
  ReportCount,
  ReportCountRows,
  ReportFunnelRows,
  ReportFunnelStep,
  ReportInterviewCount,
  ReportInterviewRows,
  ReportMonthSum,
  ReportMonthSumRows,
  Reports,
} from "./report.type";

const COUNTS_ONLY = "counts for the office, no one's personal data";
const rows = <T>(message: string, data: T[]) => ({ code: "OK", message, data });

/** `reports { … }`: each part is computed only when the query asks for it. */
@Resolver(() => Reports)
export class ReportsResolver {
  @Rest("GET", "/reports", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => Reports, {
    description:
      "The office's reports; REST answers every part, GraphQL the parts asked for. Admin only.",
  })
  reports(): Reports {
    return new Reports();
  }

  @FieldResolver(() => [ReportCount])
  membersByStatus(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.membersByStatus();
  }

  @FieldResolver(() => [ReportCount])
  membersByRegion(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.membersByRegion();
  }

  @FieldResolver(() => [ReportCount])
  membersByApprovalMonth(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.membersByApprovalMonth();
  }

  @FieldResolver(() => [ReportFunnelStep])
  onboardingFunnel(@Args() range: FunnelRangeArgs, @Ctx() ctx: RequestContext) {
    return ctx.services.reports.onboardingFunnel(range);
  }

  @FieldResolver(() => [ReportMonthSum])
  paymentsByMonth(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.paymentsByMonth();
  }

  @FieldResolver(() => [ReportMonthSum])
  renewalsByMonth(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.renewalsByMonth();
  }

  @FieldResolver(() => [ReportInterviewCount])
  interviewsByInterviewer(@Ctx() ctx: RequestContext) {
    return ctx.services.reports.interviewsByInterviewer();
  }
}

/** One report per REST path (`GET /reports/<name>`, also as CSV: src/http/report-csv.ts). */
@Resolver()
export class ReportPartsResolver {
  @Rest("GET", "/reports/members-by-status", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportCountRows, { description: "Records not archived, by status. Admin only." })
  async membersByStatusReport(@Ctx() ctx: RequestContext) {
    return rows("Members by status", await ctx.services.reports.membersByStatus());
  }

  @Rest("GET", "/reports/members-by-region", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportCountRows, {
    description: "APPROVED members not archived, by region. Admin only.",
  })
  async membersByRegionReport(@Ctx() ctx: RequestContext) {
    return rows("Members by region", await ctx.services.reports.membersByRegion());
  }

  @Rest("GET", "/reports/members-by-approval-month", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportCountRows, {
    description: "APPROVED members by the month (Manila) of their approval. Admin only.",
  })
  async membersByApprovalMonthReport(@Ctx() ctx: RequestContext) {
    return rows("Members by month of approval", await ctx.services.reports.membersByApprovalMonth());
  }

  @Rest("GET", "/reports/onboarding-funnel", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportFunnelRows, {
    description:
      "Every onboarding step: APPROVED members not archived at it now, and the median days it " +
      "took those who first moved past it from `from` to `to` (Manila days, included). Admin only.",
  })
  async onboardingFunnelReport(@Args() range: FunnelRangeArgs, @Ctx() ctx: RequestContext) {
    return rows("Onboarding funnel", await ctx.services.reports.onboardingFunnel(range));
  }

  @Rest("GET", "/reports/payments-by-month", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportMonthSumRows, {
    description: "Verified membership payments by month (Manila), with their sums. Admin only.",
  })
  async paymentsByMonthReport(@Ctx() ctx: RequestContext) {
    return rows("Payments by month", await ctx.services.reports.paymentsByMonth());
  }

  @Rest("GET", "/reports/renewals-by-month", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportMonthSumRows, {
    description: "Verified renewals by month, with their sums. Admin only.",
  })
  async renewalsByMonthReport(@Ctx() ctx: RequestContext) {
    return rows("Renewals by month", await ctx.services.reports.renewalsByMonth());
  }

  @Rest("GET", "/reports/interviews-by-interviewer", { tag: "Reports" })
  @NotAudited(COUNTS_ONLY)
  @Authorized(Role.ADMIN)
  @Query(() => ReportInterviewRows, {
    description: "Interviews by interviewer and outcome. Admin only.",
  })
  async interviewsByInterviewerReport(@Ctx() ctx: RequestContext) {
    return rows("Interviews", await ctx.services.reports.interviewsByInterviewer());
  }
}
