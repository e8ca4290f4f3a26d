import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "../../errors/app-errors";
import { DATE_INPUT_FORMS, parseDateInput } from "../../graphql/date-time";
import { pageOf, type PageResult } from "../page-result";
import { outcomeWords } from "../../mail/status-words";
import type { Caller } from "../auth/caller";
import type {
  CurrentRecord,
  InterviewFacts,
  OnboardingFacts,
} from "../onboarding/onboarding-facts";
import { Role } from "../users/role";
import { manilaDateOf, nextBookableDate, slotStart, type Weekday } from "./interview-calendar";
import type {
  BookInterviewArgs,
  RecordOutcomeArgs,
  ScheduleArgs,
  SetMeetingArgs,
} from "./interview.input";
import type { InterviewNotices } from "./interview-notices";
import type { InterviewRecord, InterviewerRecord } from "./interview.model";
import type { InterviewRepository } from "./interview.repository";
import { OnlineInterview } from "./interview.type";
import type { InterviewerService } from "./interviewer.service";

/** A date argument as a Manila calendar date; a calendar date stays the day it names. */
function manilaDateArg(path: string, value: string | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const date = parseDateInput(value);
  if (!date) throw ValidationError.field(path, `${path} must be ${DATE_INPUT_FORMS}`);
  return manilaDateOf(date);
}

/** Members' bookings, their meetings and outcomes (the onboarding's interview step). */
export class InterviewService implements InterviewFacts {
  constructor(
    private readonly repository: InterviewRepository,
    private readonly interviewers: InterviewerService,
    private readonly notices: InterviewNotices,
    private readonly onboarding: () => OnboardingFacts,
  ) {}

  async currentOf(userId: string): Promise<OnlineInterview | null> {
    const record = await this.onboarding().currentRecord(userId);
    if (!record) return null;
    const booking = await this.repository.ofMember(record.memberId);
    return booking && this.view(booking, record.fullName);
  }

  async book(caller: Caller, args: BookInterviewArgs, now = new Date()): Promise<OnlineInterview> {
    const record = await this.onboarding().currentRecord(caller.id);
    if (!record || record.status !== "APPROVED") {
      throw new ConflictError("Only an approved membership application has an interview to book");
    }
    const interviewer = await this.interviewers.resolve(args.interviewerId);
    if (!interviewer?.active) {
      throw new NotFoundError(`No active interviewer has the id or key ${args.interviewerId}`);
    }
    if (interviewer.userId === caller.id) throw new ConflictError("You cannot interview yourself");
    const day = args.day.toUpperCase() as Weekday;
    if (!interviewer.days.includes(day) || !interviewer.timeSlots.includes(args.timeSlot)) {
      throw new ConflictError(
        `${interviewer.name} does not interview on ${day} at ${args.timeSlot}; see GET /interviewers`,
      );
    }
    const previous = await this.repository.ofMember(record.memberId);
    if (previous?.outcome === "PASSED") throw passedAlready();
    const date = nextBookableDate(day, args.timeSlot, now);
    const booking = await this.take(record, {
      userId: record.userId,
      interviewerId: interviewer._id,
      day,
      date,
      timeSlot: args.timeSlot,
      scheduledAt: slotStart(date, args.timeSlot),
      zoomLink: args.zoomLink ?? null,
      meetingId: args.meetingId ?? null,
      passcode: args.passcode ?? null,
      confirmedAt: now,
    });
    const former =
      previous && previous.interviewerId !== interviewer._id
        ? { booking: previous, interviewer: await this.interviewerOf(previous) }
        : null;
    await this.notices.booked(booking, record.fullName, interviewer, former);
    return this.view(booking, record.fullName, interviewer);
  }

  /** The booking's interviewer or an administrator records how it went; the member is mailed. */
  async recordOutcome(caller: Caller, args: RecordOutcomeArgs, now = new Date()) {
    const booking = await this.bookingFor(caller, args.id);
    const note = args.note?.trim() || null;
    const decided = await this.repository.decide(args.id, booking.interviewerId, {
      outcome: args.outcome,
      note,
      decidedAt: now,
      decidedBy: caller.id,
    });
    if (!decided) throw changedMeanwhile();
    const record = await this.onboarding().recordById(args.id);
    // Saying the same again tells the member nothing new.
    if (decided.outcome !== booking.outcome || decided.note !== booking.note) {
      await this.notices.outcome(decided, record?.fullName ?? null);
    }
    return this.view(decided, record?.fullName ?? null);
  }

