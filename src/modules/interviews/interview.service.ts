import { isDuplicateKeyError } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "../../errors/app-errors";
import { DATE_INPUT_FORMS, parseDateInput } from "../../graphql/date-time";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { MailMessage } from "../../mail/mailer";
import type { Caller } from "../auth/caller";
import type {
  CurrentRecord,
  InterviewFacts,
  OnboardingFacts,
} from "../onboarding/onboarding-facts";
import { Role } from "../users/role";
import type { AccountIdentity } from "../users/user.repository";
import {
  freeSlots,
  lookAhead,
  manilaDateOf,
  nextBookableDate,
  slotStart,
  sortedDays,
  sortedSlots,
} from "./interview-calendar";
import type {
  BookInterviewArgs,
  RecordOutcomeArgs,
  ScheduleArgs,
  SetInterviewerArgs,
} from "./interview.input";
import { cancellationMail, invitationMails, outcomeMail, type Person } from "./interview.mails";
import type { InterviewRecord, InterviewerRecord } from "./interview.model";
import type { InterviewRepository } from "./interview.repository";
import { Interviewer, OnlineInterview } from "./interview.type";

/** A date argument as a Manila calendar date; a calendar date stays the day it names. */
function manilaDateArg(path: string, value: string | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const date = parseDateInput(value);
  if (!date) throw ValidationError.field(path, `${path} must be ${DATE_INPUT_FORMS}`);
  return manilaDateOf(date);
}

/** How many free slots GET /interviewers shows of each interviewer. */
const NEXT_FREE_COUNT = 10;
/** The next bookable date of each weekday lies within this many days. */
const HORIZON_DAYS = 8;
const INTERVIEWER_ROLES: readonly Role[] = [Role.OFFICER, Role.ADMIN];

export interface InterviewDeps {
  users: { identitiesOf(ids: readonly string[]): Promise<AccountIdentity[]> };
  onboarding: () => OnboardingFacts;
  mailer: { send(message: MailMessage): void };
  /** The sender of the invitations, their organizer. */
  organizer: Person;
}

/** Interviewers' offers, members' bookings and their outcomes (contract §11, Interview). */
export class InterviewService implements InterviewFacts {
  constructor(
    private readonly repository: InterviewRepository,
    private readonly deps: InterviewDeps,
  ) {}

  async setInterviewer(args: SetInterviewerArgs, now = new Date()): Promise<Interviewer> {
    const account = await this.account(args.userId);
    if (!account) throw new NotFoundError(`No account with id ${args.userId}`);
    if (!INTERVIEWER_ROLES.includes(account.role)) {
      throw new ConflictError(
        "Only officers and administrators can interview; change the role first",
      );
    }
    if (args.active && (args.days.length === 0 || args.timeSlots.length === 0)) {
      const path = args.days.length === 0 ? "days" : "timeSlots";
      throw ValidationError.field(path, `An active interviewer offers at least one of ${path}`);
    }
    const record = await this.repository.saveInterviewer(args.userId, {
      active: args.active,
      days: sortedDays(args.days),
      timeSlots: sortedSlots(args.timeSlots),
    });
    const [view] = await this.present([record], [account], now);
    return view;
  }

  /** The active interviewers whose accounts still may interview, with their free slots. */
  async interviewers(now = new Date()): Promise<Interviewer[]> {
    const records = await this.repository.activeInterviewers();
    const accounts = await this.deps.users.identitiesOf(records.map((record) => record._id));
    return this.present(records, accounts, now);
  }

  async currentOf(userId: string): Promise<OnlineInterview | null> {
    const record = await this.deps.onboarding().currentRecord(userId);
    if (!record) return null;
    const booking = await this.repository.ofMember(record.memberId);
    return booking && this.view(booking, record.fullName);
  }

  async book(caller: Caller, args: BookInterviewArgs, now = new Date()): Promise<OnlineInterview> {
    const record = await this.deps.onboarding().currentRecord(caller.id);
    if (!record || record.status !== "APPROVED") {
      throw new ConflictError("Only an approved membership application has an interview to book");
    }
    const [offer, interviewer] = await Promise.all([
      this.repository.findInterviewer(args.interviewerId),
      this.account(args.interviewerId),
    ]);
    if (!offer?.active || !interviewer || !INTERVIEWER_ROLES.includes(interviewer.role)) {
      throw new NotFoundError(`No active interviewer with id ${args.interviewerId}`);
    }
    if (interviewer._id === caller.id) throw new ConflictError("You cannot interview yourself");
    if (!offer.days.includes(args.day) || !offer.timeSlots.includes(args.timeSlot)) {
      throw new ConflictError(
        `${interviewer.name} does not interview on ${args.day} at ${args.timeSlot}; see GET /interviewers`,
      );
    }
    const previous = await this.repository.ofMember(record.memberId);
    if (previous?.outcome === "PASSED") {
      throw new ConflictError("Your interview was passed already; it cannot be booked again");
    }
    const date = nextBookableDate(args.day, args.timeSlot, now);
    const booking = await this.take(record, {
      userId: record.userId,
      interviewerId: offer._id,
      day: args.day,
      date,
      timeSlot: args.timeSlot,
      scheduledAt: slotStart(date, args.timeSlot),
      zoomLink: args.zoomLink ?? null,
      meetingId: args.meetingId ?? null,
      passcode: args.passcode ?? null,
      confirmedAt: now,
    });
    await this.mailInvitations(booking, previous, record, interviewer);
    return this.view(booking, record.fullName, interviewer.name);
  }

