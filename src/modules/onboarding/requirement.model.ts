import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import { registerEnumType } from "type-graphql";
import { uuidv7 } from "../../db/uuid";

/** The documents an approved member may attach at the requirements step. */
export enum RequirementType {
  PHOTO_2X2 = "PHOTO_2X2",
  HS_BACCALAUREATE_DIPLOMA = "HS_BACCALAUREATE_DIPLOMA",
  TWO_THREE_YEAR_PROGRAM_DIPLOMA = "TWO_THREE_YEAR_PROGRAM_DIPLOMA",
  MASTERS_DEGREE_DIPLOMA = "MASTERS_DEGREE_DIPLOMA",
  DOCTORAL_DEGREE_DIPLOMA = "DOCTORAL_DEGREE_DIPLOMA",
  ORDINATION_CERTIFICATE = "ORDINATION_CERTIFICATE",
  PASTORS_RECOMMENDATION_LETTER = "PASTORS_RECOMMENDATION_LETTER",
  LETTER_OF_INTENT = "LETTER_OF_INTENT",
  ENDORSEMENT_LETTERS = "ENDORSEMENT_LETTERS",
  MARRIAGE_CONTRACT = "MARRIAGE_CONTRACT",
  CLEARANCE_BARANGAY = "CLEARANCE_BARANGAY",
  CLEARANCE_POLICE = "CLEARANCE_POLICE",
  CLEARANCE_NBI = "CLEARANCE_NBI",
}

export enum ReviewStatus {
  PENDING = "PENDING",
  APPROVED = "APPROVED",
  REJECTED = "REJECTED",
}

registerEnumType(RequirementType, { name: "RequirementType" });
registerEnumType(ReviewStatus, {
  name: "RequirementReviewStatus",
  description: "An administrator's review of one document",
});

/** One document of one member: a file of theirs and its review. */
export interface RequirementRecord {
  _id: string;
  memberId: string;
  userId: string;
  type: RequirementType;
  fileId: string;
  reviewStatus: ReviewStatus;
  reviewNote: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const requirementSchema = new Schema<RequirementRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    memberId: { type: String, required: true },
    userId: { type: String, required: true },
    type: { type: String, enum: Object.values(RequirementType), required: true },
    fileId: { type: String, required: true },
    reviewStatus: { type: String, enum: Object.values(ReviewStatus), required: true },
    reviewNote: { type: String, default: null },
    reviewedBy: { type: String, default: null },
    reviewedAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// One file per type per member: the upsert of a replacement and an APPROVED one meet here.
requirementSchema.index({ memberId: 1, type: 1 }, { unique: true });
// GET /requirements/pending: oldest first.
requirementSchema.index({ reviewStatus: 1, updatedAt: 1, _id: 1 });
requirementSchema.index({ userId: 1 });

export type RequirementModel = Model<RequirementRecord>;

// Public reads are made of this collection: every write changes their ETag.
requirementSchema.plugin(changeStamped, { source: "member_requirements" });

export function createRequirementModel(connection: Connection): RequirementModel {
  return connection.model<RequirementRecord>(
    "MemberRequirement",
    requirementSchema,
    "member_requirements",
  );
}
