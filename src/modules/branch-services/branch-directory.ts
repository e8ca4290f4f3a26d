import type { Connection } from "mongoose";
import { ChangeFeed } from "../../db/change-feed";
import { Directory } from "../../db/directory";
import type { BranchServiceModel, BranchServiceRecord } from "./branch-service.model";

interface BranchEntry {
  id: string;
  record: BranchServiceRecord;
}

/** Newest first; ids (UUID v7) break ties the same way. */
function newestFirst(a: BranchEntry, b: BranchEntry): number {
  return (
    b.record.createdAt.getTime() - a.record.createdAt.getTime() ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/**
 * Every branch of service in memory, newest first. The list is public and each request was a
 * sorted page and a count, two scans of the collection on FerretDB v1; there are a few dozen
 * branches at most. Instances stay in step through the "branch-services" change feed (see
 * src/db/directory.ts): every write to a branch goes through `write`.
 */
export class BranchDirectory {
  private readonly directory: Directory<BranchEntry>;

  constructor(connection: Connection, branches: BranchServiceModel) {
    this.directory = new Directory<BranchEntry>({
      feed: new ChangeFeed(connection, "branch-services"),
      compare: newestFirst,
      source: {
        loadAll: async function* () {
          for await (const record of branches.find({}).lean().cursor()) {
            yield { id: record._id, record };
          }
        },
        loadOne: async (id) => {
          const record = await branches.findById(id).lean();
          return record ? { id, record } : null;
        },
      },
    });
  }

  /** Every branch, newest first. */
  async records(): Promise<BranchServiceRecord[]> {
    return (await this.directory.entries()).map((entry) => entry.record);
  }

  async get(id: string): Promise<BranchServiceRecord | undefined> {
    return (await this.directory.get(id))?.record;
  }

  /** Runs a write to the branch `id`; every instance reads it again. */
  write<T>(id: string, write: () => Promise<T>): Promise<T> {
    return this.directory.write(id, write);
  }

  /** After writes the service did not make (a seed): every instance reloads. */
  bulkChanged(): Promise<void> {
    return this.directory.bulkChanged();
  }
}
