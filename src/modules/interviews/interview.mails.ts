import type { MailMessage } from "../../mail/mailer";
import { noticeMail } from "../../mail/templates";
import { calendarOf, type CalendarEvent } from "./icalendar";
import { describeSlot, INTERVIEW_MINUTES } from "./interview-calendar";
import type { InterviewRecord } from "./interview.model";

export interface Person {
  name: string;
  email: string;
}

export interface InvitationParties {
  member: Person;
  interviewer: Person;
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
    attendees: [parties.member, parties.interviewer],
    method,
  };
}

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

/** One invitation each to the member and the interviewer, the same event attached. */
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
  const interviewer = noticeMail(parties.interviewer.email, "A membership interview was booked", [
    `Hello ${parties.interviewer.name},`,
    "",
    `${parties.member.name} booked an online interview with you on ${when}.`,
    ...meetingLines(booking),
    "",
    "The attached invitation adds it to your calendar.",
  ]);
  return [withCalendar(member, event), withCalendar(interviewer, event)];
}

/** To an interviewer a rebooking took the interview from: the event withdrawn. */
export function cancellationMail(
  previous: InterviewRecord,
  parties: InvitationParties,
): MailMessage {
  const when = describeSlot(previous.date, previous.timeSlot);
  const message = noticeMail(parties.interviewer.email, "A membership interview was cancelled", [
    `Hello ${parties.interviewer.name},`,
    "",
    `${parties.member.name} moved the interview of ${when} to another interviewer.`,
  ]);
  return withCalendar(message, eventOf(previous, parties, "CANCEL"));
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
    ...(booking.zoomLink && booking.outcome === "PENDING"
      ? [`Meeting link: ${booking.zoomLink}`]
      : []),
  ]);
}
