/** An audit log entry as `GET /audit-logs` answers it. */
export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  requestId: string;
  clientRequestId: string | null;
}
