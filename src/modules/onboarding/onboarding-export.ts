import { JSONObjectResolver } from "graphql-scalars";
import type { MemberOnboardingRecords } from "../members/member-onboarding";
import { Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import type { FileRefs, FileView } from "../files/file-refs";
import { PaymentMethod, PaymentStatus } from "./payment.model";
import type { PaymentRepository } from "./payment.repository";
import { paymentFields } from "./payment.service";
import type { ProgressRepository } from "./progress.repository";
import { OnboardingStep } from "./onboarding-steps";
import { OathRecord } from "./progress.type";
import { RequirementType, ReviewStatus } from "./requirement.model";
import type { RequirementRepository } from "./requirement.repository";

@ObjectType("RequirementExport", { simpleResolvers: true })
export class RequirementExport {
  @Field(() => ID) memberId!: string;
  @Field(() => RequirementType) type!: RequirementType;
  @Field(() => ID) fileId!: string;
  @Field(() => String, { nullable: true }) fileName!: string | null;
  @Field(() => ReviewStatus) reviewStatus!: ReviewStatus;
  @Field(() => String, { nullable: true }) reviewNote!: string | null;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

@ObjectType("PaymentExport", { simpleResolvers: true })
export class PaymentExport {
  @Field(() => ID) memberId!: string;
  @Field(() => PaymentMethod) paymentMethod!: PaymentMethod;
  @Field(() => ID, { nullable: true }) proofFileId!: string | null;
  @Field() isPromissoryNote!: boolean;
  @Field(() => ID, { nullable: true }) promissoryNoteFileId!: string | null;
  @Field(() => Int) amount!: number;
  @Field() currency!: string;
  @Field(() => PaymentStatus) status!: PaymentStatus;
  @Field(() => String, { nullable: true }) reviewNote!: string | null;
  @Field(() => DateTimeScalar) submittedAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) verifiedAt!: Date | null;
}

@ObjectType("CoursesExport", { simpleResolvers: true })
export class CoursesExport {
  @Field(() => ID) memberId!: string;
  @Field(() => [Int]) preOrientationCompletedLessonIds!: number[];
  @Field(() => [Int]) chaplaincyCompletedLessonIds!: number[];
  @Field(() => JSONObjectResolver, { description: "Essay answers by question id" })
  essayAnswers!: Record<string, string>;
  @Field(() => OathRecord, { nullable: true }) oath!: OathRecord | null;
  @Field(() => DateTimeScalar, { nullable: true }) completedAt!: Date | null;
}

@ObjectType("StepTimeExport", { simpleResolvers: true })
export class StepTimeExport {
  @Field(() => OnboardingStep) step!: OnboardingStep;
  @Field(() => Int, { description: "Whole days at the step before first moving past it" })
  days!: number;
  @Field(() => DateTimeScalar, { description: "When the member first moved past it" })
  at!: Date;
}

@ObjectType("StepTimesExport", {
  simpleResolvers: true,
  description: "A record's onboarding: the step it is on, when it began, each step's time",
})
export class StepTimesExport {
  @Field(() => ID) memberId!: string;
  @Field(() => OnboardingStep, { nullable: true }) currentStep!: OnboardingStep | null;
  @Field(() => DateTimeScalar, { nullable: true }) startedAt!: Date | null;
  @Field(() => [StepTimeExport]) times!: StepTimeExport[];
}

@ObjectType("OnboardingExport", {
  simpleResolvers: true,
  description: "Documents, payments, essays and the oath of the account's records",
})
export class OnboardingExport {
  @Field(() => [RequirementExport]) requirements!: RequirementExport[];
  @Field(() => [PaymentExport]) payments!: PaymentExport[];
  @Field(() => [CoursesExport]) courses!: CoursesExport[];
  @Field(() => [StepTimesExport]) steps!: StepTimesExport[];
}

/** Subject access: everything onboarding keeps of an account. */
export async function exportOnboarding(
  stores: {
    requirementRepository: RequirementRepository;
    paymentRepository: PaymentRepository;
    progressRepository: ProgressRepository;
    members: Pick<MemberOnboardingRecords, "stepTimesOf">;
  },
  files: FileRefs,
  userId: string,
): Promise<OnboardingExport> {
  const [requirements, payments, progress, steps] = await Promise.all([
    stores.requirementRepository.ofUser(userId),
    stores.paymentRepository.ofUser(userId),
    stores.progressRepository.ofUser(userId),
    stores.members.stepTimesOf(userId),
  ]);
  const views =
    requirements.length > 0
      ? await files.describe(
          requirements.map((row) => row.fileId),
          "private",
        )
      : new Map<string, FileView>();
  return {
    requirements: requirements.map((row) => ({
      memberId: row.memberId,
      type: row.type,
      fileId: row.fileId,
      fileName: views.get(row.fileId)?.fileName ?? null,
      reviewStatus: row.reviewStatus,
      reviewNote: row.reviewNote,
      updatedAt: row.updatedAt,
    })),
    payments: payments.map((payment) => ({ memberId: payment._id, ...paymentFields(payment) })),
    courses: progress.map((record) => ({
      memberId: record._id,
      preOrientationCompletedLessonIds: record.preOrientation?.completedLessonIds ?? [],
      chaplaincyCompletedLessonIds: record.chaplaincy?.completedLessonIds ?? [],
      essayAnswers: Object.fromEntries(
        Object.entries(record.chaplaincy?.essayAnswers ?? {}).map(([key, text]) => [
          key.replace(/^q/, ""),
          text,
        ]),
      ),
      oath: record.oath && {
        takenAt: record.oath.takenAt,
        place: record.oath.place,
        officiant: record.oath.officiant,
        recordedAt: record.oath.recordedAt,
      },
      completedAt: record.completedAt,
    })),
    steps,
  };
}
