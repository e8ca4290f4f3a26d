import { Schema, type Connection, type Model } from "mongoose";

/** The rendered ID card, certificate and QR code of a member record: file ids, never bytes. */
export interface CredentialRecord {
  _id: string;
  memberId: string;
  /** The member's account, which owns the files (erasure and export find it by this). */
  userId: string;
  uniqueId: string;
  qrCodeFileId: string;
  /** null until the oath: the certificate is issued then. */
  certificateFileId: string | null;
  idCardFileId: string;
  /** The "valid until" the card printed (null before the oath). */
  validUntil: Date | null;
  generatedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

const credentialSchema = new Schema<CredentialRecord>(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    uniqueId: { type: String, required: true },
    qrCodeFileId: { type: String, required: true },
    certificateFileId: { type: String, default: null },
    idCardFileId: { type: String, required: true },
    validUntil: { type: Date, default: null },
    generatedAt: { type: Date, required: true },
  },
  { timestamps: true, versionKey: false },
);
credentialSchema.index({ userId: 1 });

export type CredentialModel = Model<CredentialRecord>;

export function createCredentialModel(connection: Connection): CredentialModel {
  return connection.model<CredentialRecord>("Credential", credentialSchema, "credentials");
}
