import { registerEnumType } from "type-graphql";

/*
 * The rules of the membership year, apart from storage so they have specs of their own: when
 * a year ends, when it may be renewed, what a verified renewal extends it to, what the public
 * check says, and which reminder is due.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A renewal may be submitted from this many days before the end... */
export const RENEWAL_OPENS_DAYS = 60;
/** ...until this many days after it. */
export const RENEWAL_CLOSES_DAYS = 90;

export enum Standing {
  CURRENT = "CURRENT",
  EXPIRED = "EXPIRED",
  REVOKED = "REVOKED",
}
registerEnumType(Standing, {
  name: "Standing",
  description: "What the public check says of a member's credentials",
});

/** `from` plus `months` calendar months; a day the month lacks becomes its last day. */
export function addMonths(from: Date, months: number): Date {
  const result = new Date(from.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The end of the year the oath starts. */
export const yearEndFrom = (oathDay: Date, termMonths: number) => addMonths(oathDay, termMonths);

/** The window a renewal may be submitted in, around the end of the year. */
export function renewalWindow(expiresAt: Date): { opensAt: Date; closesAt: Date } {
  return {
    opensAt: new Date(expiresAt.getTime() - RENEWAL_OPENS_DAYS * DAY_MS),
    closesAt: new Date(expiresAt.getTime() + RENEWAL_CLOSES_DAYS * DAY_MS),
  };
}

/** null when a renewal may be submitted now, else the sentence that says why not. */
export function renewalRefusal(expiresAt: Date, now: Date): string | null {
  const { opensAt, closesAt } = renewalWindow(expiresAt);
  if (now < opensAt) {
    return `Renewal opens ${RENEWAL_OPENS_DAYS} days before your membership ends: from ${opensAt.toISOString().slice(0, 10)}`;
  }
  if (now > closesAt) {
    return `Renewal closed ${RENEWAL_CLOSES_DAYS} days after your membership ended (${closesAt.toISOString().slice(0, 10)}): apply for membership again`;
  }
  return null;
}

/** A verified renewal adds a term to the later of the old end and the day it was verified. */
export function extendedEnd(oldEnd: Date, verifiedAt: Date, termMonths: number): Date {
  return addMonths(oldEnd > verifiedAt ? oldEnd : verifiedAt, termMonths);
}

/** The check's answer: revoked first, then current until the end of the year (before the oath: current). */
export function standingOf(
  term: { expiresAt: Date | null; revokedAt: Date | null } | null,
  now: Date,
): Standing {
  if (term?.revokedAt) return Standing.REVOKED;
  if (!term?.expiresAt || now < term.expiresAt) return Standing.CURRENT;
  return Standing.EXPIRED;
}

export type ReminderKind = "DAYS_30" | "DAYS_7" | "ON_THE_DAY";

/** The reminders of a year, each due this many days before its end, in order. */
export const REMINDERS: readonly { kind: ReminderKind; daysBefore: number }[] = [
  { kind: "DAYS_30", daysBefore: 30 },
  { kind: "DAYS_7", daysBefore: 7 },
  { kind: "ON_THE_DAY", daysBefore: 0 },
];

/** When the reminder of `kind` is due for a year ending at `expiresAt`. */
export const reminderDueAt = (expiresAt: Date, kind: ReminderKind) =>
  new Date(expiresAt.getTime() - REMINDERS.find((r) => r.kind === kind)!.daysBefore * DAY_MS);

/**
 * The reminder to send now for a year ending at `expiresAt`, given the last one sent for that
 * end: the latest one due (a reminder overtaken while nobody looked is skipped, not sent late
 * beside the next), and null when none is due or it already went.
 */
export function dueReminder(
  expiresAt: Date,
  lastSent: ReminderKind | null,
  now: Date,
): ReminderKind | null {
  const due = REMINDERS.filter((r) => reminderDueAt(expiresAt, r.kind) <= now).at(-1);
  if (!due) return null;
  const sentIndex = lastSent ? REMINDERS.findIndex((r) => r.kind === lastSent) : -1;
  return REMINDERS.indexOf(due) > sentIndex ? due.kind : null;
}

/** When the next reminder after `lastSent` falls due; null after the last. */
export function nextReminderAt(expiresAt: Date, lastSent: ReminderKind | null): Date | null {
  const sentIndex = lastSent ? REMINDERS.findIndex((r) => r.kind === lastSent) : -1;
  const next = REMINDERS[sentIndex + 1];
  return next ? reminderDueAt(expiresAt, next.kind) : null;
}
