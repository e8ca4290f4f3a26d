import { Schema, type Connection, type Model } from "mongoose";

/** The one settings document, `_id: "organisation"`, written the first time an administrator saves. */
export interface OrganisationRecord {
  _id: string;
  name: string;
  shortName: string;
  address: string;
  email: string;
  phone: string;
  website: string;
  sealFileId: string | null;
  signatoryName: string;
  signatoryTitle: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

const organisationSchema = new Schema<OrganisationRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    shortName: { type: String, default: "" },
    address: { type: String, default: "" },
    email: { type: String, default: "" },
    phone: { type: String, default: "" },
    website: { type: String, default: "" },
    sealFileId: { type: String, default: null },
    signatoryName: { type: String, default: "" },
    signatoryTitle: { type: String, default: "" },
    updatedBy: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);

// Erasure finds the settings an account saved.
organisationSchema.index({ updatedBy: 1 });

export type OrganisationModel = Model<OrganisationRecord>;

export function createOrganisationModel(connection: Connection): OrganisationModel {
  return connection.model<OrganisationRecord>(
    "OrganisationSettings",
    organisationSchema,
    "settings",
  );
}
