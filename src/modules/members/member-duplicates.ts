import type { FieldCipher } from "../../db/field-cipher";
import type { MemberStatus } from "./member.enums";
import { opened, type MemberRecord } from "./member.model";

/*
 * Possible duplicates (issue 33): two records of different accounts with the same person's
 * name and date of birth, mobile number, SSS or TIN number. Each record stores one key per
 * kind, each indexed; SSS and TIN only as keyed hashes (FieldCipher.fingerprint), so the
 * numbers are compared without being stored or queried in clear.
 */

/** The stored keys of a record. */
export type DuplicateKeys = Pick<
  MemberRecord,
  "nameBirthKey" | "mobileKey" | "sssHash" | "tinHash"
>;

/** What the keys are computed from: the record's fields with SSS and TIN in clear. */
type KeySource = Pick<
  MemberRecord,
  "firstName" | "lastName" | "dateOfBirth" | "mobilePhoneNumber" | "sssNumber" | "tinNumber"
>;

/** A record as the duplicate lookup reads it. */
export type DuplicateCandidate = DuplicateKeys & Pick<MemberRecord, "_id" | "userId" | "status">;

export const CANDIDATE_PROJECTION = {
  _id: 1,
  userId: 1,
  status: 1,
  nameBirthKey: 1,
  mobileKey: 1,
  sssHash: 1,
  tinHash: 1,
} as const;

/** What one page's lookup matches: every key of every record, hashes under every data key. */
export interface DuplicateLookup {
  nameBirthKey: string[];
  mobileKey: string[];
  sssHash: string[];
  tinHash: string[];
}

export interface PossibleDuplicateOf {
  id: string;
  status: MemberStatus;
  reason: string;
}

/** "maria santos|1990-03-15": case, accents, punctuation and spacing do not tell people apart. */
export function nameBirthKeyOf(record: Pick<KeySource, "firstName" | "lastName" | "dateOfBirth">) {
  const name = `${record.firstName} ${record.lastName}`
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  return `${name}|${new Date(record.dateOfBirth).toISOString().slice(0, 10)}`;
}

/** The number's digits, a Philippine mobile in its national form (+63 917… = 0917…). */
export function mobileKeyOf(mobile: string): string | null {
  const digits = mobile.replace(/\D/g, "");
  if (digits.length === 12 && digits.startsWith("63")) return `0${digits.slice(2)}`;
  if (digits.length === 10 && digits.startsWith("9")) return `0${digits}`;
  return digits.length >= 7 ? digits : null;
}

/** Government numbers are compared by their digits: "34-1234567-8" = "3412345678". */
function digitsOf(number: string | null): string | null {
  const digits = number?.replace(/\D/g, "") ?? "";
  return digits.length > 0 ? digits : null;
}

/** The keys a record stores (SSS and TIN hashed under the current data key). */
export function duplicateKeysOf(record: KeySource, cipher: FieldCipher): DuplicateKeys {
  const sss = digitsOf(record.sssNumber);
  const tin = digitsOf(record.tinNumber);
  return {
    nameBirthKey: nameBirthKeyOf(record),
    mobileKey: mobileKeyOf(record.mobilePhoneNumber),
    sssHash: sss === null ? null : cipher.fingerprint(sss, "sssNumber"),
    tinHash: tin === null ? null : cipher.fingerprint(tin, "tinNumber"),
  };
}

/** duplicateKeysOf for a record as stored (SSS and TIN sealed): migrations and rotation. */
export const storedKeysOf =
  (cipher: FieldCipher) =>
  (record: KeySource): DuplicateKeys =>
    duplicateKeysOf(opened(record, cipher), cipher);

/** The keys each record is matched by, hashes under every configured key (see fingerprints). */
function matchKeysOf(record: KeySource, cipher: FieldCipher) {
  const sss = digitsOf(record.sssNumber);
  const tin = digitsOf(record.tinNumber);
  return {
    nameBirthKey: nameBirthKeyOf(record),
    mobileKey: mobileKeyOf(record.mobilePhoneNumber),
    sssHash: sss === null ? [] : cipher.fingerprints(sss, "sssNumber"),
    tinHash: tin === null ? [] : cipher.fingerprints(tin, "tinNumber"),
  };
}

/**
 * Finds the possible duplicates of a page of records (opened: SSS and TIN in clear) with one
 * lookup, then tells each record which candidates match it and why. Records of the same
 * account are not duplicates: they are that person's own earlier applications.
 */
export async function possibleDuplicatesOf(
  records: readonly (KeySource & Pick<MemberRecord, "_id" | "userId">)[],
  cipher: FieldCipher,
  lookup: (keys: DuplicateLookup) => Promise<DuplicateCandidate[]>,
): Promise<Map<string, PossibleDuplicateOf[]>> {
  const keys = records.map((record) => matchKeysOf(record, cipher));
  const unique = (values: (string | null)[]) => [
    ...new Set(values.filter((value): value is string => value !== null)),
  ];
  const candidates = await lookup({
    nameBirthKey: unique(keys.map((key) => key.nameBirthKey)),
    mobileKey: unique(keys.map((key) => key.mobileKey)),
    sssHash: unique(keys.flatMap((key) => key.sssHash)),
    tinHash: unique(keys.flatMap((key) => key.tinHash)),
  });
  const found = new Map<string, PossibleDuplicateOf[]>();
  records.forEach((record, index) => {
    const mine = keys[index];
    const matches = candidates.flatMap((candidate) => {
      if (candidate._id === record._id || candidate.userId === record.userId) return [];
      const reasons = [
        candidate.nameBirthKey === mine.nameBirthKey && "same full name and date of birth",
        candidate.mobileKey !== null &&
          candidate.mobileKey === mine.mobileKey &&
          "same mobile number",
        candidate.sssHash !== null && mine.sssHash.includes(candidate.sssHash) && "same SSS number",
        candidate.tinHash !== null && mine.tinHash.includes(candidate.tinHash) && "same TIN number",
      ].filter((reason): reason is string => Boolean(reason));
      return reasons.length === 0
        ? []
        : [{ id: candidate._id, status: candidate.status, reason: reasons.join("; ") }];
    });
    found.set(record._id, matches);
  });
  return found;
}
