import { DUPLICATE } from "../../db/errors";
import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import type { Logger } from "../../logger";
import type { Mailer } from "../../mail/mailer";
import { applicationWords } from "../../mail/status-words";
import { applicationDecisionMail } from "../../mail/templates";
import { fullNameOf, type MemberRecord } from "./member.model";
import { MemberStatus } from "./member.enums";
import type { UpdateMemberStatusArgs } from "./member.input";
import type { MemberPresenter, MemberReferences } from "./member.presenter";
import type { MemberIdentityRepository } from "./member-identity.repository";
import type { MemberRepository } from "./member.repository";
import { OnboardingStep } from "../onboarding/onboarding-steps";
import type { Member } from "./member.type";
import { publicProfileUrl } from "./public-url";
import type { ChangeFeed } from "../webhooks/change-feed";
import { manilaMonth } from "../reports/report-ports";

const HOLDS_OFFICE = "The member holds an office; end the appointment first";
const OTHER_OPEN = "The applicant already has another pending or approved application";

/** The record of `id`, or the 404 every member operation answers for an unknown id. */
export async function findMember(members: MemberRepository, id: string): Promise<MemberRecord> {
  const record = await members.findById(id);
  if (!record) throw new NotFoundError("No member record has this id");
  return record;
}

/**
 * An administrator's review of a record (status, archive, retrieve) and the office count that
 * keeps a record holding an office where it is. Answers are the administrator's view.
 */
export class MemberReviews {
  constructor(
    private readonly members: MemberRepository,
    private readonly references: MemberReferences,
    private readonly presenter: MemberPresenter,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly appUrl: string,
    /** Lets terms past their end date stop counting (the offices module's side). */
    private readonly releaseLapsedTerms: (memberId: string) => Promise<void>,
    private readonly identities: MemberIdentityRepository,
    /** Tells the organisation's site of a change its public pages show (webhooks). */
    private readonly changes: () => ChangeFeed,
    /** The time onboarding steps are timed by. */
    private readonly now: () => Date,
  ) {}

  /**
   * A review decision. The write is conditional on the state it was decided from, so of two
   * reviewers acting at once only one records a change.
   */
  async updateStatus(caller: Caller, args: UpdateMemberStatusArgs): Promise<Member> {
    const current = await this.findHoldingCurrentOffices(args.id);
    if (current.archivedAt) throw new ConflictError("An archived record cannot change status");
    if (current.status === args.status) {
      throw new ConflictError(`The application already ${applicationWords(args.status)}`);
    }
    if (current.status === MemberStatus.APPROVED && current.activeOffices > 0) {
      throw new ConflictError(HOLDS_OFFICE);
    }
    const reason = args.reason?.trim() || null;
    const entry = { from: current.status, to: args.status, by: caller.id, at: new Date(), reason };
    const approved = args.status === MemberStatus.APPROVED;
    let updated = await this.members.changeStatus(current, {
      entry,
      // Onboarding starts at approval; a record approved again resumes, its times kept.
      ...(approved
        ? {
            onboardingStep: current.onboardingStep ?? OnboardingStep.REQUIREMENTS,
            approvedMonth: manilaMonth(entry.at),
            ...(current.onboardingStep ? {} : { onboardingStartedAt: this.now() }),
          }
        : {}),
    });
    if (updated === DUPLICATE) throw new ConflictError(OTHER_OPEN);
    if (!updated) throw await this.whyRefused(args.id);
    // The first approval gives the record its uniqueId; it keeps it whatever happens after.
    if (approved && !updated.uniqueId) {
      updated = (await this.identities.assign(updated._id, entry.at)) ?? updated;
    }
    if (approved) await this.changes().record("member.approved", publicFieldsOf(updated));
    else if (current.status === MemberStatus.APPROVED)
      await this.changes().record("member.profile_changed", publicFieldsOf(updated));
    if (args.status !== MemberStatus.PENDING) this.mailDecision(updated, reason);
    return this.presenter.presentOne(updated, "admin");
  }

  async archive(id: string): Promise<Member> {
    const current = await this.findHoldingCurrentOffices(id);
    if (current.archivedAt) throw new ConflictError("The record is already archived");
    if (current.activeOffices > 0) throw new ConflictError(HOLDS_OFFICE);
    const updated = await this.members.archive(current, new Date());
    if (!updated) throw await this.whyRefused(id);
    if (updated.uniqueId)
      await this.changes().record("member.archived", {
        id: updated._id,
        uniqueId: updated.uniqueId,
      });
    return this.presenter.presentOne(updated, "admin");
  }

  async retrieve(id: string): Promise<Member> {
    const current = await findMember(this.members, id);
    if (!current.archivedAt) throw new ConflictError("The record is not archived");
    const updated = await this.members.retrieve(current);
    // A change that would open a second application of the same applicant is a 409.
    if (updated === DUPLICATE) throw new ConflictError(OTHER_OPEN);
    if (!updated) throw await this.whyRefused(id);
    if (updated.status === MemberStatus.APPROVED)
      await this.changes().record("member.profile_changed", publicFieldsOf(updated));
    return this.presenter.presentOne(updated, "admin");
  }

  /**
   * For an office appointment: counts one more office held by an APPROVED record that is not
   * archived, atomically, so the record cannot be archived or leave APPROVED meanwhile.
   */
  async reserveForOffice(memberId: string): Promise<{ id: string; userId: string; name: string }> {
    const record = await this.members.reserveForOffice(memberId);
    if (!record) {
      await findMember(this.members, memberId);
      throw new ConflictError(
        "Only an APPROVED member record that is not archived can hold an office",
      );
    }
    return { id: record._id, userId: record.userId, name: fullNameOf(record) };
  }

  /** An appointment ended or was removed: one office fewer held. */
  releaseFromOffice(memberId: string): Promise<void> {
    return this.members.releaseFromOffice(memberId);
  }

  /** The record, its office count left with no term that has already ended. */
  private async findHoldingCurrentOffices(id: string): Promise<MemberRecord> {
    const record = await findMember(this.members, id);
    if (record.activeOffices === 0) return record;
    await this.releaseLapsedTerms(id);
    return findMember(this.members, id);
  }

  /** Why a conditional change found the record no longer in the state it was decided from. */
  private async whyRefused(id: string): Promise<ConflictError> {
    const record = await findMember(this.members, id);
    return new ConflictError(
      record.activeOffices > 0
        ? HOLDS_OFFICE
        : "The record changed meanwhile; reload and try again",
    );
  }

  /** The decision mail goes out in the background; a failure is logged, the decision stands. */
  private mailDecision(record: MemberRecord, reason: string | null): void {
    this.references
      .applicants([record.userId])
      .then(([user]) => {
        if (!user) return;
        this.mailer.send(
          applicationDecisionMail({
            to: user.email,
            // Mails about the membership name the member as the record does.
            name: fullNameOf(record),
            decision: record.status as MemberStatus.APPROVED | MemberStatus.REJECTED,
            reason,
            appUrl: this.appUrl,
            publicUrl: record.uniqueId ? publicProfileUrl(this.appUrl, record.uniqueId) : null,
          }),
        );
      })
      .catch((error: unknown) => this.log.error({ err: error }, "decision mail not sent"));
  }
}

/** What a member change tells the site: what the public credential check shows, no contact. */
function publicFieldsOf(record: MemberRecord) {
  return { id: record._id, uniqueId: record.uniqueId ?? null, fullName: fullNameOf(record) };
}
