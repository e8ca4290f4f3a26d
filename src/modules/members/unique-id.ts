/**
 * The member's organisation-wide id, `POI-<YYYY>-<NNNNN>`, printed on the ID card: YYYY is the year
 * of the first approval in Asia/Manila, NNNNN that year's running number. Pure rules only; the
 * counter and the write are in member-identity.repository.ts.
 */

const MANILA_YEAR = new Intl.DateTimeFormat("en-US", {
  timeZone: "Asia/Manila",
  year: "numeric",
});

/** The calendar year in Asia/Manila at `at` (a Manila New Year's Eve 16:00 UTC is next year). */
export function manilaYear(at: Date): number {
  return Number(MANILA_YEAR.format(at));
}

/** POI-2026-00042; numbers past 99999 keep every digit rather than wrap. */
export function formatUniqueId(year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError("sequence must be ≥ 1");
  return `POI-${year}-${String(sequence).padStart(5, "0")}`;
}

export const UNIQUE_ID_PATTERN = /^POI-\d{4}-\d{5,}$/;
