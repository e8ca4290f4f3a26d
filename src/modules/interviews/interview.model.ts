import { Schema, type Connection, type Model } from "mongoose";
import type { InterviewOutcome } from "../onboarding/onboarding-facts";
import { Weekday } from "./interview-calendar";

/**
 * Someone who interviews members, kept by administrators: `key` is the handle the
 * organisation's site books by; `userId` the OFFICER or ADMIN account that may record outcomes
 * (absent when the person has none, so the sparse unique index skips them). Records written
 * before keys existed have the account's id as `_id` (interviewer-migration.ts).
 */
export interface InterviewerRecord {
  _id: string;
  key: string;
  /** The interviewer's name and email: personal data of that person. */
  name: string;
  title: string;
  /** Where invitations go; none are sent without it. */
  email: string | null;
  userId?: string;
  active: boolean;
  days: Weekday[];
  timeSlots: string[];
  createdAt: Date;
  updatedAt: Date;
}

const interviewerSchema = new Schema<InterviewerRecord>(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    title: { type: String, required: true },
    email: { type: String, default: null },
    userId: { type: String },
    active: { type: Boolean, required: true },
    days: { type: [String], enum: Object.values(Weekday), default: [] },
    timeSlots: { type: [String], default: [] },
  },
  { timestamps: true, versionKey: false },
);
interviewerSchema.index({ key: 1 }, { unique: true });
// One interviewer record per account: who may record an interview's outcome.
interviewerSchema.index({ userId: 1 }, { unique: true, sparse: true });
// Subject access and erasure find a person's records by their address too.
interviewerSchema.index({ email: 1 });
// GET /interviewers: the active ones, in a stable order.
interviewerSchema.index({ active: 1, _id: 1 });

/** Markers of one-time steps (`defaults-seeded`). */
export interface InterviewMarkerRecord {
  _id: string;
  at: Date;
}

const markerSchema = new Schema<InterviewMarkerRecord>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { versionKey: false },
);

/**
 * A member's online interview: one per member record, changed in place by a rebooking, so the
 * new slot is taken and the old one freed by one update.
 */
export interface InterviewRecord {
  _id: string;
  memberId: string;
  /** The member's account (erasure and export find bookings by it). */
  userId: string;
  interviewerId: string;
  day: Weekday;
  /** The Manila calendar date, `YYYY-MM-DD`. */
  date: string;
  timeSlot: string;
  scheduledAt: Date;
  zoomLink: string | null;
  meetingId: string | null;
  passcode: string | null;
  outcome: InterviewOutcome;
  /** The interviewer's note on the outcome: personal data. */
  note: string | null;
  confirmedAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  /** The invitation's SEQUENCE: calendars replace the event when it grows. */
  sequence: number;
  /** The time the day-before reminder went out for (a rebooking's new time gets its own). */
  remindedFor?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const OUTCOMES: InterviewOutcome[] = ["PENDING", "PASSED", "FAILED", "NO_SHOW"];

const interviewSchema = new Schema<InterviewRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    interviewerId: { type: String, required: true },
    day: { type: String, enum: Object.values(Weekday), required: true },
    date: { type: String, required: true },
    timeSlot: { type: String, required: true },
    scheduledAt: { type: Date, required: true },
    zoomLink: { type: String, default: null },
    meetingId: { type: String, default: null },
    passcode: { type: String, default: null },
    outcome: { type: String, enum: OUTCOMES, required: true },
    note: { type: String, default: null },
    confirmedAt: { type: Date, required: true },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: String, default: null },
    sequence: { type: Number, required: true, default: 0 },
    remindedFor: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// One member per interviewer, date and slot: the loser of a race gets the duplicate key.
interviewSchema.index({ interviewerId: 1, date: 1, timeSlot: 1 }, { unique: true });
interviewSchema.index({ userId: 1 });
// GET /interviews: by date, for everyone or for one interviewer.
interviewSchema.index({ date: 1, scheduledAt: 1, _id: 1 });
interviewSchema.index({ interviewerId: 1, date: 1, scheduledAt: 1, _id: 1 });
// The reminder sweep: PENDING interviews starting within the next day.
interviewSchema.index({ outcome: 1, scheduledAt: 1 });

export type InterviewerModel = Model<InterviewerRecord>;
export type InterviewModel = Model<InterviewRecord>;
export type InterviewMarkerModel = Model<InterviewMarkerRecord>;

export function createInterviewModels(connection: Connection) {
  return {
    interviewers: connection.model<InterviewerRecord>(
      "Interviewer",
      interviewerSchema,
      "interviewers",
    ),
    interviews: connection.model<InterviewRecord>("Interview", interviewSchema, "interviews"),
    markers: connection.model<InterviewMarkerRecord>(
      "InterviewMarker",
      markerSchema,
      "interview_markers",
    ),
  };
}
