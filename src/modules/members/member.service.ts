import type { FileRefs } from "../files/file-refs";
import type { FieldCipher } from "../../db/field-cipher";
import type { Logger } from "../../logger";
import type { Mailer } from "../../mail/mailer";
import { MemberApplications } from "./member-apply.service";
import type { MemberIdentityRepository } from "./member-identity.repository";
import { MemberOnboardingRecords } from "./member-onboarding";
import { MemberReads } from "./member-read.service";
import { MemberReviews } from "./member-review.service";
import { MemberPresenter, type MemberReferences } from "./member.presenter";
import type { MemberRepository } from "./member.repository";
import type { MemberRecord } from "./member.model";
import type { Member } from "./member.type";
import type { ChangeFeed } from "../webhooks/change-feed";

export type { MemberFilters } from "./member-read.service";

export interface MemberServiceOptions {
  mailer: Mailer;
  log: Logger;
  appUrl: string;
  /** REQUIRE_PRIVACY_CONSENT: an application without privacyConsent is refused. */
  requirePrivacyConsent: boolean;
  /** Lets terms past their end date stop counting (the offices module's side). */
  releaseLapsedTerms: (memberId: string) => Promise<void>;
  /** Gives a record its uniqueId at its first approval. */
  identities: MemberIdentityRepository;
  /** The 2x2 photo may be a stored file (files module). */
  files: () => FileRefs;
  /** Tells the organisation's site of a change its public pages show (webhooks). */
  changes: () => ChangeFeed;
  /** The time onboarding steps are timed by. */
  now: () => Date;
}

/**
 * The members domain, by concern: applying, reviewing, reading; presenting is
 * member.presenter.ts. The resolvers call the concern they need; what other domains rely on
 * (offices, privacy, accounts, the export) is answered here.
 */
export class MemberService {
  readonly applications: MemberApplications;
  readonly reviews: MemberReviews;
  readonly reads: MemberReads;
  /** What the onboarding module reads and changes of member records. */
  readonly onboarding: MemberOnboardingRecords;

  constructor(
    private readonly members: MemberRepository,
    references: MemberReferences,
    cipher: FieldCipher,
    private readonly options: MemberServiceOptions,
  ) {
    const presenter = new MemberPresenter(
      references,
      cipher,
      (keys) => members.duplicateCandidates(keys),
      options.appUrl,
    );
    this.applications = new MemberApplications(
      members,
      references,
      presenter,
      cipher,
      options.requirePrivacyConsent,
      options.files,
    );
    this.reviews = new MemberReviews(
      members,
      references,
      presenter,
      options.mailer,
      options.log,
      options.appUrl,
      options.releaseLapsedTerms,
      options.identities,
      options.changes,
      options.now,
    );
    this.onboarding = new MemberOnboardingRecords(members, references, presenter, options.now);
    this.reads = new MemberReads(members, presenter, cipher);
  }

  reserveForOffice(memberId: string): Promise<{ id: string; userId: string; name: string }> {
    return this.reviews.reserveForOffice(memberId);
  }

  releaseFromOffice(memberId: string): Promise<void> {
    return this.reviews.releaseFromOffice(memberId);
  }

  assertExists(memberId: string): Promise<void> {
    return this.reads.assertExists(memberId);
  }

  isBranchInUse(branchId: string): Promise<boolean> {
    return this.reads.isBranchInUse(branchId);
  }

  exportRecords(...args: Parameters<MemberReads["exportRecords"]>): AsyncGenerator<MemberRecord> {
    return this.reads.exportRecords(...args);
  }

  allOf(userId: string): Promise<Member[]> {
    return this.reads.allOf(userId);
  }

  /** Erasure: an account's member records go with it. */
  async deleteAllOf(userId: string): Promise<void> {
    const shown = await this.members.everApprovedIdsOf(userId);
    await this.members.deleteAllOfUser(userId);
    for (const id of shown) await this.options.changes().record("member.erased", { id });
  }

  /** Search by email follows the account's current address. */
  emailChanged(userId: string, email: string): Promise<void> {
    return this.members.setEmailOfUser(userId, email);
  }
}
