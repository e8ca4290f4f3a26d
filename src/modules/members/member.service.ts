import type { Claims } from "../../db/claims";
import type { Locks } from "../../db/locks";
import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { findByIds } from "../../db/by-ids";
import { oneOf } from "../../db/operators";
import {
  ConflictError,
  EmailNotVerifiedError,
  NotFoundError,
  ValidationError,
} from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { PageArgs } from "../../graphql/paging";
import type { Logger } from "../../logger";
import type { Mailer } from "../../mail/mailer";
import { applicationDecisionMail } from "../../mail/templates";
import type { BranchDirectory } from "../branch-services/branch-directory";
import type { BranchServiceModel } from "../branch-services/branch-service.model";
import type { UserModel, UserRecord } from "../users/user.model";
import { MemberStatus } from "./member.enums";
import type { ApplyArgs, MemberListArgs, UpdateMemberStatusArgs } from "./member.input";
import type { MemberDirectory, MemberQuery } from "./member-directory";
import {
  OPTIONAL_TEXT_FIELDS,
  REQUIRED_TEXT_FIELDS,
  openKeyOf,
  opened,
  sealed,
  type MemberModel,
  type MemberRecord,
} from "./member.model";
import type { FieldCipher } from "../../db/field-cipher";
import { Member, type MemberUser } from "./member.type";

/**
 * The lock a member record's office appointments and its archive and status changes share,
 * so a record cannot be archived or un-approved while an appointment of it is being made.
 */
export const memberLock = (memberId: string) => `member:${memberId}`;

/** Tells whether a member record holds an office now; the offices module provides the real one. */
export type OfficeCheck = (memberId: string) => Promise<boolean>;

/** Membership applications and their review (contract §6). */
export class MemberService {
  constructor(
    private readonly members: MemberModel,
    private readonly directory: MemberDirectory,
    private readonly users: UserModel,
    private readonly branches: BranchServiceModel,
    /** Branch titles for presenting records; a write checks its branch ids in the database. */
    private readonly branchDirectory: BranchDirectory,
    private readonly cipher: FieldCipher,
    private readonly claims: Claims,
    private readonly locks: Locks,
    private readonly holdsOffice: OfficeCheck,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly appUrl: string | undefined,
    /** REQUIRE_PRIVACY_CONSENT: an application without privacyConsent is refused. */
    private readonly requirePrivacyConsent: boolean,
  ) {}

