// Past the usual size on purpose: the composition root is one list of module factories and the
// ports between them, read top to bottom; splitting it would hide which module feeds which.
import path from "node:path";
import type { Connection } from "mongoose";
import { BackgroundTasks } from "./background-tasks";
import { clockOf } from "./clock";
import type { Config } from "./config";
import { ChangeStamps } from "./db/change-stamps";
import { isDatabaseUp } from "./db/connection";
import { createJobModel } from "./jobs/job.model";
import { JobScheduler, type SchedulerProgress } from "./jobs/scheduler";
import { resolveFieldCipher } from "./db/field-cipher";
import type { Logger } from "./logger";
import { Mailer } from "./mail/mailer";
import { createAuditModule } from "./modules/audit/audit.module";
import { createAuthModule } from "./modules/auth/auth.module";
import { createBranchServicesModule } from "./modules/branch-services/branch-services.module";
import { createCredentialsModule } from "./modules/credentials/credentials.module";
import { createEventsModule } from "./modules/events/events.module";
import { createFilesModule } from "./modules/files/files.module";
import { createInterviewsModule } from "./modules/interviews/interviews.module";
import { createNewsModule } from "./modules/news/news.module";
import { createMembersModule } from "./modules/members/members.module";
import { createMembershipModule } from "./modules/membership/membership.module";
import type { ModuleParts } from "./modules/module";
import { createOfficesModule } from "./modules/offices/offices.module";
import { createOnboardingModule } from "./modules/onboarding/onboarding.module";
import { createOrganisationModule } from "./modules/organisation/organisation.module";
import { createProfilesModule } from "./modules/profiles/profiles.module";
import { createPrivacyModule } from "./modules/privacy/privacy.module";
import { createUsersModule } from "./modules/users/users.module";
import { createWebhooksModule } from "./modules/webhooks/webhooks.module";
import { createReportsModule } from "./modules/reports/reports.module";
import { sumsByMonth } from "./modules/reports/report-ports";
import { RateLimits } from "./rate-limits/rate-limits";
import { ServiceUrl } from "./service-url";

/**
 * The composition root: each module built by its factory on one connection, given what it
 * needs from the others. Requests see `services` only; start-up, shutdown and the tests'
 * raw look at the database use the rest.
 */
