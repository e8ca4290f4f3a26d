import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { uuidv7 } from "../../db/uuid";
import { sectionSchema, type SectionRecord } from "../sections/section.model";

export interface BranchServiceRecord {
  _id: string;
  title: string;
  /** Lower-cased title: unique, so two branches cannot differ only in case. */
  titleKey: string;
  description: string;
  /** Title and description, lower-cased, for `search` (searchableText in src/db/page-query.ts). */
  searchText: string;
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
    searchText: { type: String, required: true },
    sections: { type: [sectionSchema], default: [] },
  },
  { timestamps: true, versionKey: false },
);
// The list: newest first, ids (UUID v7) breaking ties.
branchServiceSchema.index({ createdAt: -1, _id: -1 });
branchServiceSchema.index({ searchText: 1 });

export type BranchServiceModel = Model<BranchServiceRecord>;

// Public reads are made of this collection: every write changes their ETag.
branchServiceSchema.plugin(changeStamped, { source: "branch_services" });

export function createBranchServiceModel(connection: Connection): BranchServiceModel {
  return connection.model<BranchServiceRecord>(
    "BranchService",
    branchServiceSchema,
    "branch_services",
  );
}