  /**
   * The meeting of a booking still to be decided: both sides are mailed the link with the
   * invitation updated. Nothing is said about an outcome.
   */
  async setMeeting(caller: Caller, args: SetMeetingArgs): Promise<OnlineInterview> {
    const booking = await this.bookingFor(caller, args.id);
    if (booking.outcome !== "PENDING") {
      throw new ConflictError(
        `The interview already has its outcome (${outcomeWords(booking.outcome)})`,
      );
    }
    const updated = await this.repository.setMeeting(args.id, booking.interviewerId, {
      zoomLink: args.zoomLink,
      meetingId: args.meetingId,
      passcode: args.passcode,
    });
    if (!updated) throw changedMeanwhile();
    const [record, interviewer] = await Promise.all([
      this.onboarding().recordById(args.id),
      this.interviewerOf(updated),
    ]);
    await this.notices.meeting(updated, record?.fullName ?? null, interviewer);
    return this.view(updated, record?.fullName ?? null, interviewer);
  }

  /** By date and time; an officer sees the interviews of the interviewer linked to them. */
  async schedule(caller: Caller, args: ScheduleArgs): Promise<PageResult<OnlineInterview>> {
    let interviewerId = args.interviewerId
      ? (await this.interviewers.find(args.interviewerId))._id
      : undefined;
    if (caller.role !== Role.ADMIN) {
      const own = await this.interviewers.ofAccount(caller.id);
      if (interviewerId && interviewerId !== own?._id) {
        throw new ForbiddenError("Officers see the interviews they hold only");
      }
      if (!own) return pageOf(args, [], 0);
      interviewerId = own._id;
    }
    const { records, total } = await this.repository.schedule({
      page: args.page,
      limit: args.limit,
      from: manilaDateArg("from", args.from),
      to: manilaDateArg("to", args.to),
      interviewerId,
    });
    const [members, interviewers] = await Promise.all([
      Promise.all(records.map((booking) => this.onboarding().recordById(booking.memberId))),
      this.interviewers.byIds(records.map((booking) => booking.interviewerId)),
    ]);
    const data = records.map((booking, index) =>
      OnlineInterview.from(booking, {
        interviewer: interviewers.get(booking.interviewerId) ?? null,
        member: members[index]?.fullName ?? null,
      }),
    );
    return pageOf(args, data, total);
  }

  /** InterviewFacts: the member's current booking. */
  async ofMember(memberId: string) {
    const booking = await this.repository.ofMember(memberId);
    return booking && { outcome: booking.outcome, scheduledAt: booking.scheduledAt };
  }

  /** Subject access: the account's bookings as a member, with the interviewers' notes. */
  async exportOf(userId: string): Promise<OnlineInterview[]> {
    const bookings = await this.repository.ofUser(userId);
    const interviewers = await this.interviewers.byIds(bookings.map((one) => one.interviewerId));
    return bookings.map((booking) =>
      OnlineInterview.from(booking, {
        interviewer: interviewers.get(booking.interviewerId) ?? null,
        member: null,
      }),
    );
  }

  /** Erasure: the account's bookings as a member, notes included. */
  eraseOf(userId: string): Promise<void> {
    return this.repository.deleteOfUser(userId);
  }

  /** The member's booking, if the caller is an administrator or its interviewer's account. */
  private async bookingFor(caller: Caller, memberId: string): Promise<InterviewRecord> {
    const booking = await this.repository.ofMember(memberId);
    if (!booking) throw new NotFoundError(`No interview is booked for member ${memberId}`);
    if (caller.role !== Role.ADMIN) {
      const interviewer = await this.interviewerOf(booking);
      if (!interviewer?.userId || interviewer.userId !== caller.id) {
        throw new ForbiddenError("Only the member's interviewer or an administrator may do this");
      }
    }
    return booking;
  }

  private async take(
    record: CurrentRecord,
    booking: Parameters<InterviewRepository["book"]>[2],
  ): Promise<InterviewRecord> {
    const booked = await this.repository.book(record.memberId, uuidv7(), booking);
    if (booked !== DUPLICATE) return booked;
    // The member's own record refused the update only when it was PASSED meanwhile.
    const current = await this.repository.ofMember(record.memberId);
    if (current?.outcome === "PASSED") throw passedAlready();
    throw new ConflictError(
      `${booking.timeSlot} on ${booking.date} was just taken; choose another slot`,
    );
  }

  private async interviewerOf(booking: InterviewRecord): Promise<InterviewerRecord | null> {
    return (
      (await this.interviewers.byIds([booking.interviewerId])).get(booking.interviewerId) ?? null
    );
  }

  private async view(
    booking: InterviewRecord,
    memberName: string | null,
    interviewer?: InterviewerRecord | null,
  ): Promise<OnlineInterview> {
    const found = interviewer === undefined ? await this.interviewerOf(booking) : interviewer;
    return OnlineInterview.from(booking, { interviewer: found, member: memberName });
  }
}

function passedAlready(): ConflictError {
  return new ConflictError("Your interview was passed already; it cannot be booked again");
}

function changedMeanwhile(): ConflictError {
  return new ConflictError("The interview was rebooked meanwhile; read it again and retry");
}
