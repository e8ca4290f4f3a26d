import ICAL from "ical.js";
import { calendarOf, escapeText, foldLine } from "../../src/modules/interviews/icalendar";
import {
  freeSlots,
  manilaDateOf,
  nextBookableDate,
  slotHour,
  slotStart,
  sortedSlots,
  Weekday,
} from "../../src/modules/interviews/interview-calendar";

// Thursday 3 December 2026, 10:00 in Manila.
const now = new Date("2026-12-03T02:00:00.000Z");

describe("interview calendar (Asia/Manila)", () => {
  it("reads the client's slots as hours of the day and orders them", () => {
    expect(slotHour("08:00 AM")).toBe(8);
    expect(slotHour("12:00 PM")).toBe(12);
    expect(slotHour("01:00 PM")).toBe(13);
    expect(sortedSlots(["01:00 PM", "09:00 AM", "12:00 PM", "09:00 AM"])).toEqual([
      "09:00 AM",
      "12:00 PM",
      "01:00 PM",
    ]);
  });

  it("places a slot in Manila time (UTC+8) and tells the Manila date of an instant", () => {
    expect(slotStart("2026-12-05", "09:00 AM").toISOString()).toBe("2026-12-05T01:00:00.000Z");
    expect(manilaDateOf(new Date("2026-12-04T16:30:00Z"))).toBe("2026-12-05");
    expect(manilaDateOf(new Date("2026-12-04T15:59:00Z"))).toBe("2026-12-04");
  });

  it("books the next such day at least 24 hours ahead", () => {
    expect(nextBookableDate(Weekday.SATURDAY, "09:00 AM", now)).toBe("2026-12-05");
    // Friday 09:00 is 23 hours away: the Friday after.
    expect(nextBookableDate(Weekday.FRIDAY, "09:00 AM", now)).toBe("2026-12-11");
    // Friday 10:00 is exactly 24 hours away: bookable.
    expect(nextBookableDate(Weekday.FRIDAY, "10:00 AM", now)).toBe("2026-12-04");
    // Today's weekday: next week.
    expect(nextBookableDate(Weekday.THURSDAY, "05:00 PM", now)).toBe("2026-12-10");
  });

  it("lists free slots soonest first, leaving out taken ones", () => {
    const offer = { days: [Weekday.SATURDAY, Weekday.FRIDAY], timeSlots: ["09:00 AM", "10:00 AM"] };
    const taken = new Set(["2026-12-05 09:00 AM"]);
    expect(freeSlots(offer, taken, now, 3)).toEqual([
      { date: "2026-12-04", timeSlot: "10:00 AM" },
      { date: "2026-12-05", timeSlot: "10:00 AM" },
      { date: "2026-12-11", timeSlot: "09:00 AM" },
    ]);
  });
});

describe("iCalendar writer (RFC 5545)", () => {
  it("escapes text and folds long lines at 75 octets without splitting a character", () => {
    expect(escapeText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    const folded = foldLine(`DESCRIPTION:${"é".repeat(80)}`);
    for (const line of folded.split("\r\n"))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, "")).toBe(`DESCRIPTION:${"é".repeat(80)}`);
  });

  it("writes an event a calendar parser reads back with its time, people and text", () => {
    const start = slotStart("2026-12-05", "09:00 AM");
    const text = calendarOf({
      uid: "interview-1@test",
      sequence: 2,
      start,
      end: new Date(start.getTime() + 3_600_000),
      stamp: now,
      summary: "Membership interview: Juan, dela Cruz",
      description: `Online interview.\nMeeting link: https://zoom.us/j/1?pwd=${"x".repeat(90)}`,
      location: "https://zoom.us/j/1",
      organizer: { name: "Chaplaincy", email: "no-reply@example.org" },
      attendees: [
        { name: "Juan", email: "juan@example.org" },
        { name: "Officer", email: "officer@example.org" },
      ],
      method: "REQUEST",
    });
    expect(text.endsWith("\r\n")).toBe(true);
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-05T01:00:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-05T02:00:00.000Z");
    expect(event.summary).toBe("Membership interview: Juan, dela Cruz");
    expect(event.description).toContain("x".repeat(90));
    expect(event.sequence).toBe(2);
    expect(event.attendees.map((a) => a.getFirstValue())).toEqual([
      "mailto:juan@example.org",
      "mailto:officer@example.org",
    ]);
  });
});
