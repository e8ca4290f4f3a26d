import path from "node:path";
import type { Connection } from "mongoose";
import type { Config } from "./config";
import { Claims } from "./db/claims";
import { createAuditLogModel } from "./modules/audit/audit-log.model";
import { DataExportService } from "./modules/privacy/data-export.service";
import { AuditLogService } from "./modules/audit/audit-log.service";
import { resolveFieldCipher } from "./db/field-cipher";
import { Locks } from "./db/locks";
import type { Logger } from "./logger";
import { Mailer } from "./mail/mailer";
import { AuthService } from "./modules/auth/auth.service";
import { EmailVerificationService } from "./modules/auth/email-verification.service";
import { MfaService } from "./modules/auth/mfa.service";
import { BcryptPool, defaultBcryptWorkers } from "./modules/auth/bcrypt-pool";
import { PasswordHasher } from "./modules/auth/password-hasher";
import { PasswordResetService } from "./modules/auth/password-reset.service";
import { createSessionModel } from "./modules/auth/session.model";
import { SessionRepository } from "./modules/auth/session.repository";
import { SessionService } from "./modules/auth/session.service";
import { TokenService } from "./modules/auth/token.service";
import { BranchDirectory } from "./modules/branch-services/branch-directory";
import { createBranchServiceModel } from "./modules/branch-services/branch-service.model";
import { BranchServiceService } from "./modules/branch-services/branch-service.service";
import { MemberDirectory } from "./modules/members/member-directory";
import { createMemberModel } from "./modules/members/member.model";
import { OfficeDirectory } from "./modules/offices/office-directory";
import { createOfficeHolderModel } from "./modules/offices/office-holder.model";
import { OfficeHolderService } from "./modules/offices/office-holder.service";
import { createOfficeModel } from "./modules/offices/office.model";
import { OfficeService } from "./modules/offices/office.service";
import { MemberService } from "./modules/members/member.service";
import { createUserModel } from "./modules/users/user.model";
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
  const claims = new Claims(connection);
  const cipher = resolveFieldCipher(config, config.dataDir);
  const locks = new Locks(connection);
  const sessions = new SessionService(
    new SessionRepository(models.sessions),
    config.refreshTokenTtlSeconds,
    log,
  );
  const emailVerification = new EmailVerificationService(userRepository, mailer, config.appUrl);
  const mfa = new MfaService(userRepository, hasher, rateLimits);
  const branchDirectory = new BranchDirectory(connection, models.branchServices);
  const members: MemberService = new MemberService(
    models.members,
    new MemberDirectory(connection, models.members),
    models.users,
    models.branchServices,
    branchDirectory,
    cipher,
    claims,
    locks,
    (memberId: string): Promise<boolean> => officeHolders.holdsActiveOffice(memberId),
    mailer,
    log,
    config.appUrl,
    config.requirePrivacyConsent,
  );
  const officeDirectory = new OfficeDirectory(connection, models.offices, models.officeHolders);
  const officeHolders: OfficeHolderService = new OfficeHolderService(
    models.officeHolders,
    models.offices,
    officeDirectory,
    members,
    locks,
    claims,
  );
  const audit = new AuditLogService(models.auditLogs, log);
  const users = new UsersService(userRepository, emailVerification, {
    erasers: [
      ({ id }) => officeHolders.deleteAllOfUser(id),
      ({ id }) => members.deleteAllOf(id),
      ({ id }) => sessions.deleteAllOf(id),
      async ({ email }) => void (await mailer.forget(email)),
    ],
    emailChanged: [(userId, email) => members.emailChanged(userId, email)],
  });
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
    passwordReset: new PasswordResetService(
      userRepository,
      sessions,
      hasher,
      mailer,
      config.appUrl,
    ),
    members,
    users,
    branchServices: new BranchServiceService(models.branchServices, branchDirectory, (branchId) =>
      members.isBranchInUse(branchId),
    ),
    offices: new OfficeService(models.offices, officeDirectory, officeHolders, locks),
    officeDirectory,
    audit,
    dataExport: new DataExportService(users, sessions, members, officeHolders, audit),
    officeHolders,
    /**
     * Lets queued mail go out, releases Redis and the hashing threads; the connection belongs
     * to the caller.
     */
    close: async () => {
      await Promise.all([mailer.close(), rateLimits.close(), hasher.close()]);
    },
  };
}

export type Services = ReturnType<typeof createServices>;
