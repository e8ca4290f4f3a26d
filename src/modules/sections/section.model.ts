import { Schema } from "mongoose";
import { uuidv7 } from "../../db/uuid";
import { SectionType } from "./section.enums";

export interface SectionRecord {
  _id: string;
  title: string | null;
  type: SectionType;
  items: { content: string }[];
}

/** Embedded in office titles and branch services; ids are ours so updates can address them. */
export const sectionSchema = new Schema<SectionRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    title: { type: String, default: null },
    type: { type: String, enum: Object.values(SectionType), required: true },
    items: { type: [{ _id: false, content: { type: String, required: true } }], default: [] },
  },
  { versionKey: false },
);
