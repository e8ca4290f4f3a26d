import { oneOf } from "../../db/operators";
import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import mongoose from "mongoose";
import type {
  InterviewModel,
  InterviewRecord,
  InterviewerModel,
  InterviewerRecord,
} from "./interview.model";

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

export type Decision = Pick<InterviewRecord, "outcome" | "note" | "decidedAt" | "decidedBy"> &
  Partial<Pick<InterviewRecord, "zoomLink">>;

export interface ScheduleQuery extends PageWindow {
  /** Manila calendar dates, both included. */
  from?: string;
  to?: string;
  interviewerId?: string;
}

/** Every database call on interviewers and interview bookings. */
export class InterviewRepository {
  constructor(
    private readonly interviewers: InterviewerModel,
    private readonly interviews: InterviewModel,
  ) {}

  saveInterviewer(
    userId: string,
    profile: Pick<InterviewerRecord, "active" | "days" | "timeSlots">,
  ): Promise<InterviewerRecord> {
    return this.interviewers
      .findOneAndUpdate(
        { _id: userId },
        { $set: profile },
        { upsert: true, returnDocument: "after", runValidators: true },
      )
      .lean<InterviewerRecord>()
      .orFail()
      .exec();
  }

  findInterviewer(userId: string): Promise<InterviewerRecord | null> {
    return this.interviewers.findById(userId).lean<InterviewerRecord>().exec();
  }

  activeInterviewers(): Promise<InterviewerRecord[]> {
    return this.interviewers
      .find({ active: true })
      .sort({ _id: 1 })
      .lean<InterviewerRecord[]>()
      .exec();
  }

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
   * together. A slot someone holds (or a concurrent first booking of the same member) fails
   * with a duplicate key error.
   */
  book(memberId: string, newId: string, booking: Booking): Promise<InterviewRecord> {
    return this.interviews
      .findOneAndUpdate(
        { memberId },
        {
          $set: { ...booking, outcome: "PENDING", note: null, decidedAt: null, decidedBy: null },
          $inc: { sequence: 1 },
          $setOnInsert: { _id: newId },
        },
        { upsert: true, returnDocument: "after", runValidators: true },
      )
      .lean<InterviewRecord>()
      .orFail()
      .exec();
  }

  decide(memberId: string, decision: Decision): Promise<InterviewRecord | null> {
    return this.interviews
      .findOneAndUpdate({ memberId }, { $set: decision }, { returnDocument: "after" })
      .lean<InterviewRecord>()
      .exec();
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
    await this.interviewers.deleteOne({ _id: userId }).exec();
  }
}
