import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";

/** A certificate a member shows on the public page: a file of theirs, with a number issued here. */
export interface CertificateRecord {
  _id: string;
  memberId: string;
  /** The member's account, which owns the file (erasure and the export find it by this). */
  userId: string;
  /** `CERT-XXXX-XXXX`, issued when the certificate is added; unique, never changed. */
  credentialId: string;
  title: string;
  fileId: string;
  /** When the member received it (the client's `issuedAt`). */
  dateReceived: Date;
  createdAt: Date;
  updatedAt: Date;
}

const certificateSchema = new Schema<CertificateRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    userId: { type: String, required: true },
    credentialId: { type: String, required: true, unique: true },
    title: { type: String, required: true },
    fileId: { type: String, required: true },
    dateReceived: { type: Date, required: true },
  },
  { timestamps: true, versionKey: false },
);
// A member's certificates, newest received first (the public page and the owner's list).
certificateSchema.index({ memberId: 1, dateReceived: -1, _id: -1 });
// The account's certificates (export, erasure, which files they name).
certificateSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// Whether a file may be served publicly: the certificates that show it.
certificateSchema.index({ fileId: 1 });

export type CertificateModel = Model<CertificateRecord>;

// The public page shows them: every write changes its ETag.
certificateSchema.plugin(changeStamped, { source: "member_certificates" });

export function createCertificateModel(connection: Connection): CertificateModel {
  return connection.model<CertificateRecord>(
    "MemberCertificate",
    certificateSchema,
    "member_certificates",
  );
}
