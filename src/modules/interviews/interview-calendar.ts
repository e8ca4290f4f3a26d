import { registerEnumType } from "type-graphql";
import { calendarDay } from "../../mail/dates";

/*
 * The interview calendar's pure rules. Interviews happen in the organisation's time zone,
 * Asia/Manila, which has kept UTC+8 without daylight saving since 1978: a fixed offset is exact
 * and needs no time-zone database.
 */

export enum Weekday {
  SUNDAY = "SUNDAY",
  MONDAY = "MONDAY",
  TUESDAY = "TUESDAY",
  WEDNESDAY = "WEDNESDAY",
  THURSDAY = "THURSDAY",
  FRIDAY = "FRIDAY",
  SATURDAY = "SATURDAY",
}

registerEnumType(Weekday, { name: "Weekday", description: "A day of the week (Asia/Manila)" });

/** In the order of Date#getUTCDay. */
export const WEEKDAYS: readonly Weekday[] = Object.values(Weekday);

/** The hourly slots an interviewer may offer, as the organisation's client shows them. */
export const TIME_SLOTS: readonly string[] = [
  "08:00 AM",
  "09:00 AM",
  "10:00 AM",
  "11:00 AM",
  "12:00 PM",
  "01:00 PM",
  "02:00 PM",
  "03:00 PM",
  "04:00 PM",
  "05:00 PM",
];

export const MANILA_TIME_ZONE = "Asia/Manila";
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A booking is made at least this long before the interview. */
export const BOOKING_LEAD_MS = 24 * 60 * 60 * 1000;
/** Every interview takes one slot. */
export const INTERVIEW_MINUTES = 60;

export const isTimeSlot = (value: string): boolean => TIME_SLOTS.includes(value);

/** "01:00 PM" → 13. */
export function slotHour(slot: string): number {
  const match = /^(\d{2}):00 (AM|PM)$/.exec(slot);
  if (!match) throw new Error(`not a time slot: ${slot}`);
  const hour = Number(match[1]) % 12;
  return match[2] === "PM" ? hour + 12 : hour;
}

/** Slots in the order of the day, each once. */
export const sortedSlots = (slots: readonly string[]): string[] =>
  [...new Set(slots)].sort((a, b) => slotHour(a) - slotHour(b));

/** Days in the order of the week, each once. */
export const sortedDays = (days: readonly Weekday[]): Weekday[] =>
  WEEKDAYS.filter((day) => days.includes(day));

/** The calendar date in Manila of an instant, `YYYY-MM-DD`. */
export function manilaDateOf(instant: Date): string {
  return new Date(instant.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The day of the week of a calendar date `YYYY-MM-DD`. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];
}

/** The instant a slot of a Manila calendar date starts. */
export function slotStart(date: string, slot: string): Date {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  return new Date(midnight + slotHour(slot) * 60 * 60 * 1000 - MANILA_OFFSET_MS);
}

/** The Manila calendar date `days` after `date`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The next `day` whose `slot` starts at least BOOKING_LEAD_MS after `now`. */
export function nextBookableDate(day: Weekday, slot: string, now: Date): string {
  const earliest = now.getTime() + BOOKING_LEAD_MS;
  const today = manilaDateOf(now);
  for (let offset = 0; ; offset += 1) {
    const date = addDays(today, offset);
    if (weekdayOf(date) === day && slotStart(date, slot).getTime() >= earliest) return date;
  }
}

export interface FreeSlot {
  date: string;
  timeSlot: string;
}

/** The window `freeSlots` looks in: the Manila dates from today to `horizonDays` ahead. */
export function lookAhead(now: Date, horizonDays: number): { from: string; to: string } {
  const from = manilaDateOf(now);
  return { from, to: addDays(from, horizonDays) };
}

/**
 * The first `count` slots an interviewer offers that a booking made `now` could take (the
 * next such day, at least the lead time ahead) and nobody holds: `taken` has `date timeSlot`.
 * Only each weekday's next bookable date counts, as a booking always takes that one.
 */
export function freeSlots(
  offer: { days: readonly Weekday[]; timeSlots: readonly string[] },
  taken: ReadonlySet<string>,
  now: Date,
  count: number,
): FreeSlot[] {
  const free: (FreeSlot & { at: number })[] = [];
  for (const day of offer.days) {
    for (const timeSlot of offer.timeSlots) {
      const date = nextBookableDate(day, timeSlot, now);
      if (taken.has(`${date} ${timeSlot}`)) continue;
      free.push({ date, timeSlot, at: slotStart(date, timeSlot).getTime() });
    }
  }
  return free
    .sort((a, b) => a.at - b.at)
    .slice(0, count)
    .map(({ date, timeSlot }) => ({ date, timeSlot }));
}

/** "Saturday, 5 December 2026 at 09:00 AM (Asia/Manila)". */
export function describeSlot(date: string, slot: string): string {
  return `${calendarDay(date)} at ${slot} (${MANILA_TIME_ZONE})`;
}
