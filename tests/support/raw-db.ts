import type { Connection, Model } from "mongoose";
import type { AuditLogRecord } from "../../src/modules/audit/audit-log.model";
import type { SessionRecord } from "../../src/modules/auth/session.model";
import type { BranchServiceRecord } from "../../src/modules/branch-services/branch-service.model";
import type { FileRecord } from "../../src/modules/files/file.model";
import type { MemberRecord } from "../../src/modules/members/member.model";
import type { OfficeHolderRecord } from "../../src/modules/offices/office-holder.model";
import type { OfficeRecord } from "../../src/modules/offices/office.model";
import type { UserRecord } from "../../src/modules/users/user.model";
import type { TestApp } from "./test-app";

/**
 * The stored state behind a test app, for tests that check what was written (or plant what a
 * client cannot write): the app's own connection and the mongoose models its modules
 * registered on it. The service itself never hands these out; requests see services only.
 */
export function rawDb(app: Pick<TestApp, "connection">) {
  const { connection } = app;
  return {
    connection,
    users: modelOf<UserRecord>(connection, "User"),
    sessions: modelOf<SessionRecord>(connection, "Session"),
    branchServices: modelOf<BranchServiceRecord>(connection, "BranchService"),
    members: modelOf<MemberRecord>(connection, "Member"),
    offices: modelOf<OfficeRecord>(connection, "Office"),
    officeHolders: modelOf<OfficeHolderRecord>(connection, "OfficeHolder"),
    auditLogs: modelOf<AuditLogRecord>(connection, "AuditLog"),
    files: modelOf<FileRecord>(connection, "StoredFile"),
  };
}

function modelOf<T>(connection: Connection, name: string): Model<T> {
  return connection.model<T>(name);
}
