// Past the usual size on purpose: the member record's shape, its sealed fields and every index
// that serves a member query sit together, so a query and the index it needs are read at once.
import { Schema, type Connection, type Model } from "mongoose";
import { changeStamped } from "../../db/change-stamps";
import type { FieldCipher } from "../../db/field-cipher";
import { searchableText } from "../../db/search-text";
import { uuidv7 } from "../../db/uuid";
import { OnboardingStep } from "../onboarding/onboarding-steps";
import type { StepTaken } from "../onboarding/step-times";
import { CivilStatus, Gender, MemberStatus, MemberType, SignatureType } from "./member.enums";

/** The text fields an application must have: POST /members/apply refuses one without them. */
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
  "middleInitial",
  "extensionName",
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

/**
 * What the member chose to show on the public page (docs/privacy.md, "The public pages"); all off
 * by default.
 */
export interface PublicProfileChoice {
  listed: boolean;
  showPhoto: boolean;
  showLocation: boolean;
  showBranches: boolean;
  showChurch: boolean;
  showEducation: boolean;
}

/** The choices, in the order the contract names them. */
export const PUBLIC_PROFILE_CHOICES = [
  "listed",
  "showPhoto",
  "showLocation",
  "showBranches",
  "showChurch",
  "showEducation",
] as const satisfies readonly (keyof PublicProfileChoice)[];

