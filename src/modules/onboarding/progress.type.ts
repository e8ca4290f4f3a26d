import { Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType } from "../../graphql/envelopes";
import { CourseProgress } from "./course.type";
import { OnboardingStep } from "./onboarding-steps";
import { MembershipPayment } from "./payment.type";
import { Requirement } from "./requirement.type";

@ObjectType("OnboardingStepState", {
  simpleResolvers: true,
  description: "One step: done, or what it misses",
})
export class OnboardingStepState {
  @Field(() => OnboardingStep) step!: OnboardingStep;
  @Field() done!: boolean;
  @Field(() => [String], { description: "What the member still has to do, as sentences" })
  missing!: string[];
}

@ObjectType("OnboardingProgress", {
  simpleResolvers: true,
  description: "Where an approved member stands",
})
export class OnboardingProgress {
  @Field(() => OnboardingStep) currentStep!: OnboardingStep;
  @Field(() => [Int]) preOrientationCompletedLessonIds!: number[];
  @Field(() => DateTimeScalar, { nullable: true }) preOrientationCompletedAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "Set by the oath" })
  completedAt!: Date | null;
  @Field(() => [OnboardingStepState]) steps!: OnboardingStepState[];
}

@ObjectType("OnboardingProgressPayload", { simpleResolvers: true })
export class OnboardingProgressPayload {
  @Field() code!: string;
  @Field() message!: string;
  @Field(() => OnboardingProgress, {
    nullable: true,
    description: "Null unless the caller's current record is APPROVED",
  })
  data!: OnboardingProgress | null;
}

@ObjectType("OathRecord", {
  simpleResolvers: true,
  description: "The oath as an administrator recorded it",
})
export class OathRecord {
  @Field(() => DateTimeScalar) takenAt!: Date;
  @Field() place!: string;
  @Field(() => String, { nullable: true }) officiant!: string | null;
  @Field(() => DateTimeScalar) recordedAt!: Date;
}

@ObjectType("OnboardingMember", {
  simpleResolvers: true,
  description: "An approved member in the administrators' onboarding list",
})
export class OnboardingListItem {
  @Field(() => ID) memberId!: string;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field() fullName!: string;
  @Field() email!: string;
  @Field(() => OnboardingStep) currentStep!: OnboardingStep;
  @Field(() => DateTimeScalar, { nullable: true }) completedAt!: Date | null;
  @Field(() => [OnboardingStepState]) steps!: OnboardingStepState[];
}

export const OnboardingListPage = PageType(OnboardingListItem, "OnboardingListPage");

@ObjectType("InterviewSummary", { simpleResolvers: true })
export class InterviewSummary {
  @Field() outcome!: string;
  @Field(() => DateTimeScalar) scheduledAt!: Date;
}

@ObjectType("MemberOnboarding", {
  simpleResolvers: true,
  description: "Everything of one member's onboarding, for administrators",
})
export class MemberOnboarding {
  @Field(() => OnboardingProgress) progress!: OnboardingProgress;
  @Field(() => [Requirement]) requirements!: Requirement[];
  @Field(() => MembershipPayment, { nullable: true }) payment!: MembershipPayment | null;
  @Field(() => CourseProgress) chaplaincy!: CourseProgress;
  @Field(() => InterviewSummary, { nullable: true }) interview!: InterviewSummary | null;
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "When the ID card and certificate were rendered",
  })
  assetsGeneratedAt!: Date | null;
  @Field(() => OathRecord, { nullable: true }) oath!: OathRecord | null;
}
