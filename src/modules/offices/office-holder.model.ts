import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";

/** One appointment of a member to an office title, for a term. */
export interface OfficeHolderRecord {
  _id: string;
  officeId: string;
  memberId: string;
  /** The member record's account, so an erasure finds the appointments to remove. */
  userId: string;
  /** The holder's name as the member record gives it, shown to readers of office titles. */
  name: string;
  startDate: Date;
  /** The term's planned end; null for an open-ended term. */
  endDate: Date | null;
  /** When an administrator ended the appointment; null while it runs. */
  endedAt: Date | null;
  appointedBy: string;
  endedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const officeHolderSchema = new Schema<OfficeHolderRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    officeId: { type: String, required: true },
    memberId: { type: String, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    startDate: { type: Date, required: true },
    endDate: { type: Date, default: null },
    endedAt: { type: Date, default: null },
    appointedBy: { type: String, required: true },
    endedBy: { type: String, default: null },
  },
  { timestamps: true, versionKey: false },
);
officeHolderSchema.index({ officeId: 1, createdAt: -1 });
officeHolderSchema.index({ memberId: 1, createdAt: -1 });
officeHolderSchema.index({ userId: 1 });

export type OfficeHolderModel = Model<OfficeHolderRecord>;

export function createOfficeHolderModel(connection: Connection): OfficeHolderModel {
  return connection.model<OfficeHolderRecord>("OfficeHolder", officeHolderSchema, "office_holders");
}

/** A term counts against maxSlots until it is ended or its end date has passed. */
export function isActive(
  holder: Pick<OfficeHolderRecord, "endedAt" | "endDate">,
  now = new Date(),
) {
  return holder.endedAt === null && (holder.endDate === null || holder.endDate > now);
}