/** A choice made whole: what it leaves out (or a record from before a choice existed) is off. */
export function choiceOf(
  choice: Partial<PublicProfileChoice> | null | undefined,
): PublicProfileChoice {
  const whole = {} as PublicProfileChoice;
  for (const name of PUBLIC_PROFILE_CHOICES) whole[name] = choice?.[name] === true;
  return whole;
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
  /*
   * The keys possible duplicates are found by (see member-duplicates.ts), each indexed. SSS and
   * TIN only as keyed hashes: their clear values never leave the sealed fields.
   */
  nameBirthKey: string;
  mobileKey: string | null;
  sssHash: string | null;
  tinHash: string | null;
  /** POI-<YYYY>-<NNNNN>, given when the record is first APPROVED; absent before, never reused. */
  uniqueId?: string;
  /** Set by the oath (ASSOCIATE_CHAPLAIN) or by an administrator; null before. */
  memberType: MemberType | null;
  badgeNumber: string | null;
  publicProfile: PublicProfileChoice;
  /** The public page's banner: an image file of the member's (public while the page is). */
  profileBannerFileId?: string | null;
  /** Where the banner image sits vertically, 0 (top) to 100 (bottom); null: not chosen. */
  profileBannerPositionY?: number | null;
  /**
   * The onboarding step the member is on (onboarding-steps.ts), set to the first one at approval
   * and moved by the member; null before approval. Here, not with the onboarding's own records, so
   * the administrators' list by step is one indexed query over APPROVED records.
   */
  onboardingStep?: OnboardingStep | null;
  /**
   * When onboarding began (the approval that set the first step) and each step first moved
   * past with the whole days spent at it (onboarding/step-times.ts): the funnel's medians.
   * Absent on records approved before they were kept.
   */
  onboardingStartedAt?: Date | null;
  onboardingTimes?: StepTaken[];
  /** `YYYY-MM` (Manila) of the latest approval: the reports count by it. */
  approvedMonth?: string | null;
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
    // Not required: records of earlier versions get them from a migration step.
    nameBirthKey: { type: String },
    mobileKey: { type: String, default: null },
    sssHash: { type: String, default: null },
    tinHash: { type: String, default: null },
    uniqueId: { type: String },
    memberType: { type: String, enum: Object.values(MemberType), default: null },
    badgeNumber: { type: String, default: null },
    onboardingStep: { type: String, enum: [...Object.values(OnboardingStep), null], default: null },
    approvedMonth: { type: String, default: null },
    onboardingStartedAt: { type: Date, default: null },
    onboardingTimes: {
      type: [{ _id: false, step: String, days: Number, at: Date }],
      default: undefined,
    },
    profileBannerFileId: { type: String, default: null },
    profileBannerPositionY: { type: Number, default: null },
    publicProfile: {
      type: new Schema(
        {
          listed: { type: Boolean, default: false },
          showPhoto: { type: Boolean, default: false },
          showLocation: { type: Boolean, default: false },
          showBranches: { type: Boolean, default: false },
          showChurch: { type: Boolean, default: false },
          showEducation: { type: Boolean, default: false },
        },
        { _id: false },
      ),
      default: () => ({}),
    },
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
// The reports: approved members by the month of their approval, by onboarding step, and the
// steps moved past in a date range (the funnel's days).
memberSchema.index({ status: 1, approvedMonth: 1 });
memberSchema.index({ status: 1, archivedAt: 1, onboardingStep: 1 });
memberSchema.index({ status: 1, archivedAt: 1, "onboardingTimes.at": 1 });
memberSchema.index({ userId: 1, ...NEWEST_FIRST });
memberSchema.index({ preferredBranchIds: 1 });
// Possible duplicates: one index per key, so a page's single $or lookup is served branch by branch.
memberSchema.index({ nameBirthKey: 1 });
memberSchema.index({ mobileKey: 1 });
memberSchema.index({ sssHash: 1 });
memberSchema.index({ tinHash: 1 });
// Sparse: records before their first approval have none (both engines skip the absent field).
memberSchema.index({ uniqueId: 1 }, { unique: true, sparse: true });
// The public directory's $match and $group: APPROVED, active members by place, from the index.
memberSchema.index({
  status: 1,
  archivedAt: 1,
  region: 1,
  province: 1,
  municipalityCity: 1,
  barangay: 1,
});
// Service chaplains: the listed members of one type, by name.
memberSchema.index({
  memberType: 1,
  "publicProfile.listed": 1,
  status: 1,
  archivedAt: 1,
  lastName: 1,
  firstName: 1,
  _id: 1,
});

export type MemberModel = Model<MemberRecord>;

// Public reads are made of this collection: every write changes their ETag.
memberSchema.plugin(changeStamped, { source: "members" });

export function createMemberModel(connection: Connection): MemberModel {
  return connection.model<MemberRecord>("Member", memberSchema, "members");
}

/** What searchTextOf and fullNameOf read of a record. */
export type NameFields = Pick<MemberRecord, "firstName" | "lastName" | "mobilePhoneNumber"> &
  Partial<Pick<MemberRecord, "middleInitial" | "extensionName">>;

/** The fields NameFields names, as a projection. */
export const NAME_PROJECTION = {
  firstName: 1,
  lastName: 1,
  mobilePhoneNumber: 1,
  middleInitial: 1,
  extensionName: 1,
} as const;

/** "Maria D. Santos Jr.": the name as the organisation writes it. */
export function fullNameOf(
  record: Pick<MemberRecord, "firstName" | "lastName"> &
    Partial<Pick<MemberRecord, "middleInitial" | "extensionName">>,
): string {
  const middle = record.middleInitial ? `${record.middleInitial}.` : null;
  return [record.firstName, middle, record.lastName, record.extensionName ?? null]
    .filter(Boolean)
    .join(" ");
}

/**
 * The contract's search field of a member record: "first last", the full name when a middle
 * initial or suffix makes it differ, the account's email and the mobile number (see
 * searchableText). A record without either reads exactly as before they existed, so records
 * of earlier versions need no new backfill.
 */
export function searchTextOf(record: NameFields, email: string): string {
  const firstLast = `${record.firstName} ${record.lastName}`;
  const full = fullNameOf(record);
  return searchableText(
    firstLast,
    full === firstLast ? null : full,
    email,
    record.mobilePhoneNumber,
  );
}

const OPEN_STATUSES: readonly MemberStatus[] = [MemberStatus.PENDING, MemberStatus.APPROVED];

/** The openKey a record in this state has (see MemberRecord.openKey). */
export function openKeyOf(record: Pick<MemberRecord, "_id" | "userId" | "status" | "archivedAt">) {
  const open = !record.archivedAt && OPEN_STATUSES.includes(record.status);
  return open ? `open:${record.userId}` : record._id;
}
