import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { MemberOnboardingRecords, OnboardingMember } from "../members/member-onboarding";

/** What onboarding reads and changes of member records (the members module's side). */
export type OnboardingMembers = Pick<
  MemberOnboardingRecords,
  | "currentOf"
  | "byId"
  | "byIds"
  | "setStep"
  | "completeOnboarding"
  | "onboardingPage"
  | "contactOf"
  | "present"
  | "stepTimesOf"
>;

const NOT_ONBOARDING =
  "Onboarding starts once your membership application is approved; this record is not APPROVED";

/** Whether a record has onboarding: APPROVED and not archived: onboarding starts at approval. */
export const hasOnboarding = (record: OnboardingMember | null): record is OnboardingMember =>
  record !== null && record.status === "APPROVED" && !record.archived;

/**
 * The record `/members/current/...` means, and the record an administrator names, each with
 * the refusal every onboarding operation gives when it has no onboarding.
 */
export class OnboardingRecords {
  constructor(private readonly membersModule: () => OnboardingMembers) {}

  /** The members module's side of member records, asked on use. */
  get members(): OnboardingMembers {
    return this.membersModule();
  }

  /** The caller's latest record that is not archived, or null. */
  current(userId: string): Promise<OnboardingMember | null> {
    return this.members.currentOf(userId);
  }

  /** The caller's record, which must be APPROVED (409 otherwise, also without one). */
  async currentOnboarding(userId: string): Promise<OnboardingMember> {
    const record = await this.members.currentOf(userId);
    if (!record) {
      throw new ConflictError(
        "Apply for membership first: onboarding follows an approved application",
      );
    }
    if (!hasOnboarding(record)) throw new ConflictError(NOT_ONBOARDING);
    return record;
  }

  /** A record by id: 404 when unknown. */
  async byId(memberId: string): Promise<OnboardingMember> {
    const record = await this.members.byId(memberId);
    if (!record) throw new NotFoundError("No member record has this id");
    return record;
  }

  /** A record by id that has onboarding: 404 when unknown, 409 when not APPROVED or archived. */
  async onboardingById(memberId: string): Promise<OnboardingMember> {
    const record = await this.byId(memberId);
    if (!hasOnboarding(record)) {
      throw new ConflictError("Only an APPROVED member record that is not archived has onboarding");
    }
    return record;
  }

  /**
   * Mail to the member goes to their account (null when it is gone), addressed by the record's
   * full name as every membership mail names them.
   */
  async contactOf(record: OnboardingMember) {
    const contact = await this.members.contactOf(record.userId);
    return contact && { ...contact, name: record.fullName };
  }
}
