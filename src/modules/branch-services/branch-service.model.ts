import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";
import { sectionSchema, type SectionRecord } from "../sections/section.model";

export interface BranchServiceRecord {
  _id: string;
  title: string;
  /** Lower-cased title: unique, so two branches cannot differ only in case. */
  titleKey: string;
  description: string;
  sections: SectionRecord[];
  createdAt: Date;
  updatedAt: Date;
}

const branchServiceSchema = new Schema<BranchServiceRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    title: { type: String, required: true },
    titleKey: { type: String, required: true, unique: true },
    description: { type: String, required: true },
    sections: { type: [sectionSchema], default: [] },
  },
  { timestamps: true, versionKey: false },
);
branchServiceSchema.index({ createdAt: -1 });

export type BranchServiceModel = Model<BranchServiceRecord>;

export function createBranchServiceModel(connection: Connection): BranchServiceModel {
  return connection.model<BranchServiceRecord>(
    "BranchService",
    branchServiceSchema,
    "branch_services",
  );
}
