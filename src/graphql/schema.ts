import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchemaSync } from "type-graphql";
import { AuditLogResolver } from "../modules/audit/audit-log.resolver";
import { auditOperations } from "../modules/audit/audited-operations";
import { AuthResolver } from "../modules/auth/auth.resolver";
import { SessionResolver } from "../modules/auth/session.resolver";
import { BranchServiceResolver } from "../modules/branch-services/branch-service.resolver";
import { CredentialResolver } from "../modules/credentials/credential.resolver";
import { MembershipResolver } from "../modules/membership/membership.resolver";
import { OrganisationResolver } from "../modules/organisation/organisation.resolver";
import { InterviewResolver } from "../modules/interviews/interview.resolver";
import { InterviewerResolver } from "../modules/interviews/interviewer.resolver";
import { EventResolver } from "../modules/events/event.resolver";
import { NewsResolver } from "../modules/news/news.resolver";
import { MemberProfileResolver } from "../modules/members/member-profile";
import { MemberResolver } from "../modules/members/member.resolver";
import { MemberPublicResolver } from "../modules/members/member-public.resolver";
import { MemberPageResolver } from "../modules/members/member-page.resolver";
import { CertificateResolver } from "../modules/profiles/certificate.resolver";
import { FollowResolver } from "../modules/profiles/follow.resolver";
import { PublicRecordResolver } from "../modules/profiles/public-record.resolver";
import { OfficeHolderResolver } from "../modules/offices/office-holder.resolver";
import { OfficeResolver } from "../modules/offices/office.resolver";
import { AvatarResolver, MemberPhotoResolver } from "../modules/files/avatar.resolver";
import { FileResolver } from "../modules/files/file.resolver";
import { CourseResolver } from "../modules/onboarding/course.resolver";
import { PaymentResolver } from "../modules/onboarding/payment.resolver";
import {
  MemberOnboardingResolver,
  MemberProfileOnboardingResolver,
  OnboardingProgressResolver,
} from "../modules/onboarding/progress.resolver";
import { RequirementResolver } from "../modules/onboarding/requirement.resolver";
import { TrainingResolver } from "../modules/onboarding/training.resolver";
import { DataExportResolver } from "../modules/privacy/data-export.resolver";
import { UsersResolver } from "../modules/users/users.resolver";
import { WebhookResolver } from "../modules/webhooks/webhook.resolver";
import { ReportPartsResolver, ReportsResolver } from "../modules/reports/reports.resolver";
import { authChecker } from "./access";
import { validateArguments } from "./validation";

export const resolvers = [
  AuthResolver,
  SessionResolver,
  UsersResolver,
  MemberResolver,
  MemberPublicResolver,
  MemberPageResolver,
  CertificateResolver,
  PublicRecordResolver,
  FollowResolver,
  MemberProfileResolver,
  OfficeResolver,
  OfficeHolderResolver,
  BranchServiceResolver,
  RequirementResolver,
  CourseResolver,
  TrainingResolver,
  PaymentResolver,
  OnboardingProgressResolver,
  MemberOnboardingResolver,
  MemberProfileOnboardingResolver,
  InterviewResolver,
  InterviewerResolver,
  CredentialResolver,
  MembershipResolver,
  OrganisationResolver,
  EventResolver,
  NewsResolver,
  AuditLogResolver,
  DataExportResolver,
  FileResolver,
  AvatarResolver,
  MemberPhotoResolver,
  WebhookResolver,
  ReportsResolver,
  ReportPartsResolver,
] as const;

export function buildAppSchema(): Promise<GraphQLSchema> {
  return Promise.resolve(buildAppSchemaSync());
}

/** For a test's module level, where the route table must be known before any test runs. */
export function buildAppSchemaSync(): GraphQLSchema {
  const schema = buildSchemaSync({
    resolvers: [...resolvers],
    authChecker,
    validateFn: validateArguments,
  });
  auditOperations(schema);
  return schema;
}
