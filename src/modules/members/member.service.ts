import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
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
import type { FieldCipher } from "../../db/field-cipher";
import { MemberStatus } from "./member.enums";
import type { ApplyArgs, MemberListArgs, UpdateMemberStatusArgs } from "./member.input";
import { applicationFields } from "./member-application";
import { openKeyOf, opened, searchTextOf, type MemberRecord } from "./member.model";
import type { MemberPresenter, MemberReferences } from "./member.presenter";
import type { MemberQuery, MemberRepository } from "./member.repository";
import type { Member } from "./member.type";

/** The filters of GET /members that the export honours too. */
export type MemberFilters = Pick<MemberListArgs, "status" | "includeArchived" | "search">;

const HOLDS_OFFICE = "The member holds an office; end the appointment first";
const OTHER_OPEN = "The applicant already has another pending or approved application";

/** Membership applications and their review (contract §6). */
export class MemberService {
  constructor(
    private readonly members: MemberRepository,
    private readonly references: MemberReferences,
    private readonly presenter: MemberPresenter,
    private readonly cipher: FieldCipher,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly appUrl: string | undefined,
    /** REQUIRE_PRIVACY_CONSENT: an application without privacyConsent is refused. */
    private readonly requirePrivacyConsent: boolean,
    /** Lets terms past their end date stop counting (the offices module's side). */
    private readonly releaseLapsedTerms: () => Promise<void>,
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
    const fields = applicationFields(args, receivedAt, this.cipher);
    try {
      const record = await this.members.insert({
        ...fields,
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
        archivedAt: null,
        activeOffices: 0,
        searchEmail: caller.user.email,
        searchText: searchTextOf(fields, caller.user.email),
      });
      return await this.presentOne(record);
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        throw new ConflictError("You already have a pending or approved membership application");
      }
      throw error;
    }
  }

  list(args: MemberListArgs): Promise<Omit<Page<Member>, "code" | "message">> {
    return this.page(queryOf(args), args);
  }

  listOwn(caller: Caller, args: PageArgs): Promise<Omit<Page<Member>, "code" | "message">> {
    return this.page({ userId: caller.id, includeArchived: true }, args);
  }

  /**
   * A review decision. The write is conditional on the state it was decided from, so of two
   * reviewers acting at once only one records a change.
   */
  async updateStatus(caller: Caller, args: UpdateMemberStatusArgs): Promise<Member> {
    const current = await this.findHoldingCurrentOffices(args.id);
    if (current.archivedAt) throw new ConflictError("An archived record cannot change status");
    if (current.status === args.status) {
      throw new ConflictError(`The record is already ${args.status}`);
    }
    if (current.status === MemberStatus.APPROVED && current.activeOffices > 0) {
      throw new ConflictError(HOLDS_OFFICE);
    }
    const reason = args.reason?.trim() || null;
    const entry = { from: current.status, to: args.status, by: caller.id, at: new Date(), reason };
    const updated = await this.conflictOnDuplicate(
      this.members.changeStatus(current, {
        $set: { status: args.status, openKey: openKeyOf({ ...current, status: args.status }) },
        $push: { statusHistory: entry },
      }),
    );
    if (!updated) throw await this.whyRefused(args.id);
    if (args.status !== MemberStatus.PENDING) this.mailDecision(updated, reason);
    return this.presentOne(updated);
  }

  async archive(id: string): Promise<Member> {
    const current = await this.findHoldingCurrentOffices(id);
    if (current.archivedAt) throw new ConflictError("The record is already archived");
    if (current.activeOffices > 0) throw new ConflictError(HOLDS_OFFICE);
    const archivedAt = new Date();
    const updated = await this.members.archive(id, {
      $set: { archivedAt, openKey: openKeyOf({ ...current, archivedAt }) },
    });
    if (!updated) throw await this.whyRefused(id);
    return this.presentOne(updated);
  }

  async retrieve(id: string): Promise<Member> {
    const current = await this.find(id);
    if (!current.archivedAt) throw new ConflictError("The record is not archived");
    const updated = await this.conflictOnDuplicate(
      this.members.retrieve(id, {
        $set: { archivedAt: null, openKey: openKeyOf({ ...current, archivedAt: null }) },
      }),
    );
    if (!updated) throw await this.whyRefused(id);
    return this.presentOne(updated);
  }

  /**
   * For an office appointment: counts one more office held by an APPROVED record that is not
   * archived, atomically, so the record cannot be archived or leave APPROVED meanwhile.
   */
  async reserveForOffice(memberId: string): Promise<{ id: string; userId: string; name: string }> {
    const record = await this.members.reserveForOffice(memberId);
    if (!record) {
      await this.find(memberId);
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

  /** An appointment ended or was removed: one office fewer held. */
  releaseFromOffice(memberId: string): Promise<void> {
    return this.members.releaseFromOffice(memberId);
  }

  async assertExists(memberId: string): Promise<void> {
    await this.find(memberId);
  }

  /** For the branch-of-service delete rule: does any member record name this branch? */
  isBranchInUse(branchId: string): Promise<boolean> {
    return this.members.namesBranch(branchId);
  }

  /** The records a list selects, all of them, newest first, streamed from the database. */
  async *exportRecords(filters: MemberFilters, batchSize = 100): AsyncGenerator<MemberRecord> {
    for await (const record of this.members.stream(queryOf(filters), batchSize)) {
      yield opened(record, this.cipher);
    }
  }

  /** Subject access: every application of the account, archived ones and their history included. */
  async allOf(userId: string): Promise<Member[]> {
    return this.presenter.present(await this.members.ofUser(userId));
  }

  /** Erasure: an account's member records go with it. */
  deleteAllOf(userId: string): Promise<void> {
    return this.members.deleteAllOfUser(userId);
  }

  /** Search by email follows the account's current address. */
  emailChanged(userId: string, email: string): Promise<void> {
    return this.members.setEmailOfUser(userId, email);
  }

  private async page(
    query: MemberQuery,
    args: Pick<PageArgs, "page" | "limit">,
  ): Promise<Omit<Page<Member>, "code" | "message">> {
    const { records, total } = await this.members.page(query, args.page, args.limit);
    return {
      data: await this.presenter.present(records),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }

  private async find(id: string): Promise<MemberRecord> {
    const record = await this.members.findById(id);
    if (!record) throw new NotFoundError("No member record has this id");
    return record;
  }

  /** The record, its office count left with no term that has already ended. */
  private async findHoldingCurrentOffices(id: string): Promise<MemberRecord> {
    const record = await this.find(id);
    if (record.activeOffices === 0) return record;
    await this.releaseLapsedTerms();
    return this.find(id);
  }

  /** Why a conditional change found the record no longer in the state it was decided from. */
  private async whyRefused(id: string): Promise<ConflictError> {
    const record = await this.find(id);
    return new ConflictError(
      record.activeOffices > 0
        ? HOLDS_OFFICE
        : "The record changed meanwhile; reload and try again",
    );
  }

  /** A change that would open a second application of the same applicant is a 409. */
  private async conflictOnDuplicate<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ConflictError(OTHER_OPEN);
      throw error;
    }
  }

  private async presentOne(record: MemberRecord): Promise<Member> {
    return (await this.presenter.present([record]))[0];
  }

  /** Every id must name a branch of service; the unknown ones are reported by position. */
  private async existingBranches(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const known = await this.references.existingBranchIds(unique);
    const problems = ids.flatMap((id, index) =>
      known.has(id)
        ? []
        : [{ path: `preferredBranchIds.${index}`, message: "No branch of service has this id" }],
    );
    if (problems.length > 0) throw new ValidationError(problems);
    return unique;
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

/** The repository's query for GET /members' filters. */
function queryOf(filters: MemberFilters): MemberQuery {
  return {
    status: filters.status,
    includeArchived: filters.includeArchived === true,
    search: filters.search,
  };
}
