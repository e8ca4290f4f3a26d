import { createHmac } from "node:crypto";
import path from "node:path";
import type { Connection } from "mongoose";
import type { Config } from "./config";
import { createAuditLogModel } from "./modules/audit/audit-log.model";
import { DataExportService } from "./modules/privacy/data-export.service";
import { AuditLogRepository } from "./modules/audit/audit-log.repository";
import { AuditLogService } from "./modules/audit/audit-log.service";
import { BackgroundTasks } from "./background-tasks";
import { resolveFieldCipher } from "./db/field-cipher";
import type { Logger } from "./logger";
import { Mailer } from "./mail/mailer";
import { AuthService } from "./modules/auth/auth.service";
import { EmailVerificationService } from "./modules/auth/email-verification.service";
import { MfaService } from "./modules/auth/mfa.service";
import { BcryptPool, defaultBcryptWorkers } from "./modules/auth/bcrypt-pool";
import { CredentialsService } from "./modules/auth/credentials.service";
import { PasswordHasher } from "./modules/auth/password-hasher";
import { PasswordResetService } from "./modules/auth/password-reset.service";
import { createSessionModel } from "./modules/auth/session.model";
import { SessionRepository } from "./modules/auth/session.repository";
import { SessionService } from "./modules/auth/session.service";
import { TokenService } from "./modules/auth/token.service";
import { BranchServiceRepository } from "./modules/branch-services/branch-service.repository";
import { createBranchServiceModel } from "./modules/branch-services/branch-service.model";
import { BranchServiceService } from "./modules/branch-services/branch-service.service";
import type { MigrationStep } from "./db/migrations";
import type { MemberReferences } from "./modules/members/member.presenter";
import { MemberRepository } from "./modules/members/member.repository";
import { MemberMaintenanceRepository } from "./modules/members/member-maintenance.repository";
import { storedKeysOf } from "./modules/members/member-duplicates";
import { createMemberModel } from "./modules/members/member.model";
import { createOfficeHolderModel } from "./modules/offices/office-holder.model";
import { OfficeHolderRepository } from "./modules/offices/office-holder.repository";
import { OfficeHolderService } from "./modules/offices/office-holder.service";
import { officeSlotMigration } from "./modules/offices/office-slot.migration";
import { OfficeSlots } from "./modules/offices/office-slots";
import { OfficeRepository } from "./modules/offices/office.repository";
import { createOfficeModel } from "./modules/offices/office.model";
import { OfficeService } from "./modules/offices/office.service";
import { MemberService } from "./modules/members/member.service";
import { createUserModel, FORMER_EMAILS_FIELD, MFA_SECRET_FIELD } from "./modules/users/user.model";
import { UserRepository } from "./modules/users/user.repository";
import { UsersService } from "./modules/users/users.service";
import { RateLimits } from "./rate-limits/rate-limits";

