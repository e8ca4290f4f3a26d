import type { FieldCipher } from "../../db/field-cipher";
import type { ApplyArgs } from "./member.input";
import { canonicalRegion } from "./regions";
import {
  OPTIONAL_TEXT_FIELDS,
  REQUIRED_TEXT_FIELDS,
  sealed,
  type MemberRecord,
} from "./member.model";

/** The fields of a member record that the application itself supplies. */
export type ApplicationFields = Omit<
  MemberRecord,
  | "_id"
  | "userId"
  | "status"
  | "preferredBranchIds"
  | "statusHistory"
  | "openKey"
  | "activeOffices"
  | "searchEmail"
  | "searchText"
  | "archivedAt"
  | "createdAt"
  | "updatedAt"
>;

/** An application's fields as stored: trimmed, absent optional text as null, numbers sealed. */
export function applicationFields(
  args: ApplyArgs,
  receivedAt: Date,
  cipher: FieldCipher,
): ApplicationFields {
  const fields: Record<string, unknown> = {
    civilStatus: args.civilStatus,
    gender: args.gender,
    dateOfBirth: args.dateOfBirth,
    ministerialExperiences: (args.ministerialExperiences ?? []).map((experience) => ({
      roleDescription: experience.roleDescription.trim(),
      yearsApprox: experience.yearsApprox.trim(),
    })),
    characterReferences: (args.characterReferences ?? []).map((reference) => ({
      name: reference.name?.trim() || null,
      positionRelationship: reference.positionRelationship.trim(),
      contactNumber: reference.contactNumber.trim(),
    })),
    signature: args.signature
      ? { type: args.signature.type, signatureData: args.signature.signatureData }
      : null,
    privacyConsent: args.privacyConsent
      ? { noticeVersion: args.privacyConsent.noticeVersion.trim(), consentedAt: receivedAt }
      : null,
  };
  for (const field of REQUIRED_TEXT_FIELDS) fields[field] = args[field].trim();
  for (const field of OPTIONAL_TEXT_FIELDS) fields[field] = args[field]?.trim() || null;
  // The directory groups by region: common forms ("NCR", "Region IV-A") stored as the official name.
  fields.region = canonicalRegion(fields.region as string);
  fields.middleInitial = (fields.middleInitial as string | null)?.toUpperCase() ?? null;
  return sealed(fields as ApplicationFields, cipher);
}
