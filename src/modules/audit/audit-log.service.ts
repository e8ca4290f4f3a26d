import { ActivityEntry } from "./activity.type";
import type { Logger } from "pino";
import { ValidationError } from "../../errors/app-errors";
import { pageOf, type PageResult } from "../page-result";
import type { AuditLogListArgs } from "./audit-log.input";
import type { AuditLogRecord } from "./audit-log.model";
import type { AuditLogRepository } from "./audit-log.repository";
import { AuditLogEntry } from "./audit-log.type";

export type AuditEntry = Omit<AuditLogRecord, "_id" | "at">;

/** An entry for an act done by a request's caller (anonymous: null): ids only. */
export function entryFor(
  request: {
    caller?: { id: string; role: string };
    requestId: string;
    clientRequestId?: string | null;
  },
  act: Pick<AuditEntry, "action" | "targetType" | "targetId">,
): AuditEntry {
  return {
    actorId: request.caller?.id ?? null,
    actorRole: request.caller?.role ?? null,
    ...act,
    requestId: request.requestId,
    clientRequestId: request.clientRequestId ?? null,
  };
}

/** Appends administrative acts and lists them for administrators. */
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly log: Logger,
  ) {}

  /**
   * Appends one entry. The act it describes has already happened, so a failure here cannot
   * undo it; it is logged at error level (with ids only) for the operator to follow up.
   */
  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.entries.append({ ...entry, at: new Date() });
    } catch (error) {
      this.log.error({ err: error, audit: entry }, "audit entry not written");
    }
  }

  /** Subject access: the entries naming any of `ids` as actor or as target, newest first. */
  async entriesAbout(ids: string[]): Promise<AuditLogEntry[]> {
    return (await this.entries.about(ids)).map((record) => AuditLogEntry.from(record));
  }

  /** The caller's own audited acts, newest first (GET /activity-logs/current). */
  async activityOf(actorId: string, limit: number): Promise<ActivityEntry[]> {
    return (await this.entries.latestBy(actorId, limit)).map((record) =>
      ActivityEntry.from(record),
    );
  }

  async list(args: AuditLogListArgs): Promise<PageResult<AuditLogEntry>> {
    if (args.from && args.to && args.from >= args.to) {
      throw ValidationError.field("to", "to must be after from");
    }
    const { records, total } = await this.entries.page(args, args.page, args.limit);
    return pageOf(
      args,
      records.map((record) => AuditLogEntry.from(record)),
      total,
    );
  }
}
