import { oneOf, within } from "../../db/operators";
import { findPage, type FoundPage } from "../../db/page-query";
import type { AuditLogModel, AuditLogRecord } from "./audit-log.model";

/** What the audit list may be narrowed by. */
export interface AuditLogQuery {
  actorId?: string | null;
  targetId?: string | null;
  action?: string | null;
  from?: Date | null;
  to?: Date | null;
}

const NEWEST_FIRST = { at: -1, _id: -1 } as const;

/** Every database call on audit entries. */
export class AuditLogRepository {
  constructor(private readonly entries: AuditLogModel) {}

  async append(entry: Omit<AuditLogRecord, "_id">): Promise<void> {
    await this.entries.create(entry);
  }

  /** The entries naming any of `ids` as actor or as target, newest first. */
  async about(ids: string[]): Promise<AuditLogRecord[]> {
    const [asActor, asTarget] = await Promise.all([
      this.entries
        .find({ actorId: oneOf(ids) })
        .lean<AuditLogRecord[]>()
        .exec(),
      this.entries
        .find({ targetId: oneOf(ids) })
        .lean<AuditLogRecord[]>()
        .exec(),
    ]);
    const unique = new Map([...asActor, ...asTarget].map((record) => [record._id, record]));
    return [...unique.values()].sort((a, b) => (a._id < b._id ? 1 : -1));
  }

  /** The latest acts of one account, newest first (served by the actorId index). */
  latestBy(actorId: string, limit: number): Promise<AuditLogRecord[]> {
    return this.entries
      .find({ actorId })
      .sort(NEWEST_FIRST)
      .limit(limit)
      .lean<AuditLogRecord[]>()
      .exec();
  }

  page(query: AuditLogQuery, page: number, limit: number): Promise<FoundPage<AuditLogRecord>> {
    const filter: Record<string, unknown> = {};
    if (query.actorId) filter.actorId = query.actorId;
    if (query.targetId) filter.targetId = query.targetId;
    if (query.action) filter.action = query.action;
    if (query.from || query.to) filter.at = within(query.from, query.to);
    return findPage(this.entries, filter, NEWEST_FIRST, { page, limit });
  }
}
