import type { Logger } from "pino";
import { oneOf, within } from "../../db/operators";
import { ValidationError } from "../../errors/app-errors";
import { Pagination, type Page } from "../../graphql/envelopes";
import type { AuditLogListArgs } from "./audit-log.input";
import type { AuditLogModel, AuditLogRecord } from "./audit-log.model";
import { AuditLogEntry } from "./audit-log.type";

export type AuditEntry = Omit<AuditLogRecord, "_id" | "at">;

/** An entry for an act done by a request's caller (anonymous: null): ids only. */
export function entryFor(
  request: { caller?: { id: string; role: string }; requestId: string },
  act: Pick<AuditEntry, "action" | "targetType" | "targetId">,
): AuditEntry {
  return {
    actorId: request.caller?.id ?? null,
    actorRole: request.caller?.role ?? null,
    ...act,
    requestId: request.requestId,
  };
}

/** Appends administrative acts and lists them for administrators (issue 8). */
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogModel,
    private readonly log: Logger,
  ) {}

  /**
   * Appends one entry. The act it describes has already happened, so a failure here cannot
   * undo it; it is logged at error level (with ids only) for the operator to follow up.
   */
  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.entries.create({ ...entry, at: new Date() });
    } catch (error) {
      this.log.error({ err: error, audit: entry }, "audit entry not written");
    }
  }

  /** Subject access: the entries naming any of `ids` as actor or as target, newest first. */
  async entriesAbout(ids: string[]): Promise<AuditLogEntry[]> {
    const [asActor, asTarget] = await Promise.all([
      this.entries.find({ actorId: oneOf(ids) }).lean(),
      this.entries.find({ targetId: oneOf(ids) }).lean(),
    ]);
    const unique = new Map([...asActor, ...asTarget].map((record) => [record._id, record]));
    return [...unique.values()]
      .sort((a, b) => (a._id < b._id ? 1 : -1))
      .map((record) => AuditLogEntry.from(record));
  }

  async list(args: AuditLogListArgs): Promise<Omit<Page<AuditLogEntry>, "code" | "message">> {
    if (args.from && args.to && args.from >= args.to) {
      throw ValidationError.field("to", "to must be after from");
    }
    const filter: Record<string, unknown> = {};
    if (args.actorId) filter.actorId = args.actorId;
    if (args.targetId) filter.targetId = args.targetId;
    if (args.action) filter.action = args.action;
    if (args.from || args.to) filter.at = within(args.from, args.to);
    const [records, total] = await Promise.all([
      this.entries
        .find(filter)
        .sort({ at: -1, _id: -1 })
        .skip((args.page - 1) * args.limit)
        .limit(args.limit)
        .lean(),
      this.entries.countDocuments(filter),
    ]);
    return {
      data: records.map((record) => AuditLogEntry.from(record)),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }
}
