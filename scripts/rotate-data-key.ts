/**
 * Re-seals every SSS and TIN number under the current DATA_KEY, and recomputes their keyed
 * hashes (the possible-duplicate keys, derived from DATA_KEY): `npm run data-key:rotate`.
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
import { runWhenMain, withDatabase } from "./script-runner";

export async function rotateDataKey(
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

async function main(): Promise<void> {
  const config = loadConfig();
  const { examined, resealed, rehashed } = await withDatabase(config, (connection) =>
    rotateDataKey(connection, resolveFieldCipher(config, config.dataDir)),
  );
  console.log(
    `re-sealed ${resealed} of ${examined} member records under the current DATA_KEY, re-hashed ${rehashed}`,
  );
}

runWhenMain(module, main);
