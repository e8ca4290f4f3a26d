import type { ModuleBase, ModuleParts } from "../module";
import { createAuditLogModel } from "./audit-log.model";
import { AuditLogRepository } from "./audit-log.repository";
import { AuditLogService } from "./audit-log.service";

/** The audit log: who changed or read what, and when. */
export function createAuditModule({ connection, log }: ModuleBase) {
  const model = createAuditLogModel(connection);
  return {
    services: { audit: new AuditLogService(new AuditLogRepository(model), log) },
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
