import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
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
  /** Where the office is held (department and area served): any may be null. */
  department: string | null;
  region: string | null;
  province: string | null;
  cityMunicipality: string | null;
  barangay: string | null;
  startDate: Date;
  /** The term's planned end; null for an open-ended term. */
  endDate: Date | null;
  /** When an administrator ended the appointment; null while it runs. */
  endedAt: Date | null;
  appointedBy: string;
  endedBy: string | null;
  /**
   * When the term stopped counting against maxSlots (it was ended, or was found past its end
   * date); null while it counts. Absent on appointments of an earlier version until migrated.
   */
  releasedAt: Date | null;
  /**
   * Unique: `runningKey(officeId, memberId)` while the term counts, so a member holds an office
   * once at a time; the appointment's own id once it no longer does.
   */
  slotKey: string;
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
    department: { type: String, default: null },
    region: { type: String, default: null },
    province: { type: String, default: null },
    cityMunicipality: { type: String, default: null },
    barangay: { type: String, default: null },
    startDate: { type: Date, required: true },
    endDate: { type: Date, default: null },
    endedAt: { type: Date, default: null },
    appointedBy: { type: String, required: true },
    endedBy: { type: String, default: null },
    releasedAt: { type: Date, default: null },
    slotKey: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);
officeHolderSchema.index({ slotKey: 1 }, { unique: true });
// Holders of an office and offices of a member, newest first: all of them, or the running ones.
officeHolderSchema.index({ officeId: 1, createdAt: -1, _id: -1 });
officeHolderSchema.index({ officeId: 1, releasedAt: 1, createdAt: -1, _id: -1 });
officeHolderSchema.index({ memberId: 1, createdAt: -1, _id: -1 });
officeHolderSchema.index({ memberId: 1, releasedAt: 1, createdAt: -1, _id: -1 });
officeHolderSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// Running terms whose end date has passed.
officeHolderSchema.index({ releasedAt: 1, endDate: 1 });

export type OfficeHolderModel = Model<OfficeHolderRecord>;

// Public reads are made of this collection: every write changes their ETag, and so does a
// term's end once it has come (a holder's office leaves the public page without a write).
officeHolderSchema.plugin(changeStamped, {
  source: "office_holders",
  due: { filter: { releasedAt: null }, field: "endDate" },
});

export function createOfficeHolderModel(connection: Connection): OfficeHolderModel {
  return connection.model<OfficeHolderRecord>("OfficeHolder", officeHolderSchema, "office_holders");
}

/** A term counts against maxSlots until it is ended or its end date has passed (at `now`). */
export function isActive(holder: Pick<OfficeHolderRecord, "endedAt" | "endDate">, now: Date) {
  return holder.endedAt === null && (holder.endDate === null || holder.endDate > now);
}

/** The slotKey of a running term: one per member and office. */
export function runningKey(officeId: string, memberId: string): string {
  return `${officeId}:${memberId}`;
}
