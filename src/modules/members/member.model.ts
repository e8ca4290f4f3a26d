import { Schema, type Connection, type Model } from "mongoose";
import type { FieldCipher } from "../../db/field-cipher";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { CivilStatus, Gender, MemberStatus, SignatureType } from "./member.enums";

/** The text fields an application must have (contract §6). */
export const REQUIRED_TEXT_FIELDS = [
  "firstName",
  "lastName",
  "mobilePhoneNumber",
  "homeAddress",
  "nationality",
  "region",
  "province",
  "municipalityCity",
  "barangay",
  "emergencyContactName",
  "emergencyContactMobile",
  "churchAffiliation",
  "churchAddress",
  "currentPositionRole",
] as const;

/** The text fields an application may have; null when absent. */
export const OPTIONAL_TEXT_FIELDS = [
  "recentIdPhotoUrl",
  "currentPositionRoleOther",
  "height",
  "weight",
  "bloodType",
  "colorOfEyes",
  "colorOfSkin",
  "sssNumber",
  "tinNumber",
  "skillsTalents",
  "preferredBranchOther",
  "elementarySchool",
  "secondarySchool",
  "tertiaryCollege",
  "postGraduateStudies",
] as const;

/** Government numbers: stored sealed (AES-256-GCM, src/db/field-cipher.ts), opened to present. */
export const SEALED_FIELDS = ["sssNumber", "tinNumber"] as const;

type Sealable = Pick<MemberRecord, (typeof SEALED_FIELDS)[number]>;

function withSealedFields<R extends Sealable>(
  record: R,
  transform: (value: string | null, field: (typeof SEALED_FIELDS)[number]) => string | null,
): R {
  const copy = { ...record };
  for (const field of SEALED_FIELDS) copy[field] = transform(record[field], field);
  return copy;
}

/** The record with its sealed fields sealed by `cipher` (null stays null). */
export const sealed = <R extends Sealable>(record: R, cipher: FieldCipher): R =>
  withSealedFields(record, (value, field) => cipher.sealNullable(value, field));

/** The record with its sealed fields readable again, for the admin and owner responses. */
export const opened = <R extends Sealable>(record: R, cipher: FieldCipher): R =>
  withSealedFields(record, (value, field) => cipher.openNullable(value, field));

type RequiredText = Record<(typeof REQUIRED_TEXT_FIELDS)[number], string>;
type OptionalText = Record<(typeof OPTIONAL_TEXT_FIELDS)[number], string | null>;

export interface StatusChangeRecord {
  from: MemberStatus | null;
  to: MemberStatus;
  by: string;
  at: Date;
  reason: string | null;
}

/** What the applicant consented to, and when the server received the application. */
export interface PrivacyConsentRecord {
  noticeVersion: string;
  consentedAt: Date;
}

export interface MemberRecord extends RequiredText, OptionalText {
  _id: string;
  userId: string;
  status: MemberStatus;
  civilStatus: CivilStatus;
  gender: Gender;
  dateOfBirth: Date;
  preferredBranchIds: string[];
  ministerialExperiences: { roleDescription: string; yearsApprox: string }[];
  characterReferences: {
    name: string | null;
    positionRelationship: string;
    contactNumber: string;
  }[];
  signature: { type: SignatureType; signatureData: string } | null;
  /** Null when the application carried none; records from before consent was asked lack it. */
  privacyConsent: PrivacyConsentRecord | null;
  archivedAt: Date | null;
  statusHistory: StatusChangeRecord[];
  /**
   * `open:<userId>` while the application is PENDING or APPROVED and not archived, else the
   * record's own id. Unique: at most one open application per person, race-free on both
   * engines without partial indexes or transactions.
   */
  openKey: string;
  /**
   * How many offices the member holds now. Archiving and leaving APPROVED require 0, and an
   * appointment increments it only on an APPROVED, unarchived record: both conditions sit in the
   * filter of one update, so an appointment and an archive cannot both win.
   */
  activeOffices: number;
  /** The applicant's account email, kept here so search needs no second collection. */
  searchEmail: string;
  /** What `search` matches, normalised (see searchTextOf); held by the list indexes. */
  searchText: string;
  createdAt: Date;
  updatedAt: Date;
}

const text = (required: boolean) =>
  required ? { type: String, required: true } : { type: String, default: null };

const memberSchema = new Schema<MemberRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    userId: { type: String, required: true },
    status: { type: String, enum: Object.values(MemberStatus), required: true },
    ...Object.fromEntries(REQUIRED_TEXT_FIELDS.map((field) => [field, text(true)])),
    ...Object.fromEntries(OPTIONAL_TEXT_FIELDS.map((field) => [field, text(false)])),
    civilStatus: { type: String, enum: Object.values(CivilStatus), required: true },
    gender: { type: String, enum: Object.values(Gender), required: true },
    dateOfBirth: { type: Date, required: true },
    preferredBranchIds: { type: [String], default: [] },
    ministerialExperiences: {
      type: [{ _id: false, roleDescription: String, yearsApprox: String }],
      default: [],
    },
    characterReferences: {
      type: [{ _id: false, name: String, positionRelationship: String, contactNumber: String }],
      default: [],
    },
    signature: {
      type: new Schema({ type: { type: String }, signatureData: { type: String } }, { _id: false }),
      default: null,
    },
    privacyConsent: {
      type: new Schema(
        { noticeVersion: { type: String }, consentedAt: { type: Date } },
        { _id: false },
      ),
      default: null,
    },
    archivedAt: { type: Date, default: null },
    statusHistory: {
      type: [{ _id: false, from: String, to: String, by: String, at: Date, reason: String }],
      default: [],
    },
    openKey: { type: String, required: true, unique: true },
    activeOffices: { type: Number, required: true, default: 0 },
    searchEmail: { type: String, required: true },
    searchText: { type: String, required: true },
  },
  { timestamps: true, versionKey: false },
);
// One index per list shape (equality fields, then the newest-first sort), each ending with
// searchText so a search is filtered on index keys before any record is fetched.
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;
memberSchema.index({ archivedAt: 1, ...NEWEST_FIRST, searchText: 1 });
memberSchema.index({ status: 1, archivedAt: 1, ...NEWEST_FIRST, searchText: 1 });
memberSchema.index({ ...NEWEST_FIRST, searchText: 1 });
memberSchema.index({ status: 1, ...NEWEST_FIRST, searchText: 1 });
// A search's count has no sort to walk, so it needs searchText in the lead.
memberSchema.index({ searchText: 1 });
memberSchema.index({ userId: 1, ...NEWEST_FIRST });
memberSchema.index({ preferredBranchIds: 1 });

export type MemberModel = Model<MemberRecord>;

export function createMemberModel(connection: Connection): MemberModel {
  return connection.model<MemberRecord>("Member", memberSchema, "members");
}

/**
 * The contract's search field of a member record: "first last", the account's email and the
 * mobile number (see searchableText).
 */
export function searchTextOf(
  record: Pick<MemberRecord, "firstName" | "lastName" | "mobilePhoneNumber">,
  email: string,
): string {
  return searchableText(`${record.firstName} ${record.lastName}`, email, record.mobilePhoneNumber);
}

const OPEN_STATUSES: readonly MemberStatus[] = [MemberStatus.PENDING, MemberStatus.APPROVED];

/** The openKey a record in this state has (see MemberRecord.openKey). */
export function openKeyOf(record: Pick<MemberRecord, "_id" | "userId" | "status" | "archivedAt">) {
  const open = !record.archivedAt && OPEN_STATUSES.includes(record.status);
  return open ? `open:${record.userId}` : record._id;
}
