import type { MailMessage } from "../../mail/mailer";
import type { AccountIdentity } from "../users/user.repository";
import {
  cancellationMails,
  invitationMails,
  meetingMails,
  outcomeMail,
  reminderMails,
  type InvitationParties,
  type Person,
} from "./interview.mails";
import type { InterviewRecord, InterviewerRecord } from "./interview.model";

export interface NoticeDeps {
  users: { identitiesOf(ids: readonly string[]): Promise<AccountIdentity[]> };
  mailer: { send(message: MailMessage): void; deliver(message: MailMessage): Promise<boolean> };
  /** The sender of the invitations, their organizer. */
  organizer: Person;
}

/**
 * Who is mailed what about a booking: the member at their account's address, the interviewer
 * at the record's own address when it has one. A member whose account is gone is mailed nothing.
 */
export class InterviewNotices {
  constructor(private readonly deps: NoticeDeps) {}

  /** The invitations, and the withdrawal to the interviewer a rebooking took the interview from. */
  async booked(
    booking: InterviewRecord,
    memberName: string,
    interviewer: InterviewerRecord,
    previous: { booking: InterviewRecord; interviewer: InterviewerRecord | null } | null,
  ): Promise<void> {
    const parties = await this.parties(booking, memberName, interviewer);
    if (!parties) return;
    this.send(invitationMails(booking, parties));
    const former = previous?.interviewer;
    if (previous && former && former._id !== interviewer._id) {
      this.send(
        cancellationMails(previous.booking, {
          ...parties,
          interviewer: { name: former.name, email: former.email ?? null },
        }),
      );
    }
  }

  /** The meeting link to both sides, with the invitation updated. */
  async meeting(
    booking: InterviewRecord,
    memberName: string | null,
    interviewer: InterviewerRecord | null,
  ): Promise<void> {
    const parties = await this.parties(booking, memberName, interviewer);
    if (parties) this.send(meetingMails(booking, parties));
  }

  /**
   * The reminder a day before, to both sides, the member's first and waited for: false when it
   * did not go, so the caller can give the reminder back for the next look.
   */
  async reminder(
    booking: InterviewRecord,
    interviewer: InterviewerRecord | null,
  ): Promise<boolean> {
    const parties = await this.parties(booking, null, interviewer);
    if (!parties) return true;
    const [toMember, ...toOthers] = reminderMails(booking, parties);
    if (!(await this.deps.mailer.deliver(toMember))) return false;
    this.send(toOthers);
    return true;
  }

  /** The outcome and the interviewer's note, to the member. */
  async outcome(booking: InterviewRecord, memberName: string | null): Promise<void> {
    const [member] = await this.deps.users.identitiesOf([booking.userId]);
    if (!member) return;
    this.send([outcomeMail(booking, { name: memberName ?? member.name, email: member.email })]);
  }

  private async parties(
    booking: InterviewRecord,
    memberName: string | null,
    interviewer: InterviewerRecord | null,
  ): Promise<InvitationParties | null> {
    const [member] = await this.deps.users.identitiesOf([booking.userId]);
    if (!member) return null;
    return {
      member: { name: memberName ?? member.name, email: member.email },
      interviewer: interviewer
        ? { name: interviewer.name, email: interviewer.email ?? null }
        : { name: "(former interviewer)", email: null },
      organizer: this.deps.organizer,
    };
  }

  private send(messages: MailMessage[]): void {
    for (const message of messages) this.deps.mailer.send(message);
  }
}
