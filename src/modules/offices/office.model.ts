import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { uuidv7 } from "../../db/uuid";
import { sectionSchema, type SectionRecord } from "../sections/section.model";
import { OfficeLevel } from "./office-level";

export interface OfficeRecord {
  _id: string;
  name: string;
  /** Lower-cased name: unique (names differ in more than case) and the alphabetical sort key. */
  nameKey: string;
  level: OfficeLevel;
  /** The level's place in the hierarchy (0 highest), so sorting by level follows it. */
  levelRank: number;
  description: string | null;
  /** Name and description, lower-cased, for `search` (searchableText in src/db/page-query.ts). */
  searchText: string;
  /** How many may hold the office at once; null for no limit. */
  maxSlots: number | null;
  /**
   * Slots taken: appointments that count against maxSlots, plus any being made right now.
   * Appointments change it with conditional updates (see office-slots.ts). Absent on titles
   * written by an earlier version or by another program, until a recount writes it.
   */
  activeHolders?: number;
  /** When activeHolders last changed; a recount leaves a count alone while it is recent. */
  slotsChangedAt?: Date | null;
  sections: SectionRecord[];
  createdAt: Date;
  updatedAt: Date;
}

const officeSchema = new Schema<OfficeRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    name: { type: String, required: true },
    nameKey: { type: String, required: true, unique: true },
    level: { type: String, enum: Object.values(OfficeLevel), required: true },
    levelRank: { type: Number, required: true },
    description: { type: String, default: null },
    searchText: { type: String, required: true },
    maxSlots: { type: Number, default: null },
    activeHolders: { type: Number, default: 0 },
    slotsChangedAt: { type: Date, default: null },
    sections: { type: [sectionSchema], default: [] },
  },
  { timestamps: true, versionKey: false },
);
// The list's sorts, each walked either way; names are unique (nameKey), so they need no tie-breaker.
officeSchema.index({ createdAt: 1, _id: 1 });
officeSchema.index({ updatedAt: 1, _id: 1 });
officeSchema.index({ searchText: 1 });
// Titles of one level are listed by name ascending whichever way the levels run.
officeSchema.index({ levelRank: 1, nameKey: 1 });
officeSchema.index({ levelRank: -1, nameKey: 1 });

export type OfficeModel = Model<OfficeRecord>;

// Public reads are made of this collection: every write changes their ETag.
officeSchema.plugin(changeStamped, { source: "offices" });

export function createOfficeModel(connection: Connection): OfficeModel {
  return connection.model<OfficeRecord>("Office", officeSchema, "offices");
}
