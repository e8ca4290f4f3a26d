import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { EmailVerificationService } from "../auth/email-verification.service";
import type { SessionService } from "../auth/session.service";
import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData, PersonalDataEraser } from "../privacy/personal-data";
import { EmailHistory } from "./email-history";
import { createUserModel, type UserRecord } from "./user.model";
import { UserRepository } from "./user.repository";
import { UsersService } from "./users.service";

/** What accounts need from other modules. */
export interface UsersModuleDeps {
  /** Mails the code that verifies a changed address (auth). */
  verification: Pick<EmailVerificationService, "issue">;
  /** Changing the email and deleting oneself need a recent sign-in (auth). */
  recentSignIn: Pick<SessionService, "assertRecentSignIn">;
  /** Erases every module's part of an account before the account goes (privacy). */
  erasure: PersonalDataEraser;
  /** Modules that follow an account's new address (members). */
  emailFollowers: { emailChanged(userId: string, email: string): Promise<void> }[];
  /** Avatars uploaded as files (files). */
  files: FileRefs;
  /** The member page's banner may be the avatar's file (members). */
  bannerAmong: (userId: string, fileIds: readonly string[]) => Promise<Set<string>>;
}

export interface UsersModuleOptions extends ModuleBase {
  cipher: FieldCipher;
  mailer: Mailer;
  /**
   * Asked on first use: auth, members and privacy are built on this module's repository, so
   * they exist only after it.
   */
  deps: () => UsersModuleDeps;
}

/** Accounts: their collection, which auth and members read too, and their management. */
export function createUsersModule({ connection, cipher, mailer, deps }: UsersModuleOptions) {
  const model = createUserModel(connection);
  const repository = new UserRepository(model);
  const emailHistory = new EmailHistory(repository, cipher, mailer);
  const users = new UsersService(
    repository,
    { issue: (user) => deps().verification.issue(user) },
    {
      erasers: [(account) => deps().erasure.erase(account)],
      emailChanged: [
        async (userId, email) => {
          for (const follower of deps().emailFollowers) await follower.emailChanged(userId, email);
        },
        (userId, email, previous) => emailHistory.emailChanged(userId, email, previous),
      ],
      pageShows: async (userId, fileId) => (await deps().bannerAmong(userId, [fileId])).has(fileId),
    },
    { assertRecentSignIn: (session) => deps().recentSignIn.assertRecentSignIn(session) },
    mailer,
    () => deps().files,
  );
  const account: PersonalData<UserRecord> = {
    exportOf: (userId) => users.get(userId),
    // The record goes last, in UsersService.delete; what it kept elsewhere is the mail.
    erase: (erased) => emailHistory.erase(erased),
  };
  const formerEmails: Pick<PersonalData<string[]>, "exportOf"> = {
    exportOf: (userId) => emailHistory.formerEmailsOf(userId),
  };
  return {
    services: { users },
    repository,
    account,
    formerEmails,
    models: [model],
  } satisfies { services: object } & ModuleParts & Record<string, unknown>;
}
