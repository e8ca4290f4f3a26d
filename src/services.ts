import path from "node:path";
import type { Connection } from "mongoose";
import { BackgroundTasks } from "./background-tasks";
import type { Config } from "./config";
import { ChangeStamps } from "./db/change-stamps";
import { isDatabaseUp } from "./db/connection";
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
import type { ModuleParts } from "./modules/module";
import { createOfficesModule } from "./modules/offices/offices.module";
import { createOnboardingModule } from "./modules/onboarding/onboarding.module";
import { createPrivacyModule } from "./modules/privacy/privacy.module";
import { createUsersModule } from "./modules/users/users.module";
import { RateLimits } from "./rate-limits/rate-limits";

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
  const base = { connection, config, log };
  const mailer = new Mailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, "outbox"),
    from: config.mailFrom,
    log,
  });
  // Keys carry the database name: instances of one deployment share limits, others do not.
  const rateLimits = RateLimits.create({
    limits: config.rateLimits,
    redisUrl: config.redisUrl,
    keyPrefix: config.dbName,
    log,
  });
  const background = new BackgroundTasks(log);
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
    }),
  });
  const auth = createAuthModule({
    ...base,
    jwtSecret,
    users: users.repository,
    mailer,
    rateLimits,
    background,
    cipher,
  });
  // Other modules are handed `files.refs` (the FileRefs port) through their deps, never the driver.
  const files = createFilesModule({
    ...base,
    jwtSecret,
    // A listed member's avatar and a shown 2x2 photo are public (the members module decides).
    deps: () => ({ publicRule: members.publicFileRule }),
  });
  const branches = createBranchServicesModule({
    ...base,
    deps: () => ({ members: members.services.members }),
  });
  const members = createMembersModule({
    ...base,
    cipher,
    mailer,
    deps: {
      users: users.repository,
      branches: branches.services.branchServices,
      offices: () => offices.forMembers,
      photos: () => ({
        photoIdOf: (memberId) => onboarding.facts.approvedPhoto2x2(memberId),
        photoUrlOf: async (memberId) => {
          const id = await onboarding.facts.approvedPhoto2x2(memberId);
          if (!id) return null;
          return (await files.refs.describe([id], "public")).get(id)?.fileUrl ?? null;
        },
      }),
      files: () => files.refs,
    },
  });
  const offices = createOfficesModule({ ...base, members: members.services.members });
  const onboarding = createOnboardingModule({
    ...base,
    mailer,
    members: members.services.members.onboarding,
    deps: () => ({
      files: files.refs,
      interviews: interviews.facts,
      credentials: credentials.facts,
    }),
  });
  const audit = createAuditModule(base);
  const interviews = createInterviewsModule({
    ...base,
    mailer,
    users: users.repository,
    onboarding: () => onboarding.facts,
  });
  const events = createEventsModule({ ...base, files: () => files.refs });
  const news = createNewsModule({
    ...base,
    deps: () => ({ files: files.refs, members: members.tags }),
  });
  const credentials = createCredentialsModule({
    ...base,
    deps: () => ({ onboarding: onboarding.facts, files: files.refs, offices: offices.forMembers }),
  });
  const privacy = createPrivacyModule({
    account: users.account,
    formerEmails: users.formerEmails,
    sessions: auth.sessionData,
    memberships: members.memberships,
    appointments: offices.appointments,
    onboarding: onboarding.personalData,
    interviews: interviews.personalData,
    credentials: credentials.personalData,
    audit: audit.services.audit,
    files: files.personalData,
    // Appointments before the member records they count on; files before the account; mail last.
    erasers: [
      offices.appointments,
      onboarding.personalData,
      interviews.personalData,
      credentials.personalData,
      members.memberships,
      files.personalData,
      auth.sessionData,
      users.account,
    ],
  });

  const modules: ModuleParts[] = [
    users,
    auth,
    branches,
    members,
    offices,
    onboarding,
    interviews,
    credentials,
    audit,
    files,
    events,
    news,
  ];
  const migrations = modules.flatMap((module) => module.migrations ?? []);
  return {
    /** What a request may use (RequestContext.services). */
    services: {
      ...users.services,
      ...auth.services,
      ...branches.services,
      ...members.services,
      ...offices.services,
      ...onboarding.services,
      ...interviews.services,
      ...credentials.services,
      ...audit.services,
      ...files.services,
      ...events.services,
      ...news.services,
      ...privacy.services,
      rateLimits,
      changeStamps: new ChangeStamps(connection),
      health: { databaseUp: () => isDatabaseUp(connection) },
    },
    /** Every module's collections, whose indexes are built at start. */
    models: modules.flatMap((module) => module.models),
    /** Brings records written by earlier versions up to date, at start (src/db/migrations.ts). */
    migrations,
    /** The accounts' collection, for the first administrator at start. */
    userRepository: users.repository,
    /**
     * Not for requests: tests sign a token, read sealed fields and what the hashing queue did,
     * flush mail, migrate again.
     */
    internals: {
      tokens: auth.tokens,
      hashing: auth.hashing,
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
