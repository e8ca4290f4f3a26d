import type { MailMessage } from "../../mail/mailer";
import { noticeMail } from "../../mail/templates";
import { calendarOf, type CalendarEvent } from "./icalendar";
import { describeSlot, INTERVIEW_MINUTES } from "./interview-calendar";
import type { InterviewRecord } from "./interview.model";

export interface Person {
  name: string;
  email: string;
}

/** An interviewer without an address is named in the invitation and mailed nothing. */
export interface InterviewerPerson {
  name: string;
  email: string | null;
}

export interface InvitationParties {
  member: Person;
  interviewer: InterviewerPerson;
  /** The service's sender, the organizer of the event. */
  organizer: Person;
}

function meetingLines(booking: InterviewRecord): string[] {
  return [
    ...(booking.zoomLink ? [`Meeting link: ${booking.zoomLink}`] : []),
    ...(booking.meetingId ? [`Meeting ID: ${booking.meetingId}`] : []),
    ...(booking.passcode ? [`Passcode: ${booking.passcode}`] : []),
  ];
}

function eventOf(
  booking: InterviewRecord,
  parties: InvitationParties,
  method: CalendarEvent["method"],
): CalendarEvent {
  return {
    uid: `interview-${booking._id}@chaplaincy-membership`,
    // A cancellation outranks the invitation it withdraws.
    sequence: booking.sequence + (method === "CANCEL" ? 1 : 0),
    start: booking.scheduledAt,
    end: new Date(booking.scheduledAt.getTime() + INTERVIEW_MINUTES * 60_000),
    stamp: new Date(),
    summary: `Membership interview: ${parties.member.name} with ${parties.interviewer.name}`,
    description: ["Online membership interview.", ...meetingLines(booking)].join("\n"),
    location: booking.zoomLink,
    url: booking.zoomLink,
    organizer: parties.organizer,
    attendees: [parties.member, ...addressed(parties.interviewer)],
    method,
  };
}

const addressed = (person: InterviewerPerson): Person[] =>
  person.email ? [{ name: person.name, email: person.email }] : [];

function withCalendar(message: MailMessage, event: CalendarEvent): MailMessage {
  return {
    ...message,
    attachments: [
      {
        filename: "interview.ics",
        content: calendarOf(event),
        contentType: `text/calendar; method=${event.method}; charset=UTF-8`,
      },
    ],
  };
}

/** One invitation each to the member and the interviewer (when it has an address), the same event attached. */
export function invitationMails(
  booking: InterviewRecord,
  parties: InvitationParties,
): MailMessage[] {
  const when = describeSlot(booking.date, booking.timeSlot);
  const event = eventOf(booking, parties, "REQUEST");
  const member = noticeMail(parties.member.email, "Your membership interview is booked", [
    `Hello ${parties.member.name},`,
    "",
    `Your online interview with ${parties.interviewer.name} is on ${when}.`,
    ...meetingLines(booking),
    "",
    "The attached invitation adds it to your calendar.",
  ]);
  const interviewer = addressed(parties.interviewer).map((to) =>
    noticeMail(to.email, "A membership interview was booked", [
      `Hello ${to.name},`,
      "",
      `${parties.member.name} booked an online interview with you on ${when}.`,
      ...meetingLines(booking),
      "",
      "The attached invitation adds it to your calendar.",
    ]),
  );
  return [member, ...interviewer].map((message) => withCalendar(message, event));
}

/** The meeting link to both sides, with the invitation updated (same UID, higher SEQUENCE). */
export function meetingMails(booking: InterviewRecord, parties: InvitationParties): MailMessage[] {
  const when = describeSlot(booking.date, booking.timeSlot);
  const event = eventOf(booking, parties, "REQUEST");
  const lines = (greeting: string, interview: string) => [
    `Hello ${greeting},`,
    "",
    `The meeting of ${interview} on ${when} is set:`,
    ...meetingLines(booking),
    "",
    "The attached invitation updates the one in your calendar.",
  ];
  const member = noticeMail(
    parties.member.email,
    "The meeting link of your membership interview",
    lines(parties.member.name, `your online interview with ${parties.interviewer.name}`),
  );
  const interviewer = addressed(parties.interviewer).map((to) =>
    noticeMail(
      to.email,
      "The meeting link of a membership interview",
      lines(to.name, `the online interview of ${parties.member.name}`),
    ),
  );
  return [member, ...interviewer].map((message) => withCalendar(message, event));
}

/** To an interviewer (with an address) a rebooking took the interview from: the event withdrawn. */
export function cancellationMails(
  previous: InterviewRecord,
  parties: InvitationParties,
): MailMessage[] {
  const when = describeSlot(previous.date, previous.timeSlot);
  return addressed(parties.interviewer).map((to) =>
    withCalendar(
      noticeMail(to.email, "A membership interview was cancelled", [
        `Hello ${to.name},`,
        "",
        `${parties.member.name} moved the interview of ${when} to another interviewer.`,
      ]),
      eventOf(previous, parties, "CANCEL"),
    ),
  );
}

const OUTCOME_TEXT: Record<InterviewRecord["outcome"], string> = {
  PENDING: "is pending again",
  PASSED: "was passed",
  FAILED: "was not passed",
  NO_SHOW: "was recorded as missed",
};

/** The member is told the outcome and the interviewer's note. */
export function outcomeMail(booking: InterviewRecord, member: Person): MailMessage {
  const when = describeSlot(booking.date, booking.timeSlot);
  return noticeMail(member.email, "The outcome of your membership interview", [
    `Hello ${member.name},`,
    "",
    `Your online interview of ${when} ${OUTCOME_TEXT[booking.outcome]}.`,
    ...(booking.note ? ["", `Note: ${booking.note}`] : []),
  ]);
}

/** The day before: to the member, and to the interviewer when they have an address. */
export function reminderMails(booking: InterviewRecord, parties: InvitationParties): MailMessage[] {
  const when = describeSlot(booking.date, booking.timeSlot);
  const mails = [
    noticeMail(parties.member.email, "Reminder: your membership interview is tomorrow", [
      `Hello ${parties.member.name},`,
      "",
      `Your online interview with ${parties.interviewer.name} is on ${when}.`,
      ...meetingLines(booking),
    ]),
  ];
  if (parties.interviewer.email) {
    mails.push(
      noticeMail(
        parties.interviewer.email,
        `Reminder: interview with ${parties.member.name} tomorrow`,
        [
          `Hello ${parties.interviewer.name},`,
          "",
          `You interview ${parties.member.name} on ${when}.`,
          ...meetingLines(booking),
        ],
      ),
    );
  }
  return mails;
}
