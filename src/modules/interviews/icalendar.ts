/*
 * A small iCalendar writer (RFC 5545) for one event: enough for the invitations mail clients
 * add to a calendar. Lines end in CRLF, long lines are folded at 75 octets, text is escaped.
 */

export interface CalendarPerson {
  name: string;
  email: string;
}

export interface CalendarEvent {
  /** Stable for one booking: a rebooking updates the event a calendar already holds. */
  uid: string;
  /** Grows with each change of the booking, so calendars take the newest. */
  sequence: number;
  start: Date;
  end: Date;
  stamp: Date;
  summary: string;
  description: string;
  location?: string | null;
  url?: string | null;
  organizer: CalendarPerson;
  attendees: CalendarPerson[];
  /** REQUEST invites or updates; CANCEL withdraws the event. */
  method: "REQUEST" | "CANCEL";
}

/** 2026-12-05T01:00:00.000Z → 20261205T010000Z */
export function formatUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** TEXT values: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r?\n/g, "\\n");
}

/** A content line folded into lines of at most 75 octets, never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // Continuation lines start with a space, which counts towards their 75 octets.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** A parameter value: quoted, with the characters RFC 5545 forbids in it dropped. */
const parameter = (value: string) => `"${value.replace(/["\r\n]/g, "")}"`;

/** The calendar text of one event. */
export function calendarOf(event: CalendarEvent): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Chaplaincy Membership//Interviews//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${event.method}`,
    "BEGIN:VEVENT",
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${formatUtc(event.stamp)}`,
    `DTSTART:${formatUtc(event.start)}`,
    `DTEND:${formatUtc(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url.replace(/[\r\n]/g, "")}`] : []),
    `ORGANIZER;CN=${parameter(event.organizer.name)}:mailto:${event.organizer.email}`,
    ...event.attendees.map(
      (person) =>
        `ATTENDEE;CN=${parameter(person.name)};ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:${person.email}`,
    ),
    `STATUS:${event.method === "CANCEL" ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
