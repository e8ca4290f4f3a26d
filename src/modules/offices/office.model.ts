import { Schema, type Connection, type Model } from "mongoose";
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
  /** How many may hold the office at once; null for no limit. */
  maxSlots: number | null;
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
    maxSlots: { type: Number, default: null },
    sections: { type: [sectionSchema], default: [] },
  },
  { timestamps: true, versionKey: false },
);
officeSchema.index({ createdAt: -1 });

export type OfficeModel = Model<OfficeRecord>;

export function createOfficeModel(connection: Connection): OfficeModel {
  return connection.model<OfficeRecord>("Office", officeSchema, "offices");
}