  /** A verified caller applies; a second open application is a 409 (enforced by openKey). */
  async apply(caller: Caller, args: ApplyArgs): Promise<Member> {
    if (!caller.user.isEmailVerified) throw new EmailNotVerifiedError();
    if (this.requirePrivacyConsent && !args.privacyConsent) {
      throw ValidationError.field(
        "privacyConsent",
        "privacyConsent is required: consent to the privacy notice to apply",
      );
    }
    const preferredBranchIds = await this.existingBranches(args.preferredBranchIds ?? []);
    const id = uuidv7();
    // The server's clock, not the client's, dates the application and the consent it carries.
    const receivedAt = new Date();
    const record = new this.members({
      ...this.applicationFields(args, receivedAt),
      _id: id,
      userId: caller.id,
      status: MemberStatus.PENDING,
      preferredBranchIds,
      statusHistory: [
        { from: null, to: MemberStatus.PENDING, by: caller.id, at: receivedAt, reason: null },
      ],
      openKey: openKeyOf({
        _id: id,
        userId: caller.id,
        status: MemberStatus.PENDING,
        archivedAt: null,
      }),
      searchEmail: caller.user.email,
    });
    try {
      await this.directory.write(id, () => record.save());
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        throw new ConflictError("You already have a pending or approved membership application");
      }
      throw error;
    }
    return (await this.present([record.toObject()]))[0];
  }

  async list(args: MemberListArgs): Promise<Omit<Page<Member>, "code" | "message">> {
    const { status, includeArchived, search } = args;
    return this.page({ status, includeArchived, search }, args);
  }

  async listOwn(caller: Caller, args: PageArgs): Promise<Omit<Page<Member>, "code" | "message">> {
    return this.page({ userId: caller.id, includeArchived: true }, args);
  }

  /**
   * A review decision. The write is conditional on the status it was decided from, so two
   * reviewers acting at once cannot both record a change from the same state.
   */
  async updateStatus(caller: Caller, args: UpdateMemberStatusArgs): Promise<Member> {
    const current = await this.find(args.id);
    if (current.archivedAt) throw new ConflictError("An archived record cannot change status");
    if (current.status === args.status) {
      throw new ConflictError(`The record is already ${args.status}`);
    }
    // The decision stays relative to the state read here: change() claims its revision.
    return this.locks.withLock(memberLock(args.id), async () => {
      if (current.status === MemberStatus.APPROVED && (await this.holdsOffice(current._id))) {
        throw new ConflictError(
          "The member holds an office; end the appointment before changing the status",
        );
      }
      return this.decide(caller, current, args);
    });
  }

  private async decide(
    caller: Caller,
    current: MemberRecord,
    args: UpdateMemberStatusArgs,
  ): Promise<Member> {
    const reason = args.reason?.trim() || null;
    const updated = await this.change(
      current,
      {
        $set: { status: args.status, openKey: openKeyOf({ ...current, status: args.status }) },
        $push: {
          statusHistory: {
            from: current.status,
            to: args.status,
            by: caller.id,
            at: new Date(),
            reason,
          },
        },
      },
      "The applicant already has another pending or approved application",
    );
    if (args.status !== MemberStatus.PENDING) this.mailDecision(updated, reason);
    return (await this.present([updated]))[0];
  }

  async archive(id: string): Promise<Member> {
    const current = await this.find(id);
    if (current.archivedAt) throw new ConflictError("The record is already archived");
    return this.locks.withLock(memberLock(id), async () => {
      if (await this.holdsOffice(current._id)) {
        throw new ConflictError(
          "The member holds an office; end the appointment before archiving the record",
        );
      }
      return this.archiveRecord(current);
    });
  }

  private async archiveRecord(current: MemberRecord): Promise<Member> {
    const archivedAt = new Date();
    const updated = await this.change(
      current,
      { $set: { archivedAt, openKey: openKeyOf({ ...current, archivedAt }) } },
      "",
    );
    return (await this.present([updated]))[0];
  }

  async retrieve(id: string): Promise<Member> {
    const current = await this.find(id);
    if (!current.archivedAt) throw new ConflictError("The record is not archived");
    const updated = await this.change(
      current,
      { $set: { archivedAt: null, openKey: openKeyOf({ ...current, archivedAt: null }) } },
      "The applicant already has another pending or approved application",
    );
    return (await this.present([updated]))[0];
  }

  /** For office appointments: an APPROVED record that is not archived, with its name. */
  async appointee(memberId: string): Promise<{ id: string; userId: string; name: string }> {
    const record = await this.find(memberId);
    if (record.archivedAt || record.status !== MemberStatus.APPROVED) {
      throw new ConflictError(
        "Only an APPROVED member record that is not archived can hold an office",
      );
    }
    return {
      id: record._id,
      userId: record.userId,
      name: `${record.firstName} ${record.lastName}`,
    };
  }

  async assertExists(memberId: string): Promise<void> {
    await this.find(memberId);
  }

  /** For the branch-of-service delete rule: does any member record name this branch? */
  async isBranchInUse(branchId: string): Promise<boolean> {
    return this.directory.namesBranch(branchId);
  }

  /**
   * The records a list query selects, all of them, newest first, read a batch at a time: the
   * export streams them out without holding more than one batch of records.
   */
  async *exportRecords(query: MemberQuery, batchSize = 100): AsyncGenerator<MemberRecord> {
    // The selection is fixed first (ids only), so records changing meanwhile are neither
    // skipped nor repeated.
    const { ids } = await this.directory.select(query, 1, Number.MAX_SAFE_INTEGER);
    for (let first = 0; first < ids.length; first += batchSize) {
      const batch = ids.slice(first, first + batchSize);
      for (const record of await findByIds(this.members, batch)) {
        yield opened(record, this.cipher);
      }
    }
  }

  /** Subject access: every application of the account, archived ones and their history included. */
  async allOf(userId: string): Promise<Member[]> {
    const ids = await this.directory.idsOfUser(userId);
    return this.present(await findByIds(this.members, ids));
  }

  /** Erasure: an account's member records go with it. */
  async deleteAllOf(userId: string): Promise<void> {
    for (const id of await this.directory.idsOfUser(userId)) {
      await this.directory.write(id, () => this.members.deleteOne({ _id: id }));
    }
  }

  /** Search by email follows the account's current address. */
  async emailChanged(userId: string, email: string): Promise<void> {
    for (const id of await this.directory.idsOfUser(userId)) {
      await this.directory.write(id, () =>
        this.members.updateOne({ _id: id }, { $set: { searchEmail: email } }),
      );
    }
  }

  /** Loads the directory ahead of the first list (it reads every record once). */
  warmUp(): Promise<void> {
    return this.directory.warmUp();
  }

  private async page(
    query: MemberQuery,
    args: Pick<PageArgs, "page" | "limit">,
  ): Promise<Omit<Page<Member>, "code" | "message">> {
    const { ids, userIds, total } = await this.directory.select(query, args.page, args.limit);
    // A record's account never changes, so the accounts are read alongside the records rather
    // than after them: one round trip to the engine less for every page.
    const [records, applicants] = await Promise.all([
      findByIds(this.members, ids),
      this.readApplicants(userIds),
    ]);
    return {
      data: await this.present(records, applicants),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }

  private async find(id: string): Promise<MemberRecord> {
    const record = await this.members.findById(id).lean();
    if (!record) throw new NotFoundError("No member record has this id");
    return record;
  }

  /**
   * Applies one change to the record as it was read. The change first claims the record's
   * revision, so of two changes decided from the same state exactly one is applied and the
   * other is a 409, on both engines.
   */
  private async change(
    current: MemberRecord,
    update: { $set: Record<string, unknown>; $push?: Record<string, unknown> },
    openConflictMessage: string,
  ): Promise<MemberRecord> {
    const changedMeanwhile = new ConflictError(
      "The record changed meanwhile; reload and try again",
    );
    if (!(await this.claims.take(`member:${current._id}:${current.revision}`))) {
      throw changedMeanwhile;
    }
    return this.directory.write(current._id, async () => {
      try {
        const updated = await this.members
          .findOneAndUpdate(
            { _id: current._id, revision: current.revision },
            { ...update, $inc: { revision: 1 } },
            { returnDocument: "after" },
          )
          .lean();
        if (!updated) throw changedMeanwhile;
        return updated;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // The claimed revision is spent: move past it so the next change can claim its own.
        await this.members.updateOne(
          { _id: current._id, revision: current.revision },
          { $inc: { revision: 1 } },
        );
        throw new ConflictError(openConflictMessage);
      }
    });
  }

  /** The accounts' {name, email, role}: what a record shows of its applicant. */
  private readApplicants(userIds: readonly string[]): Promise<UserRecord[]> {
    return findByIds(this.users, userIds, { name: 1, email: 1, role: 1 });
  }

  /**
   * Records with their applicant's {name, email, role} and their branches' titles. Accounts
   * already read (`applicants`) are not read again.
   */
  private async present(records: MemberRecord[], applicants: UserRecord[] = []): Promise<Member[]> {
    const userById = new Map(applicants.map((user) => [user._id, user] as const));
    const missing = [...new Set(records.map((record) => record.userId))].filter(
      (userId) => !userById.has(userId),
    );
    const branchIds = [...new Set(records.flatMap((record) => record.preferredBranchIds))];
    const [users, branches] = await Promise.all([
      this.readApplicants(missing),
      Promise.all(branchIds.map((id) => this.branchDirectory.get(id))),
    ]);
    for (const user of users) userById.set(user._id, user);
    const titles = new Map(
      branches.flatMap((branch) => (branch ? [[branch._id, branch.title] as const] : [])),
    );
    return records.map((record) => {
      const user = userById.get(record.userId);
      const applicant: MemberUser = user
        ? { name: user.name, email: user.email, role: user.role }
        : { name: "", email: record.searchEmail, role: "MEMBER" as MemberUser["role"] };
      return Member.from(opened(record, this.cipher), applicant, titles);
    });
  }

  /** Every id must name a branch of service; the unknown ones are reported by position. */
  private async existingBranches(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await this.branches.find({ _id: oneOf(unique) }, { _id: 1 }).lean();
    const known = new Set(found.map((branch) => branch._id));
    const problems = ids.flatMap((id, index) =>
      known.has(id)
        ? []
        : [{ path: `preferredBranchIds.${index}`, message: "No branch of service has this id" }],
    );
    if (problems.length > 0) throw new ValidationError(problems);
    return unique;
  }

  private applicationFields(args: ApplyArgs, receivedAt: Date): Partial<MemberRecord> {
    const fields: Record<string, unknown> = {
      civilStatus: args.civilStatus,
      gender: args.gender,
      dateOfBirth: args.dateOfBirth,
      ministerialExperiences: (args.ministerialExperiences ?? []).map((experience) => ({
        roleDescription: experience.roleDescription.trim(),
        yearsApprox: experience.yearsApprox.trim(),
      })),
      characterReferences: (args.characterReferences ?? []).map((reference) => ({
        name: reference.name?.trim() || null,
        positionRelationship: reference.positionRelationship.trim(),
        contactNumber: reference.contactNumber.trim(),
      })),
      signature: args.signature
        ? { type: args.signature.type, signatureData: args.signature.signatureData }
        : null,
      privacyConsent: args.privacyConsent
        ? { noticeVersion: args.privacyConsent.noticeVersion.trim(), consentedAt: receivedAt }
        : null,
    };
    for (const field of REQUIRED_TEXT_FIELDS) fields[field] = args[field].trim();
    for (const field of OPTIONAL_TEXT_FIELDS) fields[field] = args[field]?.trim() || null;
    return sealed(
      fields as Partial<MemberRecord> & Pick<MemberRecord, "sssNumber" | "tinNumber">,
      this.cipher,
    );
  }

  /** The decision mail goes out in the background; a failure is logged, the decision stands. */
  private mailDecision(record: MemberRecord, reason: string | null): void {
    this.users
      .findById(record.userId, { name: 1, email: 1 })
      .lean()
      .then((user) => {
        if (!user) return;
        this.mailer.send(
          applicationDecisionMail({
            to: user.email,
            name: user.name,
            decision: record.status as MemberStatus.APPROVED | MemberStatus.REJECTED,
            reason,
            appUrl: this.appUrl,
          }),
        );
      })
      .catch((error: unknown) => this.log.error({ err: error }, "decision mail not sent"));
  }
}
