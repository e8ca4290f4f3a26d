/**
 * Re-seals every SSS and TIN number and every TOTP secret under the current DATA_KEY, and
 * recomputes the members' keyed hashes (the possible-duplicate keys, derived from DATA_KEY):
 * `npm run data-key:rotate`.
 * Rotation: put the old key into DATA_KEYS_PREVIOUS and the new one into DATA_KEY, restart the
 * service (it reads both), run this, then drop the old key from DATA_KEYS_PREVIOUS. Values
 * stored before encryption existed are sealed by the same pass.
 */
import "reflect-metadata";
import type { Connection } from "mongoose";
import { loadConfig } from "../src/config";
import { resolveFieldCipher, type FieldCipher } from "../src/db/field-cipher";
import { storedKeysOf } from "../src/modules/members/member-duplicates";
import { MemberMaintenanceRepository } from "../src/modules/members/member-maintenance.repository";
import {
  createMemberModel,
  SEALED_FIELDS,
  type MemberRecord,
} from "../src/modules/members/member.model";
import {
  createUserModel,
  FORMER_EMAILS_FIELD,
  MFA_SECRET_FIELD,
  type UserRecord,
} from "../src/modules/users/user.model";
import { runWhenMain, withDatabase } from "./script-runner";

/** Member and user records examined, and how many of them needed a new seal. */
export async function rotateDataKey(
  connection: Connection,
  cipher: FieldCipher,
): Promise<{ examined: number; resealed: number; rehashed: number }> {
  const members = await resealMembers(connection, cipher);
  const users = await resealUserFields(connection, cipher);
  return {
    examined: members.examined + users.examined,
    resealed: members.resealed + users.resealed,
    rehashed: members.rehashed,
  };
}

async function resealMembers(
  connection: Connection,
  cipher: FieldCipher,
): Promise<{ examined: number; resealed: number; rehashed: number }> {
  const members = createMemberModel(connection);
  let examined = 0;
  let resealed = 0;
  const fields = Object.fromEntries(SEALED_FIELDS.map((field) => [field, 1]));
  // A pass over every record, walked in primary-key order: an index scan, never a sort.
  const cursor = members
    .find({}, fields)
    .sort({ _id: 1 })
    .lean<Pick<MemberRecord, "_id" | (typeof SEALED_FIELDS)[number]>[]>()
    .cursor();
  for await (const record of cursor) {
    examined += 1;
    const changes: Record<string, string> = {};
    for (const field of SEALED_FIELDS) {
      const stored = record[field];
      if (stored !== null && stored !== undefined && !cipher.isCurrent(stored)) {
        changes[field] = cipher.seal(cipher.open(stored, field), field);
      }
    }
    if (Object.keys(changes).length === 0) continue;
    await members.updateOne({ _id: record._id }, { $set: changes });
    resealed += 1;
  }
  // Until this runs, lookups match the hashes under every configured key (FieldCipher.fingerprints).
  const rehashed = await new MemberMaintenanceRepository(members).rekeyDuplicateHashes(
    storedKeysOf(cipher),
  );
  return { examined, resealed, rehashed };
}

/**
 * Pending and active TOTP secrets (sealed under one name, MFA_SECRET_FIELD) and the earlier
 * addresses kept for erasure.
 */
async function resealUserFields(
  connection: Connection,
  cipher: FieldCipher,
): Promise<{ examined: number; resealed: number }> {
  const users = createUserModel(connection);
  const fields = ["mfaSecret", "mfaPendingSecret"] as const;
  let examined = 0;
  let resealed = 0;
  const cursor = users
    .find({}, { mfaSecret: 1, mfaPendingSecret: 1, formerEmails: 1 })
    .sort({ _id: 1 })
    .lean<Pick<UserRecord, "_id" | (typeof fields)[number] | "formerEmails">[]>()
    .cursor();
  for await (const record of cursor) {
    examined += 1;
    const changes: Record<string, string | string[]> = {};
    for (const field of fields) {
      const stored = record[field];
      if (stored !== null && stored !== undefined && !cipher.isCurrent(stored)) {
        changes[field] = cipher.seal(cipher.open(stored, MFA_SECRET_FIELD), MFA_SECRET_FIELD);
      }
    }
    const former = record.formerEmails ?? [];
    if (former.some((stored) => !cipher.isCurrent(stored))) {
      changes.formerEmails = former.map((stored) =>
        cipher.seal(cipher.open(stored, FORMER_EMAILS_FIELD), FORMER_EMAILS_FIELD),
      );
    }
    if (Object.keys(changes).length === 0) continue;
    // The values read are the precondition: an MFA change or an address added meanwhile
    // makes the write miss, and keeps its own new seal (the next run re-seals the rest).
    const unchanged: Record<string, unknown> = Object.fromEntries(
      fields.map((field) => [field, record[field] ?? null]),
    );
    if (changes.formerEmails) unchanged.formerEmails = former;
    await users.updateOne({ _id: record._id, ...unchanged }, { $set: changes });
    resealed += 1;
  }
  return { examined, resealed };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const { examined, resealed, rehashed } = await withDatabase(config, (connection) =>
    rotateDataKey(connection, resolveFieldCipher(config, config.dataDir)),
  );
  console.log(
    `re-sealed ${resealed} of ${examined} member and user records under the current DATA_KEY, re-hashed ${rehashed}`,
  );
}

runWhenMain(module, main);
