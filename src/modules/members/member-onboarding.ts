import type { FoundPage } from "../../db/page-query";
import type { CurrentRecord } from "../onboarding/onboarding-facts";
import type { OnboardingStep } from "../onboarding/onboarding-steps";
import { MemberStatus, MemberType } from "./member.enums";
import { fullNameOf, type MemberRecord } from "./member.model";
import type { MemberPresenter, MemberReferences } from "./member.presenter";
import type { MemberRepository } from "./member.repository";
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
    return (
      (await this.members.setOnboarding(memberId, { $set: { onboardingStep: step } })) !== null
    );
  }

  /** The oath: the member becomes an Associate Chaplain on the last step. */
  async completeOnboarding(memberId: string, lastStep: OnboardingStep): Promise<Member | null> {
    const record = await this.members.setOnboarding(memberId, {
      $set: { memberType: MemberType.ASSOCIATE_CHAPLAIN, onboardingStep: lastStep },
    });
    return record && this.presenter.presentOne(record, "admin");
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
