import { ConflictError, ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import { paymentDecisionMail } from "../../mail/onboarding-templates";
import { paymentWords } from "../../mail/status-words";
import type { Caller } from "../auth/caller";
import type { FilePurpose, FileRefs, FileView, LinkReader } from "../files/file-refs";
import type { OnboardingMail } from "./onboarding-mail";
import type { OnboardingRecords } from "./onboarding-members";
import { PaymentMethod, PaymentStatus, type PaymentRecord } from "./payment.model";
import type { PaymentRepository } from "./payment.repository";
import type { DecidePaymentArgs, PaymentListArgs, SavePaymentArgs } from "./payment.input";
import type { MembershipPayment, SubmittedPayment } from "./payment.type";

const VERIFIED_STAYS = "Your payment was already verified and cannot be changed";

/** The membership fee: the member reports it, an administrator verifies it. */
export class PaymentService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly records: OnboardingRecords,
    private readonly files: () => FileRefs,
    private readonly mail: OnboardingMail,
    private readonly fee: { amount: number; currency: string },
  ) {}

  /** GET /members/current/payment-checkout: null until one was submitted. */
  async current(caller: Caller): Promise<MembershipPayment | null> {
    const record = await this.records.current(caller.id);
    const payment = record && (await this.payments.findOf(record.memberId));
    return payment ? this.present(payment, caller) : null;
  }

  async save(caller: Caller, args: SavePaymentArgs): Promise<MembershipPayment> {
    const record = await this.records.currentOnboarding(caller.id);
    const before = await this.payments.findOf(record.memberId);
    if (before?.status === PaymentStatus.VERIFIED) throw new ConflictError(VERIFIED_STAYS);
    const isPromissoryNote = args.isPromissoryNote === true;
    const proof = args.proofFileId ?? args.proofOfPaymentUrl ?? null;
    const note = args.promissoryNoteFileId ?? args.promissoryNoteUrl ?? null;
    if (isPromissoryNote && !note) {
      throw ValidationError.field("promissoryNoteUrl", "A promissory note needs its signed file");
    }
    if (!isPromissoryNote && args.paymentMethod !== PaymentMethod.CASH && !proof) {
      throw ValidationError.field("proofOfPaymentUrl", "Attach the proof of your payment");
    }
    // A refusal after a claim hands the files it claimed back (those the payment did not name).
    // The site uploads every member document as REQUIREMENT (its requirementUploader).
    const named = new Set([before?.proofFileId, before?.promissoryNoteFileId]);
    const claimed: string[] = [];
    const claim = async (ref: string | null, purpose: FilePurpose, field: string) => {
      if (!ref) return null;
      const id = await this.files().claim(ref, {
        ownerId: caller.id,
        purposes: [purpose, "REQUIREMENT"],
        field,
      });
      if (!named.has(id)) claimed.push(id);
      return id;
    };
    let saved: PaymentRecord;
    let proofFileId: string | null;
    let promissoryNoteFileId: string | null;
    try {
      proofFileId = await claim(
        proof,
        "PAYMENT_PROOF",
        args.proofFileId ? "proofFileId" : "proofOfPaymentUrl",
      );
      promissoryNoteFileId = isPromissoryNote
        ? await claim(
            note,
            "PROMISSORY_NOTE",
            args.promissoryNoteFileId ? "promissoryNoteFileId" : "promissoryNoteUrl",
          )
        : null;
      saved = await this.submit(record, args, {
        proofFileId,
        isPromissoryNote,
        promissoryNoteFileId,
      });
    } catch (error) {
      if (claimed.length > 0) await this.files().release(claimed);
      throw error;
    }
    const dropped = [before?.proofFileId, before?.promissoryNoteFileId].filter(
      (id): id is string => Boolean(id) && id !== proofFileId && id !== promissoryNoteFileId,
    );
    if (dropped.length > 0) await this.files().release(dropped);
    return this.present(saved, caller);
  }

  /** The submission, unless the payment was VERIFIED meanwhile (409). */
  private async submit(
    record: { memberId: string; userId: string },
    args: SavePaymentArgs,
    files: Pick<PaymentRecord, "proofFileId" | "isPromissoryNote" | "promissoryNoteFileId">,
  ): Promise<PaymentRecord> {
    const saved = await this.payments.submit(record.memberId, {
      userId: record.userId,
      paymentMethod: args.paymentMethod,
      ...files,
      amount: this.fee.amount,
      currency: this.fee.currency,
    });
    if (!saved) throw new ConflictError(VERIFIED_STAYS);
    return saved;
  }

  /** An administrator verifies or rejects a SUBMITTED payment; the member is mailed. */
  async decide(caller: Caller, args: DecidePaymentArgs): Promise<MembershipPayment> {
    const note = args.note?.trim() || null;
    if (args.status === PaymentStatus.REJECTED && !note) {
      throw ValidationError.field(
        "note",
        "Say why the payment is rejected: the member is mailed the note",
      );
    }
    const record = await this.records.byId(args.id);
    const decided = await this.payments.decide(record.memberId, {
      status: args.status,
      reviewNote: note,
      reviewedBy: caller.id,
    });
    if (!decided) {
      const current = await this.payments.findOf(record.memberId);
      throw new ConflictError(
        current
          ? `The payment already ${paymentWords(current.status)}: only a submitted payment is decided`
          : "The member has submitted no payment",
      );
    }
    this.mail.toMember(record, (recipient) =>
      paymentDecisionMail({
        ...recipient,
        status: decided.status,
        note,
        amount: decided.amount,
        currency: decided.currency,
      }),
    );
    return this.present(decided, caller);
  }

  /** GET /payments: one status (SUBMITTED by default), oldest first. */
  async list(args: PaymentListArgs, reader: LinkReader): Promise<PageResult<SubmittedPayment>> {
    const { records, total } = await this.payments.page(args.status, args);
    const members = await this.records.members.byIds(records.map((record) => record._id));
    const data = await Promise.all(
      records.map(async (payment) => {
        const member = members.get(payment._id);
        return {
          ...(await this.present(payment, reader)),
          memberId: payment._id,
          uniqueId: member?.uniqueId ?? null,
          fullName: member?.fullName ?? "",
        };
      }),
    );
    return pageOf(args, data, total);
  }

  async status(memberId: string): Promise<PaymentStatus | null> {
    return (await this.payments.findOf(memberId))?.status ?? null;
  }

  async ofMember(memberId: string, reader: LinkReader): Promise<MembershipPayment | null> {
    const payment = await this.payments.findOf(memberId);
    return payment ? this.present(payment, reader) : null;
  }

  /** The payment with its files' links rendered for `reader`. */
  private async present(payment: PaymentRecord, reader: LinkReader): Promise<MembershipPayment> {
    const ids = [payment.proofFileId, payment.promissoryNoteFileId].filter(
      (id): id is string => id !== null,
    );
    const views =
      ids.length > 0
        ? await this.files().describe(ids, "private", reader)
        : new Map<string, FileView>();
    const urlOf = (id: string | null) => (id ? (views.get(id)?.fileUrl ?? null) : null);
    return {
      ...paymentFields(payment),
      proofOfPaymentUrl: urlOf(payment.proofFileId),
      promissoryNoteUrl: urlOf(payment.promissoryNoteFileId),
    };
  }
}

/** What a payment shows besides its files' links (answers and the subject-access export). */
export function paymentFields(payment: PaymentRecord) {
  return {
    paymentMethod: payment.paymentMethod,
    proofFileId: payment.proofFileId,
    isPromissoryNote: payment.isPromissoryNote,
    promissoryNoteFileId: payment.promissoryNoteFileId,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    reviewNote: payment.reviewNote,
    submittedAt: payment.submittedAt,
    verifiedAt: payment.verifiedAt,
  };
}
