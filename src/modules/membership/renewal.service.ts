import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import type { Clock } from "../../clock";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { noticeMail } from "../../mail/templates";
import type { Caller } from "../auth/caller";
import { manilaDate } from "../../mail/dates";
import type { FileRefs, LinkReader } from "../files/file-refs";
import { PaymentMethod } from "../onboarding/payment.model";
import type { MembershipDeps, RenewalFacts } from "./membership-ports";
import { extendedEnd, reminderDueAt, renewalRefusal } from "./membership-year";
import { RenewalStatus, type RenewalRecord } from "./membership.model";
import type { MembershipTermRepository, RenewalRepository } from "./membership.repository";
import type {
  DecideRenewalArgs,
  MembershipYear,
  Renewal,
  RenewalListArgs,
  SubmitRenewalArgs,
  SubmittedRenewal,
} from "./membership.type";
import type { MembershipService } from "./membership.service";

const NO_YEAR = "Your membership year starts at the oath: there is nothing to renew before it";

/** Asia/Manila is UTC+8 all year. */
const manilaMonth = (instant: Date) =>
  new Date(instant.getTime() + 8 * 3600 * 1000).toISOString().slice(0, 7);

/** Renewals of the membership year: submitted by the member, decided by an administrator. */
export class RenewalService implements RenewalFacts {
  constructor(
    private readonly renewals: RenewalRepository,
    private readonly terms: MembershipTermRepository,
    private readonly membership: MembershipService,
    private readonly deps: MembershipDeps & { files: () => FileRefs },
    private readonly options: {
      clock: Clock;
      termMonths: number;
      fee: { amount: number; currency: string };
    },
  ) {}

  /** GET /members/current/membership: null without an APPROVED record. */
  async current(caller: Caller): Promise<MembershipYear | null> {
    const record = await this.deps.records.currentRecord(caller.id);
    if (!record || record.status !== "APPROVED") return null;
    const [term, standing, latest] = await Promise.all([
      this.membership.termOf(record.memberId),
      this.membership.standingOf(record.memberId),
      this.renewals.latestOf(record.memberId),
    ]);
    const window = this.membership.windowOf(term);
    return {
      memberId: record.memberId,
      standing: standing.standing,
      startedAt: term?.startedAt ?? null,
      membershipExpiresAt: term?.expiresAt ?? null,
      renewalOpensAt: window?.opensAt ?? null,
      renewalClosesAt: window?.closesAt ?? null,
      renewal: latest && (await this.present(latest, caller)),
    };
  }

  /** POST /members/current/renewal: inside the window, one open at a time, with a proof unless CASH. */
  async submit(caller: Caller, args: SubmitRenewalArgs): Promise<Renewal> {
    const record = await this.deps.records.currentRecord(caller.id);
    if (!record || record.status !== "APPROVED") {
      throw new ConflictError("Only an approved member's membership can be renewed");
    }
    const term = await this.terms.ofMember(record.memberId);
    if (!term?.expiresAt) throw new ConflictError(NO_YEAR);
    if (term.revokedAt) {
      throw new ConflictError("Your credentials were revoked: a renewal cannot restore them");
    }
    const refusal = renewalRefusal(term.expiresAt, this.options.clock.now());
    if (refusal) throw new ConflictError(refusal);
    const proof = args.proofFileId ?? args.proofOfPaymentUrl ?? null;
    if (args.paymentMethod !== PaymentMethod.CASH && !proof) {
      throw ValidationError.field("proofOfPaymentUrl", "Attach the proof of your payment");
    }
    const proofFileId = proof
      ? await this.deps.files().claim(proof, {
          ownerId: caller.id,
          purposes: ["PAYMENT_PROOF", "REQUIREMENT"],
          field: args.proofFileId ? "proofFileId" : "proofOfPaymentUrl",
        })
      : null;
    const now = this.options.clock.now();
    const renewal: Omit<RenewalRecord, "createdAt" | "updatedAt"> = {
      _id: uuidv7(),
      memberId: record.memberId,
      userId: record.userId,
      openFor: record.memberId,
      paymentMethod: args.paymentMethod,
      proofFileId,
      amount: this.options.fee.amount,
      currency: this.options.fee.currency,
      status: RenewalStatus.SUBMITTED,
      note: null,
      submittedAt: now,
      decidedAt: null,
      decidedBy: null,
      previousExpiresAt: null,
      extendedTo: null,
      verifiedMonth: null,
    };
    try {
      if ((await this.renewals.insert(renewal)) === DUPLICATE) {
        throw new ConflictError("Your renewal is already submitted and waits for verification");
      }
    } catch (error) {
      if (proofFileId) await this.deps.files().release([proofFileId]);
      throw error;
    }
    return this.present({ ...renewal, createdAt: now, updatedAt: now }, caller);
  }

