import { IsOptional } from "class-validator";
import { ArgsType, Field, Float, ID, Int, ObjectType } from "type-graphql";
import { DATE_INPUT_FORMS } from "../../graphql/date-time";
import { OnboardingStep } from "../onboarding/onboarding-steps";

@ObjectType("ReportCount", { simpleResolvers: true, description: "How many records have a value" })
export class ReportCount {
  @Field(() => String, { nullable: true, description: "The value (null: none recorded)" })
  key!: string | null;

  @Field(() => Int) count!: number;
}

@ObjectType("ReportFunnelStep", {
  simpleResolvers: true,
  description: "An onboarding step: who is at it now, and how long it took those who moved past it",
})
export class ReportFunnelStep {
  @Field(() => OnboardingStep) step!: OnboardingStep;

  @Field(() => Int, { description: "APPROVED members not archived at this step now" })
  members!: number;

  @Field(() => Int, { description: "Members who first moved past this step in the range" })
  finished!: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "The median of the whole days they spent at it, from first reaching it to first moving " +
      "past it (null: no one did in the range)",
  })
  medianDays!: number | null;
}

@ArgsType()
export class FunnelRangeArgs {
  // Strings read by the service, as the interviews' range: a query string's date reaches the
  // date scalar unparsed on the REST path, where only full date-times pass.
  @Field(() => String, {
    nullable: true,
    description: `The first day (Asia/Manila) of the range; left out: since ever. ${DATE_INPUT_FORMS}`,
  })
  @IsOptional()
  from?: string;

  @Field(() => String, {
    nullable: true,
    description: `The last day (Asia/Manila) of the range, included; left out: today. ${DATE_INPUT_FORMS}`,
  })
  @IsOptional()
  to?: string;
}

@ObjectType("ReportMonthSum", { simpleResolvers: true, description: "A month's verified payments" })
export class ReportMonthSum {
  @Field({ description: "YYYY-MM, in Manila" }) month!: string;
  @Field(() => Int) count!: number;
  @Field(() => Float, { description: "Their amounts added, in pesos" }) total!: number;
}

@ObjectType("ReportInterviewCount", { simpleResolvers: true })
export class ReportInterviewCount {
  @Field(() => ID) interviewerId!: string;
  @Field() interviewer!: string;
  @Field() outcome!: string;
  @Field(() => Int) count!: number;
}

@ObjectType("Reports", {
  simpleResolvers: true,
  description: "Counts for the office; each part is one aggregation, run only when asked for",
})
export class Reports {
  @Field(() => [ReportCount], { description: "Records not archived, by status" })
  membersByStatus!: ReportCount[];

  @Field(() => [ReportCount], { description: "APPROVED members not archived, by region" })
  membersByRegion!: ReportCount[];

  @Field(() => [ReportCount], { description: "APPROVED members by the month of approval" })
  membersByApprovalMonth!: ReportCount[];

  @Field(() => [ReportFunnelStep], {
    description:
      "Every onboarding step in order: APPROVED members not archived at it now, and the median " +
      "days it took those who first moved past it in the range",
  })
  onboardingFunnel!: ReportFunnelStep[];

  @Field(() => [ReportMonthSum], { description: "Verified membership payments by month" })
  paymentsByMonth!: ReportMonthSum[];

  @Field(() => [ReportMonthSum], { description: "Verified renewals by month" })
  renewalsByMonth!: ReportMonthSum[];

  @Field(() => [ReportInterviewCount], { description: "Interviews by interviewer and outcome" })
  interviewsByInterviewer!: ReportInterviewCount[];
}

function rowsEnvelope<T extends object>(item: new () => T, name: string) {
  @ObjectType(name, { simpleResolvers: true })
  class Rows {
    @Field() code!: string;
    @Field() message!: string;
    @Field(() => [item]) data!: T[];
  }
  return Rows;
}

export const ReportCountRows = rowsEnvelope(ReportCount, "ReportCountRows");
export const ReportFunnelRows = rowsEnvelope(ReportFunnelStep, "ReportFunnelRows");
export const ReportMonthSumRows = rowsEnvelope(ReportMonthSum, "ReportMonthSumRows");
export const ReportInterviewRows = rowsEnvelope(ReportInterviewCount, "ReportInterviewRows");
