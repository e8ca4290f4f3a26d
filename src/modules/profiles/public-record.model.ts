import { Schema, type Connection, type Model } from "mongoose";
import { registerEnumType } from "type-graphql";
import { changeStamped } from "../../db/change-stamps";

/** What a public record tells of. */
export enum PublicRecordType {
  REPORT_ACTIVITY = "REPORT_ACTIVITY",
  COMMUNITY_SERVICE = "COMMUNITY_SERVICE",
  TRAINING_CONDUCTED = "TRAINING_CONDUCTED",
  PARTICIPATION = "PARTICIPATION",
  RECOGNITION = "RECOGNITION",
}

/** Only PUBLISHED records are on the public page. */
export enum PublicRecordStatus {
  PUBLISHED = "PUBLISHED",
  DRAFT = "DRAFT",
}

registerEnumType(PublicRecordType, { name: "PublicRecordType" });
registerEnumType(PublicRecordStatus, { name: "PublicRecordStatus" });

/** A picture of a public record: a PUBLIC_RECORD file of the member's. */
export interface AttachmentRecord {
  _id: string;
  fileId: string;
  /** The name the member gave it, else the uploaded file's. */
  fileName: string;
  /** The stored file's type, decided by its bytes. */
  mimeType: string;
  sortOrder: number;
  createdAt: Date;
}

/** An activity, service or recognition a member reports on the public page. */
export interface PublicRecordRecord {
  _id: string;
  memberId: string;
  userId: string;
  title: string;
  /** HTML, cleaned on write as news captions are. */
  shortDescription: string;
  type: PublicRecordType;
  eventAt: Date;
  location: string;
  status: PublicRecordStatus;
  attachments: AttachmentRecord[];
  createdAt: Date;
  updatedAt: Date;
}

const publicRecordSchema = new Schema<PublicRecordRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    userId: { type: String, required: true },
    title: { type: String, required: true },
    shortDescription: { type: String, default: "" },
    type: { type: String, enum: Object.values(PublicRecordType), required: true },
    eventAt: { type: Date, required: true },
    location: { type: String, required: true },
    status: { type: String, enum: Object.values(PublicRecordStatus), required: true },
    attachments: {
      type: [
        {
          _id: { type: String, required: true },
          fileId: { type: String, required: true },
          fileName: { type: String, required: true },
          mimeType: { type: String, required: true },
          sortOrder: { type: Number, required: true },
          createdAt: { type: Date, required: true },
        },
      ],
      default: [],
    },
  },
  { timestamps: true, versionKey: false },
);
// The public page: a member's PUBLISHED records, newest event first; the owner's list: all.
publicRecordSchema.index({ memberId: 1, status: 1, eventAt: -1, _id: -1 });
publicRecordSchema.index({ memberId: 1, eventAt: -1, _id: -1 });
// The account's records (export, erasure, which files they name).
publicRecordSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// Whether a file may be served publicly: the PUBLISHED records that show it.
publicRecordSchema.index({ "attachments.fileId": 1, status: 1 });

export type PublicRecordModel = Model<PublicRecordRecord>;

// The public page shows them: every write changes its ETag.
publicRecordSchema.plugin(changeStamped, { source: "member_public_records" });

export function createPublicRecordModel(connection: Connection): PublicRecordModel {
  return connection.model<PublicRecordRecord>(
    "MemberPublicRecord",
    publicRecordSchema,
    "member_public_records",
  );
}
