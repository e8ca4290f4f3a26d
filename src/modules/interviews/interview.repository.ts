import { unlessDuplicate, type Duplicate } from "../../db/errors";
import { greaterThan, notEqual, oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import mongoose from "mongoose";
import type { InterviewModel, InterviewRecord } from "./interview.model";

export type Booking = Pick<
  InterviewRecord,
  | "userId"
  | "interviewerId"
  | "day"
  | "date"
  | "timeSlot"
  | "scheduledAt"
  | "zoomLink"
  | "meetingId"
  | "passcode"
  | "confirmedAt"
>;

export type Decision = Pick<InterviewRecord, "outcome" | "note" | "decidedAt" | "decidedBy">;

/** The meeting's fields; one left out stays as it is. */
export type Meeting = Pick<InterviewRecord, "zoomLink"> &
  Partial<Pick<InterviewRecord, "meetingId" | "passcode">>;

export interface ScheduleQuery extends PageWindow {
  /** Manila calendar dates, both included. */
  from?: string;
  to?: string;
  interviewerId?: string;
}

/** Every database call on interview bookings. */
export class InterviewRepository {
  constructor(private readonly interviews: InterviewModel) {}

  /** The `date timeSlot` keys these interviewers have booked between the dates (included). */
  async takenSlots(
    interviewerIds: readonly string[],
    from: string,
    to: string,
  ): Promise<Map<string, Set<string>>> {
    const taken = new Map<string, Set<string>>();
    if (interviewerIds.length === 0) return taken;
    const found = await this.interviews
      .find(
        {
          interviewerId: oneOf([...interviewerIds]),
          date: mongoose.trusted({ $gte: from, $lte: to }),
        },
        { interviewerId: 1, date: 1, timeSlot: 1 },
      )
      .lean<Pick<InterviewRecord, "interviewerId" | "date" | "timeSlot">[]>()
      .exec();
    for (const booking of found) {
      const keys = taken.get(booking.interviewerId) ?? new Set<string>();
      keys.add(`${booking.date} ${booking.timeSlot}`);
      taken.set(booking.interviewerId, keys);
    }
    return taken;
  }

  ofMember(memberId: string): Promise<InterviewRecord | null> {
    return this.interviews.findOne({ memberId }).lean<InterviewRecord>().exec();
  }

  /**
   * Books or rebooks the member in one update: the new slot is taken and the old one freed
   * together. A slot someone holds, a concurrent first booking of the same member, or a
   * booking already PASSED (the filter misses, the insert meets the member's unique index)
   * answers DUPLICATE.
   */
  book(memberId: string, newId: string, booking: Booking): Promise<InterviewRecord | Duplicate> {
    return unlessDuplicate(
      this.interviews
        .findOneAndUpdate(
          { memberId, outcome: notEqual("PASSED") },
          {
            $set: { ...booking, outcome: "PENDING", note: null, decidedAt: null, decidedBy: null },
            $inc: { sequence: 1 },
            $setOnInsert: { _id: newId },
          },
          { upsert: true, returnDocument: "after", runValidators: true },
        )
        .lean<InterviewRecord>()
        .orFail()
        .exec(),
    );
  }

  /** The outcome, if the booking is still with that interviewer; null otherwise. */
  decide(
    memberId: string,
    interviewerId: string,
    decision: Decision,
  ): Promise<InterviewRecord | null> {
    return this.interviews
      .findOneAndUpdate(
        { memberId, interviewerId },
        { $set: decision },
        { returnDocument: "after" },
      )
      .lean<InterviewRecord>()
      .exec();
  }

  /**
   * The meeting of a PENDING booking still with that interviewer, the invitation's SEQUENCE
   * raised in the same update; null when the filter misses.
   */
  setMeeting(
    memberId: string,
    interviewerId: string,
    meeting: Meeting,
  ): Promise<InterviewRecord | null> {
    const set = Object.fromEntries(
      Object.entries(meeting).filter(([, value]) => value !== undefined),
    );
    return this.interviews
      .findOneAndUpdate(
        { memberId, interviewerId, outcome: "PENDING" },
        { $set: set, $inc: { sequence: 1 } },
        { returnDocument: "after" },
      )
      .lean<InterviewRecord>()
      .exec();
  }

  /** PENDING interviews starting in (from, to], soonest first. */
  startingBetween(from: Date, to: Date): Promise<InterviewRecord[]> {
    return this.interviews
      .find({ outcome: "PENDING", scheduledAt: mongoose.trusted({ $gt: from, $lte: to }) })
      .sort({ scheduledAt: 1 })
      .lean<InterviewRecord[]>()
      .exec();
  }

  /**
   * Claims the reminder of a booking at its time before it is mailed: of replicas that saw it,
   * the one whose conditional update matches sends it.
   */
  async claimReminder(booking: InterviewRecord): Promise<boolean> {
    const result = await this.interviews.updateOne(
      {
        _id: booking._id,
        scheduledAt: booking.scheduledAt,
        remindedFor: notEqual(booking.scheduledAt),
      },
      { $set: { remindedFor: booking.scheduledAt } },
    );
    return result.modifiedCount === 1;
  }

  /** Gives a claimed reminder back when its mail did not go, as it was before the claim. */
  async releaseReminder(booking: InterviewRecord): Promise<void> {
    await this.interviews.updateOne(
      { _id: booking._id, remindedFor: booking.scheduledAt },
      { $set: { remindedFor: booking.remindedFor ?? null } },
    );
  }

  /** Whether the interviewer holds an interview still to come. */
  async hasUpcoming(interviewerId: string, now: Date): Promise<boolean> {
    const found = await this.interviews
      .exists({ interviewerId, outcome: "PENDING", scheduledAt: greaterThan(now) })
      .exec();
    return found !== null;
  }

  /** By date and time, for everyone or one interviewer. */
  schedule(query: ScheduleQuery): Promise<FoundPage<InterviewRecord>> {
    const filter: Record<string, unknown> = {};
    if (query.interviewerId) filter.interviewerId = query.interviewerId;
    if (query.from || query.to) {
      const range: Record<string, string> = {};
      if (query.from) range.$gte = query.from;
      if (query.to) range.$lte = query.to;
      filter.date = mongoose.trusted(range);
    }
    return findPage(this.interviews, filter, { date: 1, scheduledAt: 1, _id: 1 }, query);
  }

  ofUser(userId: string): Promise<InterviewRecord[]> {
    return this.interviews.find({ userId }).lean<InterviewRecord[]>().exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.interviews.deleteMany({ userId }).exec();
  }
}