/** The composition root: every model and service of one app instance, on one connection. */
export function createServices(
  connection: Connection,
  config: Config,
  jwtSecret: string,
  log: Logger,
) {
  const models = {
    users: createUserModel(connection),
    sessions: createSessionModel(connection),
    branchServices: createBranchServiceModel(connection),
    members: createMemberModel(connection),
    offices: createOfficeModel(connection),
    officeHolders: createOfficeHolderModel(connection),
    auditLogs: createAuditLogModel(connection),
  };
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
  const tokens = new TokenService(jwtSecret, config.accessTokenTtlSeconds);
  const hasher = new PasswordHasher(
    config.bcryptCost,
    new BcryptPool(defaultBcryptWorkers(config.workers)),
  );
  const userRepository = new UserRepository(models.users);
  const cipher = resolveFieldCipher(config, config.dataDir);
  const sessions = new SessionService(
    new SessionRepository(models.sessions),
    {
      refreshTtlSeconds: config.refreshTokenTtlSeconds,
      reuseGraceSeconds: config.refreshReuseGraceSeconds,
      reauthMaxAgeSeconds: config.reauthMaxAgeSeconds,
      // Its own key, derived from the signing secret (which can mint access tokens anyway).
      successorKey: createHmac("sha256", jwtSecret).update("refresh-token-successor").digest(),
    },
    log,
  );
  const background = new BackgroundTasks(log);
  const emailVerification = new EmailVerificationService(
    userRepository,
    mailer,
    config.appUrl,
    background,
  );
  const mfa = new MfaService(userRepository, hasher, rateLimits, sessions, cipher);
  const branchRepository = new BranchServiceRepository(models.branchServices);
  const branchServices = new BranchServiceService(branchRepository, (branchId) =>
    members.isBranchInUse(branchId),
  );
  const memberReferences: MemberReferences = {
    applicants: async (userIds) =>
      (await userRepository.findByIds(userIds, { name: 1, email: 1, role: 1 })).map((user) => ({
        id: user._id,
        name: user.name,
        email: user.email,
        role: user.role,
      })),
    branchTitles: (branchIds) => branchServices.titlesOf(branchIds),
    existingBranchIds: (branchIds) => branchServices.existingIds(branchIds),
  };
  const memberRepository = new MemberRepository(models.members);
  const memberMaintenance = new MemberMaintenanceRepository(models.members);
  const members: MemberService = new MemberService(memberRepository, memberReferences, cipher, {
    mailer,
    log,
    appUrl: config.appUrl,
    requirePrivacyConsent: config.requirePrivacyConsent,
    releaseLapsedTerms: () => officeSlots.releaseLapsed(),
    currentOffices: async (memberId) => {
      const { data } = await officeHolders.listOfMember({
        id: memberId,
        includeEnded: false,
        page: 1,
        limit: 100,
      });
      return data.map((holder) => ({ title: holder.office.name, level: holder.office.level }));
    },
  });
  const officeRepository = new OfficeRepository(models.offices);
  const holderRepository = new OfficeHolderRepository(models.officeHolders);
  const officeSlots = new OfficeSlots(officeRepository, holderRepository, members);
  const officeHolders = new OfficeHolderService(
    holderRepository,
    officeRepository,
    officeSlots,
    members,
  );
  const audit = new AuditLogService(new AuditLogRepository(models.auditLogs), log);
  const formerEmailsOf = async (id: string): Promise<string[]> => {
    const former = (await userRepository.findById(id, { formerEmails: 1 }))?.formerEmails;
    return (former ?? []).map((sealed) => cipher.open(sealed, FORMER_EMAILS_FIELD));
  };
  const users = new UsersService(
    userRepository,
    emailVerification,
    {
      erasers: [
        ({ id }) => officeHolders.deleteAllOfUser(id),
        ({ id }) => members.deleteAllOf(id),
        ({ id }) => sessions.deleteAllOf(id),
        // Mail to every address the account had, not only its last (the outbox of the default).
        async ({ id, email }) => {
          const addresses = await formerEmailsOf(id);
          for (const address of new Set([email, ...addresses])) await mailer.forget(address);
        },
      ],
      emailChanged: [
        (userId, email) => members.emailChanged(userId, email),
        // Only while mail is kept here: with SMTP the service holds no mail to erase.
        async (userId, _email, previous) => {
          if (!mailer.keepsMessages) return;
          await userRepository.rememberFormerEmail(
            userId,
            cipher.seal(previous, FORMER_EMAILS_FIELD),
          );
        },
      ],
    },
    sessions,
    mailer,
  );
  return {
    connection,
    models,
    cipher,
    mailer,
    rateLimits,
    tokens,
    sessions,
    emailVerification,
    mfa,
    userRepository,
    auth: new AuthService(
      userRepository,
      tokens,
      sessions,
      hasher,
      emailVerification,
      mfa,
      rateLimits,
    ),
    credentials: new CredentialsService(userRepository, sessions, hasher, mfa, rateLimits, mailer),
    passwordReset: new PasswordResetService(
      userRepository,
      sessions,
      hasher,
      mailer,
      config.appUrl,
      background,
    ),
    members,
    users,
    /** Brings records written by earlier versions up to date, at start (src/db/migrations.ts). */
    migrations: [
      { name: "member search fields", run: () => memberMaintenance.backfillSearchFields() },
      {
        name: "member duplicate keys",
        run: () => memberMaintenance.backfillDuplicateKeys(storedKeysOf(cipher)),
      },
      officeSlotMigration(holderRepository, officeRepository, members),
      { name: "office search text", run: () => officeRepository.backfillSearchText() },
      { name: "branch search text", run: () => branchRepository.backfillSearchText() },
      {
        name: "TOTP secrets sealed",
        run: () =>
          userRepository.sealClearMfaSecrets((clear) => cipher.seal(clear, MFA_SECRET_FIELD)),
      },
    ] satisfies MigrationStep[],
    branchServices,
    offices: new OfficeService(officeRepository, holderRepository, officeSlots),
    audit,
    dataExport: new DataExportService(
      users,
      sessions,
      members,
      officeHolders,
      audit,
      formerEmailsOf,
    ),
    officeHolders,
    background,
    /**
     * Finishes background work, lets queued mail go out, releases Redis and the hashing
     * threads; the connection belongs to the caller.
     */
    close: async () => {
      await background.drain();
      await Promise.all([mailer.close(), rateLimits.close(), hasher.close()]);
    },
  };
}

export type Services = ReturnType<typeof createServices>;