export function createServices(
  connection: Connection,
  config: Config,
  jwtSecret: string,
  log: Logger,
) {
  const scheduler = new JobScheduler(connection, { pollSeconds: config.jobsPollSeconds, log });
  const base = { connection, config, log, scheduler };
  const clock = clockOf(config);
  const mailer = new Mailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, "outbox"),
    from: config.mailFrom,
    log,
    // Every mail is from the organisation as its settings stand, and signed with its contacts.
    sender: async () => {
      const identity = await organisation.source.identity();
      const contacts = [identity.email, identity.phone, identity.website].filter(Boolean);
      return { name: identity.name, signature: [identity.address, contacts.join(" · ")] };
    },
  });
  // Keys carry the database name: instances of one deployment share limits, others do not.
  const rateLimits = RateLimits.create({
    limits: config.rateLimits,
    redisUrl: config.redisUrl,
    keyPrefix: config.dbName,
    log,
  });
  const background = new BackgroundTasks(log);
  const serviceUrl = new ServiceUrl(config);
  const cipher = resolveFieldCipher(config, config.dataDir);

  const users = createUsersModule({
    ...base,
    cipher,
    mailer,
    deps: () => ({
      verification: auth.services.emailVerification,
      recentSignIn: auth.services.sessions,
      erasure: privacy.erasure,
      emailFollowers: [members.services.members],
      files: files.refs,
      bannerAmong: (userId, fileIds) => members.services.memberPage.bannerAmong(userId, fileIds),
    }),
  });
  const auth = createAuthModule({
    ...base,
    jwtSecret,
    mailer,
    rateLimits,
    background,
    cipher,
    clock: clock.unshifted(),
    deps: () => ({ users: users.repository }),
  });
  // Other modules are handed `files.refs` (the FileRefs port) through their deps, never the driver.
  const files = createFilesModule({
    ...base,
    jwtSecret,
    // File links are absolute: a site on another origin shows them as they are.
    origin: () => serviceUrl.origin,
    consumeUpload: (accountId) => rateLimits.consumeUpload(accountId),
    deps: () => ({
      // Public while a PUBLIC event, a post that is out, or a public page shows them (avatars,
      // photos, banners, certificates, record pictures: the members module decides).
      publicRules: [events.publicFileRule, news.publicFileRule, members.publicFileRule],
      avatarUploaded: (ownerId, fileId) => users.services.users.useAvatarFile(ownerId, fileId),
    }),
  });
  const branches = createBranchServicesModule({
    ...base,
    deps: () => ({ members: members.services.members }),
  });
  const members = createMembersModule({
    ...base,
    cipher,
    mailer,
    clock,
    deps: () => ({
      users: users.repository,
      branches: branches.services.branchServices,
      offices: offices.forMembers,
      photos: { approvedPhotoOf: (memberId) => onboarding.facts.approvedPhoto(memberId) },
      files: files.refs,
      content: profiles.content,
      standing: membership.standing,
      changes: webhooks.changes,
    }),
  });
  const profiles = createProfilesModule({
    ...base,
    deps: () => ({ members: members.profileMembers, files: files.refs }),
  });
  const offices = createOfficesModule({
    ...base,
    deps: () => ({ members: members.services.members, changes: webhooks.changes }),
    // Unshifted, as news and the public ETags (whose due dates include terms' end dates) are:
    // instances at different offsets share the appointments, and one must not end another's.
    clock: clock.unshifted(),
  });
  const onboarding = createOnboardingModule({
    ...base,
    mailer,
    deps: () => ({
      members: members.services.members.onboarding,
      files: files.refs,
      interviews: interviews.facts,
      credentials: credentials.facts,
      membershipYear: membership.year,
    }),
  });
  const audit = createAuditModule(base);
  const interviews = createInterviewsModule({
    ...base,
    mailer,
    clock,
    deps: () => ({ users: users.repository, onboarding: onboarding.facts }),
  });
  const events = createEventsModule({
    ...base,
    deps: () => ({ files: files.refs, changes: webhooks.changes }),
  });
  const news = createNewsModule({
    ...base,
    deps: () => ({ files: files.refs, members: members.tags, changes: webhooks.changes }),
    clock: clock.unshifted(),
  });
  // Changes the organisation's site shows, sent to it as signed webhooks.
  const webhooks = createWebhooksModule({
    ...base,
    cipher,
    mailer,
    deps: () => ({
      emailOf: async (userId) => (await users.repository.findById(userId))?.email ?? null,
    }),
  });
  const credentials = createCredentialsModule({
    ...base,
    deps: () => ({
      onboarding: onboarding.facts,
      files: files.refs,
      offices: offices.forMembers,
      membership: membership.standing,
      organisation: organisation.source,
    }),
  });
  const organisation = createOrganisationModule({ ...base, deps: () => ({ files: files.refs }) });
  const membership = createMembershipModule({
    ...base,
    clock,
    deps: () => ({
      records: onboarding.facts,
      contactOf: async (userId) => (await users.repository.identitiesOf([userId]))[0] ?? null,
      renewCard: (memberId) => credentials.facts.renewCard(memberId),
      mailer,
      files: files.refs,
    }),
  });
  const reports = createReportsModule({
    clock,
    deps: () => ({
      members: members.reports,
      payments: onboarding.paymentReports,
      interviews: interviews.reports,
      renewals: {
        // Every month so far, as the payments' part; one row a month whatever the currency.
        verifiedByMonth: async () =>
          sumsByMonth(await membership.renewalFacts.verifiedByMonth(new Date(0), clock.now())),
      },
    }),
  });
  const privacy = createPrivacyModule({
    ...base,
    deps: () => ({
      account: users.account,
      formerEmails: users.formerEmails,
      sessions: auth.sessionData,
      memberships: members.memberships,
      appointments: offices.appointments,
      onboarding: onboarding.personalData,
      interviews: interviews.personalData,
      credentials: credentials.personalData,
      membership: membership.personalData,
      profiles: profiles.personalData,
      audit: audit.services.audit,
      files: files.personalData,
      // Appointments before the member records they count on; files before the account; mail last.
      erasers: [
        offices.appointments,
        onboarding.personalData,
        interviews.personalData,
        credentials.personalData,
        membership.personalData,
        { erase: ({ id }) => organisation.forgetEditor(id) },
        profiles.personalData,
        members.memberships,
        files.personalData,
        webhooks.personalData,
        auth.sessionData,
        users.account,
      ],
    }),
  });

  const modules: ModuleParts[] = [
    users,
    auth,
    branches,
    members,
    profiles,
    offices,
    onboarding,
    interviews,
    credentials,
    organisation,
    membership,
    audit,
    files,
    events,
    news,
    webhooks,
  ];
  const migrations = modules.flatMap((module) => module.migrations ?? []);
  return {
    /** What a request may use (RequestContext.services). */
    services: {
      ...users.services,
      ...auth.services,
      ...branches.services,
      ...members.services,
      ...profiles.services,
      ...offices.services,
      ...onboarding.services,
      ...interviews.services,
      ...credentials.services,
      ...organisation.services,
      ...membership.services,
      ...audit.services,
      ...files.services,
      ...events.services,
      ...news.services,
      ...webhooks.services,
      ...reports.services,
      ...privacy.services,
      rateLimits,
      // News's clock: a post's scheduled time comes for its version when it comes for the post.
      changeStamps: new ChangeStamps(connection, () => clock.unshifted().now()),
      health: { databaseUp: () => isDatabaseUp(connection) },
    },
    /** Every module's collections, and the scheduler's, whose indexes are built at start. */
    models: [...modules.flatMap((module) => module.models), createJobModel(connection)],
    /** Started once indexes exist; stopped first at shutdown, while what its jobs use is open. */
    scheduler,
    /** Brings records written by earlier versions up to date, at start (src/db/migrations.ts). */
    migrations,
    /** The accounts' collection, for the first administrator at start. */
    userRepository: users.repository,
    /** Told the port once the server listens (src/server.ts). */
    serviceUrl,
    /**
     * Not for requests: tests sign a token, read sealed fields and what the hashing queue did,
     * flush mail, migrate again.
     */
    internals: {
      /** Renewal figures by month, as the reports will read them. */
      renewalFacts: membership.renewalFacts,
      tokens: auth.tokens,
      hashing: auth.hashing,
      /** Moved forward by tests (`advance`) instead of sleeping for an expiry or a schedule. */
      clock,
      /** The scheduler's runs so far, which tests wait on instead of sleeping through a look. */
      jobs: scheduler as SchedulerProgress,
      cipher,
      mailer,
      background,
      migrations,
    },
    /**
     * Finishes background work, lets queued mail go out, releases Redis, the hashing threads
     * and the modules' timers; the connection belongs to the caller.
     */
    close: async () => {
      await scheduler.stop();
      await background.drain();
      await Promise.all([
        mailer.close(),
        rateLimits.close(),
        ...modules.map((module) => module.close?.()),
      ]);
    },
  };
}

export type Composition = ReturnType<typeof createServices>;
/** The services a request may use: no models, repositories or connection. */
export type Services = Composition["services"];
