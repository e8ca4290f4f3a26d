import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Clock } from "../../clock";
import { noticeMail } from "../../mail/templates";
import { manilaDate } from "../../mail/dates";
import type { Caller } from "../auth/caller";
import type { MembershipYearFacts } from "../onboarding/onboarding-facts";
import type { MembershipDeps, MembershipStanding, MembershipValidity } from "./membership-ports";
import {
  dueReminder,
  nextReminderAt,
  reminderDueAt,
  renewalWindow,
  Standing,
  standingOf,
  yearEndFrom,
  type ReminderKind,
} from "./membership-year";
import type { MembershipTermRecord } from "./membership.model";
import type { MembershipTermRepository } from "./membership.repository";
import type { CredentialRevocation } from "./membership.type";

/** Terms looked at per batch of the reminder sweep. */
const REMINDER_BATCH = 100;

const SUBJECTS: Record<ReminderKind, string> = {
  DAYS_30: "Your membership ends in 30 days",
  DAYS_7: "Your membership ends in 7 days",
  ON_THE_DAY: "Your membership ends today",
};

/** The membership year: started by the oath, checked in public, revoked, reminded of. */
export class MembershipService
  implements MembershipYearFacts, MembershipStanding, MembershipValidity
{
  constructor(
    private readonly terms: MembershipTermRepository,
    private readonly deps: MembershipDeps,
    private readonly options: { clock: Clock; termMonths: number; appUrl: string },
  ) {}

  async start(member: { memberId: string; userId: string }, oathDay: Date): Promise<Date> {
    const expiresAt = yearEndFrom(oathDay, this.options.termMonths);
    await this.terms.start(member, {
      startedAt: oathDay,
      expiresAt,
      nextReminderAt: reminderDueAt(expiresAt, "DAYS_30"),
    });
    return expiresAt;
  }

  termOf(memberId: string): Promise<MembershipTermRecord | null> {
    return this.terms.ofMember(memberId);
  }

  async validUntil(memberId: string): Promise<Date | null> {
    return (await this.terms.ofMember(memberId))?.expiresAt ?? null;
  }

  async standingOf(memberId: string) {
    const term = await this.terms.ofMember(memberId);
    return {
      standing: standingOf(term, this.options.clock.now()),
      validUntil: term?.expiresAt ?? null,
    };
  }

  /** The window of a term, for the member's view. */
  windowOf(term: MembershipTermRecord | null) {
    return term?.expiresAt ? renewalWindow(term.expiresAt) : null;
  }

  /** Revokes a member's credentials with a reason; the public check says REVOKED from now. */
  async revoke(caller: Caller, memberId: string, reason: string): Promise<CredentialRevocation> {
    const record = await this.deps.records.recordById(memberId);
    if (!record) throw new NotFoundError("No member record has this id");
    if (record.status !== "APPROVED") {
      throw new ConflictError("Only an APPROVED member has credentials to revoke");
    }
    const revoked = await this.terms.revoke(record, {
      revokedAt: this.options.clock.now(),
      revokedReason: reason.trim(),
      revokedBy: caller.id,
    });
    if (!revoked?.revokedAt) {
      throw new ConflictError("This member's credentials are already revoked");
    }
    return {
      memberId,
      standing: Standing.REVOKED,
      revokedAt: revoked.revokedAt,
      reason: revoked.revokedReason ?? reason,
    };
  }

  /**
   * The reminder sweep, run by one replica each time the scheduler looks: each due term is
   * claimed by a conditional update before its mail goes, so a reminder goes once however many
   * replicas look, and one that fell due while none ran goes at the next look. A reminder whose
   * mail could not go is given back (its claim released) and the sweep stops: the mail server
   * is down for the others too, and the next look tries again.
   */
  async sendDueReminders(): Promise<void> {
    const now = this.options.clock.now();
    for (;;) {
      const due = await this.terms.due(now, REMINDER_BATCH);
      if (due.length === 0) return;
      for (const term of due) if (!(await this.remind(term, now))) return;
      if (due.length < REMINDER_BATCH) return;
    }
  }

  /** False when the reminder's mail did not go (its claim is then released). */
  private async remind(term: MembershipTermRecord, now: Date): Promise<boolean> {
    if (!term.expiresAt || term.revokedAt) {
      await this.terms.claimReminder(term, null, null);
      return true;
    }
    const kind = dueReminder(term.expiresAt, term.lastReminder, now);
    const sent = kind ?? term.lastReminder;
    const next = nextReminderAt(term.expiresAt, sent);
    if (!(await this.terms.claimReminder(term, kind, next))) return true;
    if (!kind) return true;
    const contact = await this.deps.contactOf(term.userId);
    if (!contact) return true;
    const { closesAt } = renewalWindow(term.expiresAt);
    const delivered = await this.deps.mailer.deliver(
      noticeMail(contact.email, SUBJECTS[kind], [
        `Hello ${contact.name},`,
        "",
        kind === "ON_THE_DAY"
          ? `Your membership year ends today, ${manilaDate(term.expiresAt)}.`
          : `Your membership year ends on ${manilaDate(term.expiresAt)}.`,
        `Renew it with your payment until ${manilaDate(closesAt)}: ${this.options.appUrl}/membership/renew`,
        "Your ID card is printed again with the new date once an administrator verifies the payment.",
      ]),
    );
    if (!delivered) await this.terms.releaseReminder(term, next);
    return delivered;
  }

  ofUser(userId: string): Promise<MembershipTermRecord[]> {
    return this.terms.ofUser(userId);
  }

  eraseOf(userId: string): Promise<void> {
    return this.terms.deleteOfUser(userId);
  }
}
