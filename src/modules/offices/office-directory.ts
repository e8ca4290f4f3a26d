import type { Connection } from "mongoose";
import { ChangeFeed } from "../../db/change-feed";
import { Directory } from "../../db/directory";
import type { OfficeHolderModel } from "./office-holder.model";
import type { OfficeModel, OfficeRecord } from "./office.model";

/**
 * An office title as lists show it: its record and the planned ends of the appointments
 * running on it (null: no planned end). The count of active holders is taken at read time,
 * because an appointment stops counting when its end date passes, without any write.
 */
export interface OfficeEntry {
  id: string;
  record: OfficeRecord;
  runningUntil: (Date | null)[];
}

export function activeHolders(entry: OfficeEntry, now = new Date()): number {
  return entry.runningUntil.filter((end) => end === null || end > now).length;
}

/**
 * Every office title in memory, with its running appointments. Listing titles needs all of
 * them (sort, search, count) and their holder counts: on FerretDB that was two scans per
 * request (over 100 ms with a few hundred titles). The directory keeps instances in step
 * through the "offices" change feed (see src/db/directory.ts); writes to a title or to its
 * appointments are announced on the title's id.
 */
export class OfficeDirectory {
  private readonly directory: Directory<OfficeEntry>;
  private readonly orders = new Map<string, { version: number; entries: OfficeEntry[] }>();

  constructor(connection: Connection, offices: OfficeModel, holders: OfficeHolderModel) {
    const running = async (filter: { officeId?: string }) => {
      const byOffice = new Map<string, (Date | null)[]>();
      const rows = await holders
        .find({ ...filter, endedAt: null }, { officeId: 1, endDate: 1 })
        .lean();
      for (const row of rows) {
        const ends = byOffice.get(row.officeId) ?? [];
        ends.push(row.endDate);
        byOffice.set(row.officeId, ends);
      }
      return byOffice;
    };
    this.directory = new Directory<OfficeEntry>({
      feed: new ChangeFeed(connection, "offices"),
      compare: (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      source: {
        loadAll: async function* () {
          const ends = await running({});
          for await (const record of offices.find({}).lean().cursor()) {
            yield { id: record._id, record, runningUntil: ends.get(record._id) ?? [] };
          }
        },
        loadOne: async (id) => {
          const record = await offices.findById(id).lean();
          if (!record) return null;
          const ends = await running({ officeId: id });
          return { id, record, runningUntil: ends.get(id) ?? [] };
        },
      },
    });
  }

  entries(): Promise<readonly OfficeEntry[]> {
    return this.directory.entries();
  }

  /**
   * Every title in the order `compare` gives, sorted once per change to the titles rather
   * than once per request (sorting a few hundred titles was the largest cost of a list).
   * `order` names the ordering; the array is shared: read, never change.
   */
  async sorted(
    order: string,
    compare: (a: OfficeEntry, b: OfficeEntry) => number,
  ): Promise<readonly OfficeEntry[]> {
    const entries = await this.directory.entries();
    const version = this.directory.version;
    const cached = this.orders.get(order);
    if (cached?.version === version) return cached.entries;
    const sorted = [...entries].sort(compare);
    this.orders.set(order, { version, entries: sorted });
    return sorted;
  }

  get(id: string): Promise<OfficeEntry | undefined> {
    return this.directory.get(id);
  }

  /** Runs a write to the title `officeId` or to its appointments; every instance reads it again. */
  write<T>(officeId: string, write: () => Promise<T>): Promise<T> {
    return this.directory.write(officeId, write);
  }

  /** After writes across many titles (an erasure, a seed): every instance reloads. */
  bulkChanged(): Promise<void> {
    return this.directory.bulkChanged();
  }

  warmUp(): Promise<void> {
    return this.directory.load();
  }
}
