import { ConflictError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import type { OnboardingMember } from "../members/member-onboarding";
import type {
  ApprovedPhoto,
  CredentialFacts,
  CurrentRecord,
  InterviewFacts,
  OnboardingFacts,
} from "./onboarding-facts";
import { hasOnboarding, type OnboardingRecords } from "./onboarding-members";
import { OnboardingStep, refusalOfMove, type StepState } from "./onboarding-steps";
import { PaymentStatus } from "./payment.model";
import type { PaymentService } from "./payment.service";
import type { ProgressRecord } from "./progress.model";
import type { OnboardingProgress } from "./progress.type";
import type { RequirementService } from "./requirement.service";
import { stepStates } from "./step-rules";
import type { TrainingService } from "./training.service";

/** The modules beside onboarding (interviews, credentials), asked on use. */
export type SideFacts = () => { interviews: InterviewFacts; credentials: CredentialFacts };

/** Everything the step rules need of one member, gathered once. */
export interface Gathered {
  states: StepState[];
  progress: ProgressRecord | null;
  interview: Awaited<ReturnType<InterviewFacts["ofMember"]>>;
  assets: Awaited<ReturnType<CredentialFacts["ofMember"]>>;
}

/** The steps, their order and the progress a member and administrators read. */
export class ProgressService implements OnboardingFacts {
  constructor(
    private readonly records: OnboardingRecords,
    private readonly requirements: RequirementService,
    private readonly training: TrainingService,
    private readonly payments: PaymentService,
    private readonly side: SideFacts,
  ) {}

  /** GET /members/current/onboarding-progress: null unless the record is APPROVED and active. */
  async currentProgress(caller: Caller): Promise<OnboardingProgress | null> {
    const record = await this.records.current(caller.id);
    if (!hasOnboarding(record)) return null;
    return this.progressOf(record);
  }

  /** PUT .../step: back is free, forward needs every earlier step done (409 says what). */
  async moveTo(caller: Caller, step: OnboardingStep): Promise<OnboardingProgress> {
    const record = await this.records.currentOnboarding(caller.id);
    const gathered = await this.gather(record.memberId);
    const refusal = refusalOfMove(gathered.states, step);
    if (refusal) throw new ConflictError(refusal);
    if (!(await this.records.members.setStep(record.memberId, step))) {
      throw new ConflictError("Your record is no longer APPROVED; onboarding stopped");
    }
    return this.view({ ...record, onboardingStep: step }, gathered);
  }

  /** The progress of a record by id; null unless it has onboarding. */
  async progressOfId(memberId: string): Promise<OnboardingProgress | null> {
    const record = await this.records.members.byId(memberId);
    return hasOnboarding(record) ? this.progressOf(record) : null;
  }

  async progressOf(record: OnboardingMember): Promise<OnboardingProgress> {
    return this.view(record, await this.gather(record.memberId));
  }

  view(record: OnboardingMember, gathered: Gathered): OnboardingProgress {
    const pre = gathered.progress?.preOrientation;
    return {
      currentStep: record.onboardingStep ?? OnboardingStep.REQUIREMENTS,
      preOrientationCompletedLessonIds: [...(pre?.completedLessonIds ?? [])].sort((a, b) => a - b),
      preOrientationCompletedAt: pre?.completedAt ?? null,
      completedAt: gathered.progress?.completedAt ?? null,
      steps: gathered.states,
    };
  }

  /** Each step's state, from every module that keeps a part of it. */
  async gather(memberId: string): Promise<Gathered> {
    const { interviews, credentials } = this.side();
    const [photo, courses, payment, interview, assets] = await Promise.all([
      this.requirements.photoState(memberId),
      this.training.left(memberId),
      this.payments.status(memberId),
      interviews.ofMember(memberId),
      credentials.ofMember(memberId),
    ]);
    const states = stepStates({
      photo2x2: photo,
      preOrientation: courses.preOrientation,
      payment,
      interview: interview?.outcome ?? null,
      assetsGenerated: assets !== null,
      chaplaincy: courses.chaplaincy,
      oathRecorded: Boolean(courses.record?.oath),
    });
    return { states, progress: courses.record, interview, assets };
  }

  // OnboardingFacts: what the interviews and credentials modules ask of onboarding.

  async currentRecord(userId: string): Promise<CurrentRecord | null> {
    const record = await this.records.current(userId);
    return record && factsOf(record);
  }

  async recordById(memberId: string): Promise<CurrentRecord | null> {
    const record = await this.records.members.byId(memberId);
    return record && factsOf(record);
  }

  async paymentVerified(memberId: string): Promise<boolean> {
    return (await this.payments.status(memberId)) === PaymentStatus.VERIFIED;
  }

  photo2x2(memberId: string): Promise<string | null> {
    return this.requirements.photo2x2(memberId);
  }

  approvedPhoto2x2(memberId: string): Promise<string | null> {
    return this.requirements.approvedPhoto2x2(memberId);
  }

  approvedPhoto(memberId: string): Promise<ApprovedPhoto | null> {
    return this.requirements.approvedPhoto(memberId);
  }

  oathDay(memberId: string): Promise<Date | null> {
    return this.training.oathDay(memberId);
  }
}

function factsOf(record: OnboardingMember): CurrentRecord {
  return {
    memberId: record.memberId,
    userId: record.userId,
    status: record.status,
    uniqueId: record.uniqueId,
    fullName: record.fullName,
    memberType: record.memberType,
    approvedAt: record.approvedAt,
  };
}
