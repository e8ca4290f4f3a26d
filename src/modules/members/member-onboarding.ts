import type { FoundPage } from "../../db/page-query";
import { ConflictError } from "../../errors/app-errors";
import type { CurrentRecord } from "../onboarding/onboarding-facts";
import { OnboardingStep } from "../onboarding/onboarding-steps";
import { stepsMovedPast } from "../onboarding/step-times";
import { MemberStatus, MemberType } from "./member.enums";
import { fullNameOf, type MemberRecord } from "./member.model";
import type { MemberPresenter, MemberReferences } from "./member.presenter";
import type { MemberRepository, OnboardingChange } from "./member.repository";
import type { Member } from "./member.type";

/** A member record as the onboarding module reads it. */
export interface OnboardingMember extends CurrentRecord {
  archived: boolean;
  onboardingStep: OnboardingStep | null;
}

/**
 * What the onboarding module may read and change of member records: the record a member's
 * `/members/current/...` means, the step they are on, and the member type the oath gives.
 */
export class MemberOnboardingRecords {
  constructor(
    private readonly members: MemberRepository,
    private readonly references: MemberReferences,
    private readonly presenter: MemberPresenter,
    /** The time onboarding steps are timed by. */
    private readonly now: () => Date,
  ) {}

  async currentOf(userId: string): Promise<OnboardingMember | null> {
    const record = await this.members.currentOfUser(userId);
    return record && viewOf(record);
  }

  async byId(memberId: string): Promise<OnboardingMember | null> {
    const record = await this.members.findById(memberId);
    return record && viewOf(record);
  }

  /** The records of these ids that exist, by id. */
  async byIds(memberIds: readonly string[]): Promise<Map<string, OnboardingMember>> {
    const records = await this.members.findByIds(memberIds);
    return new Map(records.map((record) => [record._id, viewOf(record)] as const));
  }

  /** False when the record is no longer APPROVED and active. */
  async setStep(memberId: string, step: OnboardingStep): Promise<boolean> {
    return (await this.move(memberId, step, { onboardingStep: step })) !== null;
  }

  /** The oath: the member becomes an Associate Chaplain on the last step, every step passed. */
  async completeOnboarding(memberId: string, lastStep: OnboardingStep): Promise<Member | null> {
    const record = await this.move(memberId, "DONE", {
      memberType: MemberType.ASSOCIATE_CHAPLAIN,
      onboardingStep: lastStep,
    });
    return record && this.presenter.presentOne(record, "admin");
  }

  /**
   * One conditional update from the record as read: the step it is on and the times of the
   * steps moved past for the first time. A move beside it makes the update miss; it is read
   * again, so each step's time is written once, by whichever move passed it first.
   */
  private async move(
    memberId: string,
    to: OnboardingStep | "DONE",
    changes: OnboardingChange,
  ): Promise<MemberRecord | null> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const record = await this.members.findById(memberId);
      if (!record || record.status !== MemberStatus.APPROVED || record.archivedAt) return null;
      const taken = stepsMovedPast(
        { startedAt: record.onboardingStartedAt ?? null, taken: record.onboardingTimes ?? [] },
        record.onboardingStep ?? OnboardingStep.REQUIREMENTS,
        to,
        this.now(),
      );
      const moved = await this.members.moveOnboarding(record, changes, taken);
      if (moved) return moved;
    }
    throw new ConflictError("The onboarding changed while this was saved; try again");
  }

  async onboardingPage(
    query: { step?: OnboardingStep | null; search?: string | null },
    page: number,
    limit: number,
  ): Promise<FoundPage<OnboardingMember & { email: string }>> {
    const { records, total } = await this.members.onboardingPage(query, page, limit);
    return {
      records: records.map((record) => ({ ...viewOf(record), email: record.searchEmail })),
      total,
    };
  }

  /** Where the member's mail goes: the account's name and address. */
  async contactOf(userId: string): Promise<{ name: string; email: string } | null> {
    const [user] = await this.references.applicants([userId]);
    return user ? { name: user.name, email: user.email } : null;
  }

  /** Subject access: each record's onboarding times (when it began, each step left). */
  async stepTimesOf(userId: string) {
    const records = await this.members.ofUser(userId);
    return records
      .filter((record) => record.onboardingStep)
      .map((record) => ({
        memberId: record._id,
        currentStep: record.onboardingStep ?? null,
        startedAt: record.onboardingStartedAt ?? null,
        times: record.onboardingTimes ?? [],
      }));
  }

  async present(memberId: string): Promise<Member | null> {
    const record = await this.members.findById(memberId);
    return record && this.presenter.presentOne(record, "admin");
  }
}

function viewOf(record: MemberRecord): OnboardingMember {
  const approval = record.statusHistory.find((entry) => entry.to === MemberStatus.APPROVED);
  return {
    memberId: record._id,
    userId: record.userId,
    status: record.status,
    uniqueId: record.uniqueId ?? null,
    fullName: fullNameOf(record),
    memberType: record.memberType ?? null,
    approvedAt: approval?.at ?? null,
    archived: record.archivedAt !== null,
    onboardingStep: record.onboardingStep ?? null,
  };
}
