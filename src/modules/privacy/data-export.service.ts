import type { AuditLogService } from "../audit/audit-log.service";
import type { SessionRecord } from "../auth/session.model";
import type { FileView } from "../files/file-refs";
import { StoredFile } from "../files/file.type";
import type { Member } from "../members/member.type";
import type { CredentialExport } from "../credentials/credential.type";
import type { MembershipExport } from "../membership/membership.type";
import type { InterviewsExport } from "../interviews/interviews.module";
import type { OfficeHolder } from "../offices/office-holder.type";
import type { OnboardingExport } from "../onboarding/onboarding-export";
import type { ProfileExport } from "../profiles/profile-export";
import type { UserRecord } from "../users/user.model";
import { User } from "../users/user.type";
import { DataExport, SessionExport } from "./data-export.type";
import type { PersonalData } from "./personal-data";

/** The modules asked for their part of a subject access export. */
export interface ExportSources {
  account: Pick<PersonalData<UserRecord>, "exportOf">;
  /** The account's earlier addresses the service still keeps, opened. */
  formerEmails: Pick<PersonalData<string[]>, "exportOf">;
  sessions: Pick<PersonalData<SessionRecord[]>, "exportOf">;
  memberships: Pick<PersonalData<Member[]>, "exportOf">;
  appointments: Pick<PersonalData<OfficeHolder[]>, "exportOf">;
  /** Documents, payments, essays and the oath. */
  onboarding: Pick<PersonalData<OnboardingExport>, "exportOf">;
  /** Interview bookings with the interviewers' notes; the person's interviewer records. */
  interviews: Pick<PersonalData<InterviewsExport>, "exportOf">;
  /** Rendered ID cards and certificates (the files themselves are listed with the files). */
  credentials: Pick<PersonalData<CredentialExport[]>, "exportOf">;
  /** The membership year, its revocation and renewals. */
  membership: Pick<PersonalData<MembershipExport | null>, "exportOf">;
  /** What the account added to its public page, and whom it follows. */
  profiles: Pick<PersonalData<ProfileExport>, "exportOf">;
  audit: Pick<AuditLogService, "entriesAbout">;
  files: Pick<PersonalData<FileView[]>, "exportOf">;
}

/**
 * Subject access (Data Privacy Act, right to access): one document with everything the
 * service holds about an account, each module asked for its part.
 */
export class DataExportService {
  constructor(private readonly sources: () => ExportSources) {}

  async exportOf(userId: string): Promise<DataExport> {
    const account = await this.sources().account.exportOf(userId);
    const [
      formerEmails,
      sessions,
      memberships,
      appointments,
      onboarding,
      interviews,
      credentials,
      profile,
      files,
      membership,
    ] = await Promise.all([
      this.sources().formerEmails.exportOf(userId),
      this.sources().sessions.exportOf(userId),
      this.sources().memberships.exportOf(userId),
      this.sources().appointments.exportOf(userId),
      this.sources().onboarding.exportOf(userId),
      this.sources().interviews.exportOf(userId),
      this.sources().credentials.exportOf(userId),
      this.sources().profiles.exportOf(userId),
      this.sources().files.exportOf(userId),
      this.sources().membership.exportOf(userId),
    ]);
    // Acts by the account, and acts on it, on its applications and on its appointments.
    const auditEntries = await this.sources().audit.entriesAbout([
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
      onboarding,
      interviews: interviews.bookings,
      interviewerRecords: interviews.interviewers,
      credentials,
      membership,
      profile,
      auditEntries,
      files: files.map((file) => StoredFile.from(file)),
    });
  }
}
