import { ConflictError, NotFoundError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { oathTakenMail } from "../../mail/onboarding-templates";
import { publicProfileUrl } from "../members/public-url";
import type { Caller } from "../auth/caller";
import type { Logger } from "../../logger";
import type { LinkReader } from "../files/file-refs";
import type { Member } from "../members/member.type";
import type { CredentialFacts, MembershipYearFacts } from "./onboarding-facts";
import type { OnboardingMail } from "./onboarding-mail";
import type { OnboardingRecords } from "./onboarding-members";
import { OnboardingStep } from "./onboarding-steps";
import type { PaymentService } from "./payment.service";
import type { ProgressRepository } from "./progress.repository";
import type { ProgressService } from "./progress.service";
import type { MemberOnboarding, OnboardingListItem } from "./progress.type";
import type { OnboardingListArgs, RecordOathArgs } from "./progress.input";
import type { RequirementService } from "./requirement.service";
import type { TrainingService } from "./training.service";

const OATH_RECORDED = "The oath of this member is already recorded";

/** What administrators see and decide of onboarding: the list, one member whole, the oath. */
export class OnboardingAdminService {
  constructor(
    private readonly records: OnboardingRecords,
    private readonly progress: ProgressService,
    private readonly stored: ProgressRepository,
    private readonly requirements: RequirementService,
    private readonly payments: PaymentService,
    private readonly training: TrainingService,
    private readonly mail: OnboardingMail,
    private readonly atOath: () => {
      credentials: CredentialFacts;
      membershipYear: MembershipYearFacts;
    },
    private readonly log: Logger,
  ) {}

  /** GET /onboarding: APPROVED, active members, newest first, with what each step misses. */
  async list(args: OnboardingListArgs): Promise<PageResult<OnboardingListItem>> {
    const { records, total } = await this.records.members.onboardingPage(
      { step: args.step, search: args.search },
      args.page,
      args.limit,
    );
    const data = await Promise.all(
      records.map(async (record) => {
        const view = await this.progress.progressOf(record);
        return {
          memberId: record.memberId,
          uniqueId: record.uniqueId,
          fullName: record.fullName,
          email: record.email,
          currentStep: view.currentStep,
          completedAt: view.completedAt,
          steps: view.steps,
        };
      }),
    );
    return pageOf(args, data, total);
  }

  /** `member(id)`: the administrator's view of one record (its onboarding is a field of it). */
  /**
   * One record with its whole onboarding. Only this read gathers it: a list of members would
   * otherwise read every step of every record it shows.
   */
  async member(
    memberId: string,
    reader: LinkReader,
  ): Promise<Member & { onboarding: MemberOnboarding | null }> {
    const member = await this.records.members.present(memberId);
    if (!member) throw new NotFoundError("No member record has this id");
    return Object.assign(member, { onboarding: await this.ofMember(memberId, reader) });
  }

  /**
   * `Member.onboarding`: null for a record that has none (not APPROVED, or archived). Its
   * files' links are rendered for `reader`.
   */
  async ofMember(memberId: string, reader: LinkReader): Promise<MemberOnboarding | null> {
    const record = await this.records.members.byId(memberId);
    if (!record || record.status !== "APPROVED") return null;
    const gathered = await this.progress.gather(memberId);
    const [requirements, payment, chaplaincy] = await Promise.all([
      this.requirements.ofMember(memberId, reader),
      this.payments.ofMember(memberId, reader),
      this.training.chaplaincyOf(memberId),
    ]);
    const oath = gathered.progress?.oath ?? null;
    return {
      progress: this.progress.view(record, gathered),
      requirements,
      payment,
      chaplaincy,
      interview: gathered.interview,
      assetsGeneratedAt: gathered.assets?.generatedAt ?? null,
      oath: oath && {
        takenAt: oath.takenAt,
        place: oath.place,
        officiant: oath.officiant,
        recordedAt: oath.recordedAt,
      },
    };
  }

  /**
   * The oath completes onboarding: every other step done and the interview PASSED (else 409
   * naming what is missing); the member becomes an Associate Chaplain and is mailed the
   * certificate.
   */
  async recordOath(caller: Caller, args: RecordOathArgs): Promise<Member> {
    const record = await this.records.onboardingById(args.id);
    const gathered = await this.progress.gather(record.memberId);
    if (gathered.progress?.oath) throw new ConflictError(OATH_RECORDED);
    const open = gathered.states.filter(
      (state) => state.step !== OnboardingStep.OATH_TAKING && !state.done,
    );
    const missing = open.flatMap((state) => state.missing);
    if (gathered.interview?.outcome !== "PASSED")
      missing.push("The member must pass the online interview");
    if (missing.length > 0) {
      throw new ConflictError(`The oath needs every other step done first: ${missing.join("; ")}`);
    }
    const recordedAt = new Date();
    const oath = {
      takenAt: args.takenAt,
      place: args.place.trim(),
      officiant: args.officiant?.trim() || null,
      recordedBy: caller.id,
      recordedAt,
    };
    if (!(await this.stored.recordOath(record, oath))) throw new ConflictError(OATH_RECORDED);
    const member = await this.records.members.completeOnboarding(
      record.memberId,
      OnboardingStep.OATH_TAKING,
    );
    if (!member) throw new ConflictError("The record is no longer APPROVED");
    const { credentials, membershipYear } = this.atOath();
    await membershipYear.start(record, oath.takenAt);
    // The oath stands once recorded: a certificate that fails to render is rendered again by
    // the member's next PUT /members/current/id-generation, and the mail goes without it.
    const certificate = await credentials.issueAtOath(record.memberId).catch((error: unknown) => {
      this.log.error(
        { err: error, memberId: record.memberId },
        "certificate not rendered at the oath",
      );
      return undefined;
    });
    this.mail.toMember(record, (recipient) =>
      oathTakenMail({
        ...recipient,
        uniqueId: record.uniqueId,
        publicUrl: record.uniqueId ? publicProfileUrl(recipient.appUrl, record.uniqueId) : null,
        takenAt: oath.takenAt,
        place: oath.place,
        certificate,
      }),
    );
    return member;
  }
}
