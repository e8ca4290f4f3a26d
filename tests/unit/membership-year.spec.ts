import {
  addMonths,
  dueReminder,
  extendedEnd,
  nextReminderAt,
  renewalRefusal,
  Standing,
  standingOf,
  yearEndFrom,
} from "../../src/modules/membership/membership-year";

const DAY = 24 * 60 * 60 * 1000;
const at = (iso: string) => new Date(iso);
const end = at("2027-12-05T00:00:00.000Z");
const daysFrom = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

describe("the membership year", () => {
  it("ends MEMBERSHIP_TERM_MONTHS calendar months after the oath, clamped to the month's end", () => {
    expect(yearEndFrom(at("2026-12-05T00:00:00Z"), 12)).toEqual(end);
    expect(addMonths(at("2026-01-31T00:00:00Z"), 1)).toEqual(at("2026-02-28T00:00:00Z"));
    expect(addMonths(at("2028-02-29T00:00:00Z"), 12)).toEqual(at("2029-02-28T00:00:00Z"));
    expect(addMonths(at("2026-11-30T00:00:00Z"), 3)).toEqual(at("2027-02-28T00:00:00Z"));
  });

  it("may be renewed from 60 days before its end until 90 days after", () => {
    expect(renewalRefusal(end, daysFrom(end, -61))).toMatch(/^Renewal opens 60 days before/);
    expect(renewalRefusal(end, daysFrom(end, -60))).toBeNull();
    expect(renewalRefusal(end, daysFrom(end, 90))).toBeNull();
    expect(renewalRefusal(end, daysFrom(end, 91))).toMatch(/^Renewal closed 90 days after/);
  });

  it("extends from the later of its end and the day of verification", () => {
    expect(extendedEnd(end, daysFrom(end, -20), 12)).toEqual(at("2028-12-05T00:00:00.000Z"));
    const late = at("2028-01-10T03:00:00.000Z");
    expect(extendedEnd(end, late, 12)).toEqual(at("2029-01-10T03:00:00.000Z"));
  });

  it("says REVOKED before anything, CURRENT until the end (and before the oath), then EXPIRED", () => {
    const now = daysFrom(end, -1);
    expect(standingOf(null, now)).toBe(Standing.CURRENT);
    expect(standingOf({ expiresAt: end, revokedAt: null }, now)).toBe(Standing.CURRENT);
    expect(standingOf({ expiresAt: end, revokedAt: null }, end)).toBe(Standing.EXPIRED);
    expect(standingOf({ expiresAt: end, revokedAt: now }, now)).toBe(Standing.REVOKED);
    expect(standingOf({ expiresAt: null, revokedAt: now }, now)).toBe(Standing.REVOKED);
  });

  it("reminds 30 and 7 days before and on the day, the latest due only, each once", () => {
    expect(dueReminder(end, null, daysFrom(end, -31))).toBeNull();
    expect(dueReminder(end, null, daysFrom(end, -30))).toBe("DAYS_30");
    expect(dueReminder(end, "DAYS_30", daysFrom(end, -20))).toBeNull();
    expect(dueReminder(end, "DAYS_30", daysFrom(end, -7))).toBe("DAYS_7");
    // Down through the 30- and 7-day reminders: only the one due now.
    expect(dueReminder(end, null, daysFrom(end, -3))).toBe("DAYS_7");
    expect(dueReminder(end, "DAYS_7", end)).toBe("ON_THE_DAY");
    expect(dueReminder(end, "ON_THE_DAY", daysFrom(end, 10))).toBeNull();
    expect(nextReminderAt(end, null)).toEqual(daysFrom(end, -30));
    expect(nextReminderAt(end, "DAYS_30")).toEqual(daysFrom(end, -7));
    expect(nextReminderAt(end, "DAYS_7")).toEqual(end);
    expect(nextReminderAt(end, "ON_THE_DAY")).toBeNull();
  });
});
