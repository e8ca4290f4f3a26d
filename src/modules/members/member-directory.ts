import type { Connection } from "mongoose";
import { ChangeFeed } from "../../db/change-feed";
import { Directory } from "../../db/directory";
import { MemberStatus } from "./member.enums";
import type { MemberModel, MemberRecord } from "./member.model";
import { SearchText } from "./search-text";

/** What lists, counts and searches need to know of a member record. */
export interface MemberEntry {
  id: string;
  userId: string;
  createdAt: number;
  status: MemberStatus;
  archived: boolean;
  branchIds: string[];
  /** Lower-cased "first last", email and mobile number: what `search` matches. */
  name: string;
  email: string;
  mobile: string;
}

export interface MemberQuery {
  status?: MemberStatus | null;
  includeArchived?: boolean;
  userId?: string;
  search?: string;
}

const ENTRY_FIELDS = {
  userId: 1,
  createdAt: 1,
  status: 1,
  archivedAt: 1,
  preferredBranchIds: 1,
  firstName: 1,
  lastName: 1,
  searchEmail: 1,
  mobilePhoneNumber: 1,
} as const;

type EntryFields = Pick<MemberRecord, "_id" | keyof typeof ENTRY_FIELDS>;

/**
 * One string per distinct value, for fields drawn from a few values (statuses, the branch
 * ids; as many as there are branches): each decoded record brings its own copies. Sharing
 * them took the directory of 100 000 records from 74 to 54 MB of heap.
 */
const shared = new Map<string, string>();
function sharedCopy(value: string): string {
  const known = shared.get(value);
  if (known !== undefined) return known;
  shared.set(value, value);
  return value;
}

function entryOf(record: EntryFields): MemberEntry {
  return {
    id: record._id,
    userId: record.userId,
    createdAt: new Date(record.createdAt).getTime(),
    status: sharedCopy(record.status) as MemberStatus,
    archived: record.archivedAt !== null && record.archivedAt !== undefined,
    branchIds: (record.preferredBranchIds ?? []).map(sharedCopy),
    name: `${record.firstName} ${record.lastName}`.toLowerCase(),
    email: record.searchEmail.toLowerCase(),
    mobile: record.mobilePhoneNumber.toLowerCase(),
  };
}

/** Newest first; ids (UUID v7) break ties the same way. */
function newestFirst(a: MemberEntry, b: MemberEntry): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * The member records' directory: which records a list, a count or a search selects, in
 * order, without scanning the collection (see Directory). Records themselves are then read
 * by primary key.
 */
export class MemberDirectory {
  private readonly directory: Directory<MemberEntry>;
  private readonly searchText = new SearchText<MemberEntry>(
    (entry) => [entry.name, entry.email, entry.mobile],
    containsTerm,
    tagOf,
  );

  constructor(connection: Connection, members: MemberModel) {
    this.directory = new Directory<MemberEntry>({
      feed: new ChangeFeed(connection, "members"),
      compare: newestFirst,
      source: {
        loadAll: () =>
          members
            .find({}, ENTRY_FIELDS)
            .lean<EntryFields[]>()
            .cursor({ batchSize: 1000 })
            .map(entryOf),
        loadOne: async (id) => {
          const record = await members.findById(id, ENTRY_FIELDS).lean<EntryFields>();
          return record ? entryOf(record) : null;
        },
      },
    });
  }

  /** Starts loading in the background, so the first list does not wait for all of it. */
  warmUp(): Promise<void> {
    return this.directory.load();
  }

  /**
   * One page of the ids a query selects, newest first, the accounts they belong to (in the
   * same order), and how many records the query selects in all.
   */
  async select(
    query: MemberQuery,
    page: number,
    limit: number,
  ): Promise<{ ids: string[]; userIds: string[]; total: number }> {
    const accepted = acceptedTags(query);
    const userId = query.userId;
    const first = (page - 1) * limit;
    const ids: string[] = [];
    const userIds: string[] = [];
    let total = 0;
    // The entry object itself is read only for a userId filter and for the page's ids.
    const visit = (entry: MemberEntry, tag: number) => {
      if (!accepted[tag] || (userId && entry.userId !== userId)) return;
      if (total >= first && ids.length < limit) {
        ids.push(entry.id);
        userIds.push(entry.userId);
      }
      total += 1;
    };
    const entries = await this.directory.entries();
    const version = this.directory.version;
    const term = query.search?.trim().toLowerCase();
    if (term) this.searchText.forEachContaining(entries, version, term, visit);
    else this.searchText.forEach(entries, version, visit);
    return { ids, userIds, total };
  }

  async idsOfUser(userId: string): Promise<string[]> {
    return (await this.select({ userId, includeArchived: true }, 1, Number.MAX_SAFE_INTEGER)).ids;
  }

  async namesBranch(branchId: string): Promise<boolean> {
    return (await this.directory.entries()).some((entry) => entry.branchIds.includes(branchId));
  }

  /** Every write to a member record goes through here, so all instances see it. */
  write<T>(id: string, write: () => Promise<T>): Promise<T> {
    return this.directory.write(id, write);
  }

  bulkChanged(): Promise<void> {
    return this.directory.bulkChanged();
  }
}

const STATUSES = Object.values(MemberStatus);

/** An entry's status and archived flag as one small number, kept beside its search text. */
function tagOf(entry: MemberEntry): number {
  const status = STATUSES.indexOf(entry.status);
  return ((status === -1 ? STATUSES.length : status) << 1) | (entry.archived ? 1 : 0);
}

/** Which tags the query's status and archive filters let through (indexed by tag). */
function acceptedTags(query: MemberQuery): boolean[] {
  return Array.from({ length: (STATUSES.length + 1) << 1 }, (_, tag) => {
    const status = STATUSES[tag >> 1] as MemberStatus | undefined;
    const archived = (tag & 1) === 1;
    return (
      (!query.status || status === query.status) && (query.includeArchived === true || !archived)
    );
  });
}

/** The contract's search rule: a case-insensitive substring of the name, email or mobile. */
function containsTerm(entry: MemberEntry, term: string): boolean {
  return entry.name.includes(term) || entry.email.includes(term) || entry.mobile.includes(term);
}
