import { StoredFile } from "../files/file.type";
import { DateTimeScalar } from "../../graphql/date-time";
import { Field, ID, ObjectType } from "type-graphql";
import { PayloadType } from "../../graphql/envelopes";
import { AuditLogEntry } from "../audit/audit-log.type";
import type { SessionRecord } from "../auth/session.model";
import { CredentialExport } from "../credentials/credential.type";
import { MembershipExport } from "../membership/membership.type";
import { OnlineInterview } from "../interviews/interview.type";
import { InterviewerDetails } from "../interviews/interviewer.type";
import { Member } from "../members/member.type";
import { OfficeHolder } from "../offices/office-holder.type";
import { OnboardingExport } from "../onboarding/onboarding-export";
import { ProfileExport } from "../profiles/profile-export";
import { User } from "../users/user.type";

@ObjectType("SessionExport", {
  simpleResolvers: true,
  description: "A sign-in as the service keeps it (no token)",
})
export class SessionExport {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) userAgent!: string | null;
  @Field(() => String, { nullable: true }) ip!: string | null;
  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) lastUsedAt!: Date;
  @Field(() => DateTimeScalar) expiresAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true }) revokedAt!: Date | null;
  @Field(() => String, { nullable: true }) revokedReason!: string | null;

  static from(record: SessionRecord): SessionExport {
    return Object.assign(new SessionExport(), {
      id: record._id,
      userAgent: record.userAgent,
      ip: record.ip,
      createdAt: record.createdAt,
      lastUsedAt: record.lastUsedAt,
      expiresAt: record.expiresAt,
      revokedAt: record.revokedAt,
      revokedReason: record.revokedReason,
    });
  }
}

@ObjectType("DataExport", {
  simpleResolvers: true,
  description: "Everything the service holds about one account (Data Privacy Act, access)",
})
export class DataExport {
  @Field(() => DateTimeScalar) exportedAt!: Date;
  @Field(() => User) account!: User;
  @Field(() => [String], {
    description:
      "Addresses the account had before its current one, as far as the service still keeps them",
  })
  formerEmails!: string[];
  @Field(() => [SessionExport]) sessions!: SessionExport[];
  @Field(() => [Member], { description: "Applications, with their status history" })
  memberships!: Member[];
  @Field(() => [OfficeHolder], { description: "Appointments, ended ones included" })
  appointments!: OfficeHolder[];
  @Field(() => OnboardingExport, {
    description: "Onboarding documents, payments, essays and the oath",
  })
  onboarding!: OnboardingExport;
  @Field(() => [OnlineInterview], {
    description: "Online interview bookings, with the interviewers' notes",
  })
  interviews!: OnlineInterview[];
  @Field(() => [InterviewerDetails], {
    description: "Interviewer records of the person (linked to the account or with its address)",
  })
  interviewerRecords!: InterviewerDetails[];
  @Field(() => [CredentialExport], { description: "Rendered ID cards and certificates" })
  credentials!: CredentialExport[];
  @Field(() => MembershipExport, {
    nullable: true,
    description: "The membership year, its revocation and renewals; null before any",
  })
  membership!: MembershipExport | null;
  @Field(() => ProfileExport, {
    description: "The public page's certificates and public records, and the pages followed",
  })
  profile!: ProfileExport;
  @Field(() => [AuditLogEntry], { description: "Audit entries naming the account" })
  auditEntries!: AuditLogEntry[];
  @Field(() => [StoredFile], {
    description: "Stored files (documents, photos), each with a fresh signed link",
  })
  files!: StoredFile[];
}

export const DataExportPayload = PayloadType(DataExport, "DataExportPayload");