  /** GET /renewals?status: oldest first, with whose they are. */
  async list(args: RenewalListArgs, reader: LinkReader): Promise<PageResult<SubmittedRenewal>> {
    const { records, total } = await this.renewals.page(args.status, args.page, args.limit);
    const data = await Promise.all(
      records.map(async (row) => {
        const [member, term] = await Promise.all([
          this.deps.records.recordById(row.memberId),
          this.terms.ofMember(row.memberId),
        ]);
        return {
          ...(await this.present(row, reader)),
          uniqueId: member?.uniqueId ?? null,
          fullName: member?.fullName ?? "",
          membershipExpiresAt: term?.expiresAt ?? null,
        };
      }),
    );
    return pageOf(args, data, total);
  }

  /**
   * PATCH /renewals/{id}: VERIFIED extends the year from the later of its end and today and
   * prints the card again; REJECTED needs a note. Either way the member is mailed.
   */
  async decide(caller: Caller, args: DecideRenewalArgs): Promise<Renewal> {
    const note = args.note?.trim() || null;
    if (args.status === RenewalStatus.REJECTED && !note) {
      throw ValidationError.field("note", "Say why the renewal is rejected");
    }
    const renewal = await this.renewals.byId(args.id);
    if (!renewal) throw new NotFoundError("No renewal has this id");
    if (renewal.userId === caller.id) {
      throw new ForbiddenError("An administrator does not decide their own renewal");
    }
    if (renewal.status !== RenewalStatus.SUBMITTED) {
      throw new ConflictError(`This renewal was already ${renewal.status}`);
    }
    const now = this.options.clock.now();
    const term = await this.terms.ofMember(renewal.memberId);
    let extendedTo: Date | null = null;
    if (args.status === RenewalStatus.VERIFIED) {
      if (!term?.expiresAt) throw new ConflictError(NO_YEAR);
      if (term.revokedAt) throw new ConflictError("This member's credentials are revoked");
      extendedTo = extendedEnd(term.expiresAt, now, this.options.termMonths);
    }
    const decided = await this.renewals.decide(renewal._id, {
      status: args.status,
      note,
      decidedAt: now,
      decidedBy: caller.id,
      previousExpiresAt: extendedTo ? (term?.expiresAt ?? null) : null,
      extendedTo,
      verifiedMonth: extendedTo ? manilaMonth(now) : null,
    });
    if (!decided) throw new ConflictError("This renewal was decided meanwhile");
    if (extendedTo && term?.expiresAt) {
      await this.terms.extend(renewal.memberId, term.expiresAt, {
        expiresAt: extendedTo,
        nextReminderAt: reminderDueAt(extendedTo, "DAYS_30"),
      });
      await this.deps.renewCard(renewal.memberId);
    } else if (renewal.proofFileId) {
      await this.deps.files().release([renewal.proofFileId]);
    }
    await this.mailDecision(decided);
    return this.present(decided, caller);
  }

  verifiedByMonth(from: Date, to: Date) {
    return this.renewals.verifiedByMonth(from, to);
  }

  async exportOf(userId: string, reader: LinkReader): Promise<Renewal[]> {
    const rows = await this.renewals.ofUser(userId);
    return Promise.all(rows.map((row) => this.present(row, reader)));
  }

  /** Erasure: the records go, and their proofs back to the sweep. */
  async eraseOf(userId: string): Promise<void> {
    const rows = await this.renewals.ofUser(userId);
    await this.renewals.deleteOfUser(userId);
    const files = rows.flatMap((row) => (row.proofFileId ? [row.proofFileId] : []));
    if (files.length > 0) await this.deps.files().release(files);
  }

  private async mailDecision(renewal: RenewalRecord): Promise<void> {
    const contact = await this.deps.contactOf(renewal.userId);
    if (!contact) return;
    const verified = renewal.status === RenewalStatus.VERIFIED;
    this.deps.mailer.send(
      noticeMail(
        contact.email,
        verified ? "Your membership is renewed" : "Your renewal was not accepted",
        [
          `Hello ${contact.name},`,
          "",
          verified && renewal.extendedTo
            ? `Your renewal payment was verified: your membership is valid until ${manilaDate(renewal.extendedTo)}. Your ID card was printed again with the new date.`
            : `Your renewal payment was not accepted: ${renewal.note ?? ""}`,
        ],
      ),
    );
  }

  private async present(row: RenewalRecord, reader: LinkReader): Promise<Renewal> {
    const views = row.proofFileId
      ? await this.deps.files().describe([row.proofFileId], "private", reader)
      : null;
    return {
      id: row._id,
      memberId: row.memberId,
      paymentMethod: row.paymentMethod,
      proofOfPaymentUrl: row.proofFileId ? (views?.get(row.proofFileId)?.fileUrl ?? null) : null,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      note: row.note,
      submittedAt: row.submittedAt,
      decidedAt: row.decidedAt,
      previousExpiresAt: row.previousExpiresAt,
      extendedTo: row.extendedTo,
    };
  }
}
