import type { AuditLogService } from "../audit/audit-log.service";
import type { SessionService } from "../auth/session.service";
import type { MemberService } from "../members/member.service";
import type { OfficeHolderService } from "../offices/office-holder.service";
import { User } from "../users/user.type";
import type { UsersService } from "../users/users.service";
import { DataExport, SessionExport } from "./data-export.type";

/**
 * Subject access (Data Privacy Act, right to access): one document with everything the
 * service holds about an account, gathered from each module that keeps some of it.
 */
export class DataExportService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    private readonly members: MemberService,
    private readonly officeHolders: OfficeHolderService,
    private readonly audit: AuditLogService,
    /** The account's earlier addresses the service keeps (users' email history), opened. */
    private readonly formerEmailsOf: (userId: string) => Promise<string[]>,
  ) {}

  async exportOf(userId: string): Promise<DataExport> {
    const account = await this.users.get(userId);
    const [formerEmails, sessions, memberships, appointments] = await Promise.all([
      this.formerEmailsOf(userId),
      this.sessions.allOf(userId),
      this.members.allOf(userId),
      this.officeHolders.allOfUser(userId),
    ]);
    // Acts by the account, and acts on it, on its applications and on its appointments.
    const auditEntries = await this.audit.entriesAbout([
      userId,
      ...memberships.map((member) => member.id),
      ...appointments.map((holder) => holder.id),
    ]);
    return Object.assign(new DataExport(), {
      exportedAt: new Date(),
      account: User.from(account),
      formerEmails,
      sessions: sessions.map((session) => SessionExport.from(session)),
      memberships,
      appointments,
      auditEntries,
    });
  }
}
