import type { MailMessage } from "../../mail/mailer";
import type { CurrentRecord } from "../onboarding/onboarding-facts";
import type { MonthlyRenewals } from "./membership.repository";
import type { Standing } from "./membership-year";

/** What the membership module reads and asks of the modules around it. */
export interface MembershipDeps {
  /** The caller's current record and records by id (onboarding module). */
  records: {
    currentRecord(userId: string): Promise<CurrentRecord | null>;
    recordById(memberId: string): Promise<CurrentRecord | null>;
  };
  /** The account's name and address, for reminders; null once erased. */
  contactOf(userId: string): Promise<{ name: string; email: string } | null>;
  /** The card printed again with the new "valid until" (credentials module). */
  renewCard(memberId: string): Promise<void>;
  /** Sends and waits: whether the message went (a reminder that did not is looked at again). */
  mailer: { send(message: MailMessage): void; deliver(message: MailMessage): Promise<boolean> };
}

/** The public check's part (members module reads it). */
export interface MembershipStanding {
  standingOf(memberId: string): Promise<{ standing: Standing; validUntil: Date | null }>;
}

/** The card's "valid until" (credentials module reads it). */
export interface MembershipValidity {
  validUntil(memberId: string): Promise<Date | null>;
}

/**
 * Renewal figures for reports: renewals VERIFIED in [from, to), grouped by month of
 * verification (Asia/Manila) and currency, with their count and sum. One aggregation on
 * `{status, decidedAt}`.
 */
export interface RenewalFacts {
  verifiedByMonth(from: Date, to: Date): Promise<MonthlyRenewals[]>;
}
