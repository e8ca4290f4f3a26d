import { absent } from "../../db/operators";
import type { DuplicateKeys } from "./member-duplicates";
import {
  NAME_PROJECTION,
  searchTextOf,
  type MemberModel,
  type MemberRecord,
  type NameFields,
} from "./member.model";

/** Fields the duplicate-key migration reads. */
export type KeyedFields = Pick<
  MemberRecord,
  | "_id"
  | "firstName"
  | "lastName"
  | "dateOfBirth"
  | "mobilePhoneNumber"
  | "sssNumber"
  | "tinNumber"
  | "sssHash"
  | "tinHash"
>;

const KEYED_PROJECTION = {
  firstName: 1,
  lastName: 1,
  dateOfBirth: 1,
  mobilePhoneNumber: 1,
  sssNumber: 1,
  tinNumber: 1,
  sssHash: 1,
  tinHash: 1,
} as const;

/**
 * The database calls that bring member records written by earlier versions, or under an earlier
 * data key, up to date (migration steps and `data-key:rotate`), apart from the everyday ones.
 */
export class MemberMaintenanceRepository {
  constructor(private readonly members: MemberModel) {}

  /**
   * Records written before searchText and activeOffices existed get them (a migration step;
   * an office count of 0 is then corrected by the offices' own step). Returns how many.
   */
  async backfillSearchFields(): Promise<number> {
    const stale = this.members
      .find({ searchText: absent() }, { ...NAME_PROJECTION, searchEmail: 1 })
      .lean<(NameFields & Pick<MemberRecord, "_id" | "searchEmail">)[]>()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of stale) {
      await this.members
        .updateOne(
          { _id: record._id },
          {
            $set: { searchText: searchTextOf(record, record.searchEmail) },
            $unset: { revision: 1 },
            $max: { activeOffices: 0 },
          },
          { strict: false },
        )
        .exec();
      changed += 1;
    }
    return changed;
  }

  /**
   * Records written before the duplicate keys existed get them (a migration step); returns how
   * many. `keysOf` reads the sealed numbers.
   */
  async backfillDuplicateKeys(keysOf: (record: KeyedFields) => DuplicateKeys): Promise<number> {
    const stale = this.members
      .find({ nameBirthKey: absent() }, KEYED_PROJECTION)
      .lean<KeyedFields[]>()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of stale) {
      await this.setDuplicateKeys(record._id, keysOf(record));
      changed += 1;
    }
    return changed;
  }

  /**
   * After a data key rotation: the SSS and TIN hashes recomputed under the current key,
   * written where they differ. Walks every record in primary-key order; returns how many.
   */
  async rekeyDuplicateHashes(keysOf: (record: KeyedFields) => DuplicateKeys): Promise<number> {
    const all = this.members
      .find({}, KEYED_PROJECTION)
      .sort({ _id: 1 })
      .lean<KeyedFields[]>()
      .cursor({ batchSize: 500 });
    let changed = 0;
    for await (const record of all) {
      const keys = keysOf(record);
      if (keys.sssHash === (record.sssHash ?? null) && keys.tinHash === (record.tinHash ?? null)) {
        continue;
      }
      await this.setDuplicateKeys(record._id, keys);
      changed += 1;
    }
    return changed;
  }

  private async setDuplicateKeys(id: string, keys: DuplicateKeys): Promise<void> {
    // Through the driver: a migration leaves the record's updatedAt as it was.
    await this.members.collection.updateOne({ _id: id } as Record<string, unknown>, { $set: keys });
  }
}
