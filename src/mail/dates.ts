/**
 * The one way mails and credentials write a day: "28 November 2026", in Asia/Manila (UTC+8 all
 * year, no daylight saving since 1978), whatever the server's own time zone and locale.
 */

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The instant as a UTC date whose fields are Manila's wall clock. */
export const inManila = (instant: Date): Date => new Date(instant.getTime() + MANILA_OFFSET_MS);

/** "28 November 2026": the day of `instant` in Asia/Manila. */
export function manilaDate(instant: Date): string {
  const date = inManila(instant);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** "Saturday, 5 December 2026": a calendar day given as YYYY-MM-DD (already Manila's). */
export function calendarDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