  /** The booking's interviewer or an administrator records how it went; the member is mailed. */
  async recordOutcome(caller: Caller, args: RecordOutcomeArgs, now = new Date()) {
    const booking = await this.repository.ofMember(args.id);
    if (!booking) throw new NotFoundError(`No interview is booked for member ${args.id}`);
    if (caller.role !== Role.ADMIN && caller.id !== booking.interviewerId) {
      throw new ForbiddenError(
        "Only the member's interviewer or an administrator records the outcome",
      );
    }
    const decided = await this.repository.decide(args.id, {
      outcome: args.outcome,
      note: args.note?.trim() || null,
      decidedAt: now,
      decidedBy: caller.id,
      ...(args.zoomLink ? { zoomLink: args.zoomLink } : {}),
    });
    if (!decided) throw new NotFoundError(`No interview is booked for member ${args.id}`);
    const [record, [member]] = await Promise.all([
      this.deps.onboarding().recordById(args.id),
      this.deps.users.identitiesOf([decided.userId]),
    ]);
    if (member) {
      this.deps.mailer.send(
        outcomeMail(decided, { name: record?.fullName ?? member.name, email: member.email }),
      );
    }
    return this.view(decided, record?.fullName ?? null);
  }

  /** By date and time; an officer sees the interviews they hold. */
  async schedule(
    caller: Caller,
    args: ScheduleArgs,
  ): Promise<Omit<Page<OnlineInterview>, "code" | "message">> {
    let interviewerId = args.interviewerId;
    if (caller.role !== Role.ADMIN) {
      if (interviewerId && interviewerId !== caller.id) {
        throw new ForbiddenError("Officers see the interviews they hold only");
      }
      interviewerId = caller.id;
    }
    const { records, total } = await this.repository.schedule({
      page: args.page,
      limit: args.limit,
      from: manilaDateArg("from", args.from),
      to: manilaDateArg("to", args.to),
      interviewerId,
    });
    const members = await Promise.all(
      records.map((booking) => this.deps.onboarding().recordById(booking.memberId)),
    );
    const data = await Promise.all(
      records.map((booking, index) => this.view(booking, members[index]?.fullName ?? null)),
    );
    return { data, pagination: Pagination.of(args.page, args.limit, total) };
  }

  /** InterviewFacts: the member's current booking. */
  async ofMember(memberId: string) {
    const booking = await this.repository.ofMember(memberId);
    return booking && { outcome: booking.outcome, scheduledAt: booking.scheduledAt };
  }

  /** Subject access: the account's bookings as a member, with the interviewers' notes. */
  async exportOf(userId: string): Promise<OnlineInterview[]> {
    const bookings = await this.repository.ofUser(userId);
    return Promise.all(bookings.map((booking) => this.view(booking, null)));
  }

  /** Erasure: the account's bookings (notes included) and its interviewer profile. */
  eraseOf(userId: string): Promise<void> {
    return this.repository.deleteOfUser(userId);
  }

  private async take(
    record: CurrentRecord,
    booking: Parameters<InterviewRepository["book"]>[2],
  ): Promise<InterviewRecord> {
    try {
      return await this.repository.book(record.memberId, uuidv7(), booking);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      throw new ConflictError(
        `${booking.timeSlot} on ${booking.date} was just taken; choose another slot`,
      );
    }
  }

  private async mailInvitations(
    booking: InterviewRecord,
    previous: InterviewRecord | null,
    record: CurrentRecord,
    interviewer: AccountIdentity,
  ): Promise<void> {
    const [member] = await this.deps.users.identitiesOf([record.userId]);
    if (!member) return;
    const parties = {
      member: { name: record.fullName, email: member.email },
      interviewer: { name: interviewer.name, email: interviewer.email },
      organizer: this.deps.organizer,
    };
    for (const message of invitationMails(booking, parties)) this.deps.mailer.send(message);
    if (previous && previous.interviewerId !== booking.interviewerId) {
      const [former] = await this.deps.users.identitiesOf([previous.interviewerId]);
      if (former) {
        this.deps.mailer.send(
          cancellationMail(previous, {
            ...parties,
            interviewer: { name: former.name, email: former.email },
          }),
        );
      }
    }
  }

  private async present(
    records: InterviewerRecord[],
    accounts: AccountIdentity[],
    now: Date,
  ): Promise<Interviewer[]> {
    const byId = new Map(accounts.map((account) => [account._id, account] as const));
    const allowed = records.filter((record) => {
      const account = byId.get(record._id);
      return account !== undefined && INTERVIEWER_ROLES.includes(account.role);
    });
    const window = lookAhead(now, HORIZON_DAYS);
    const taken = await this.repository.takenSlots(
      allowed.map((record) => record._id),
      window.from,
      window.to,
    );
    return allowed.map((record) =>
      Interviewer.from(
        record,
        byId.get(record._id)!.name,
        record.active
          ? freeSlots(record, taken.get(record._id) ?? new Set(), now, NEXT_FREE_COUNT)
          : [],
      ),
    );
  }

  private async view(
    booking: InterviewRecord,
    memberName: string | null,
    interviewerName?: string,
  ): Promise<OnlineInterview> {
    const name =
      interviewerName ??
      (await this.deps.users.identitiesOf([booking.interviewerId]))[0]?.name ??
      "(former interviewer)";
    return OnlineInterview.from(booking, { interviewer: name, member: memberName });
  }

  private async account(userId: string): Promise<AccountIdentity | undefined> {
    return (await this.deps.users.identitiesOf([userId]))[0];
  }
}
