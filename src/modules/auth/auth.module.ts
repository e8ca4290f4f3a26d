import { createHmac } from "node:crypto";
import type { BackgroundTasks } from "../../background-tasks";
import type { Clock } from "../../clock";
import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { RateLimits } from "../../rate-limits/rate-limits";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import { MFA_SECRET_FIELD } from "../users/user.model";
import type { UserRepository } from "../users/user.repository";
import { AuthService } from "./auth.service";
import { BcryptPool, defaultBcryptWorkers } from "./bcrypt-pool";
import { PasswordProofService } from "./password-proof.service";
import { EmailVerificationService } from "./email-verification.service";
import { MfaService } from "./mfa.service";
import { PasswordHasher } from "./password-hasher";
import { PasswordResetService } from "./password-reset.service";
import { createSessionModel, type SessionRecord } from "./session.model";
import { SessionRepository } from "./session.repository";
import { SessionService } from "./session.service";
import { TokenService } from "./token.service";

export interface AuthModuleDeps {
  /** The accounts' collection (users module). */
  users: UserRepository;
}

export interface AuthModuleOptions extends ModuleBase {
  jwtSecret: string;
  mailer: Mailer;
  rateLimits: RateLimits;
  background: BackgroundTasks;
  cipher: FieldCipher;
  /** When tokens and refresh tokens expire and the grace window ends. */
  clock: Clock;
  deps: () => AuthModuleDeps;
}

/** Signing in and staying signed in: tokens, sessions, passwords, second factors. */
export function createAuthModule(options: AuthModuleOptions) {
  const { connection, config, log, jwtSecret, mailer, rateLimits, background, cipher, deps } =
    options;
  const { clock } = options;
  const users = () => deps().users;
  const model = createSessionModel(connection);
  const tokens = new TokenService(jwtSecret, config.accessTokenTtlSeconds, clock);
  const hashing = new BcryptPool(defaultBcryptWorkers(config.workers));
  const hasher = new PasswordHasher(config.bcryptCost, hashing);
  const sessions = new SessionService(
    new SessionRepository(model),
    {
      refreshTtlSeconds: config.refreshTokenTtlSeconds,
      reuseGraceSeconds: config.refreshReuseGraceSeconds,
      reauthMaxAgeSeconds: config.reauthMaxAgeSeconds,
      // Its own key, derived from the signing secret (which can mint access tokens anyway).
      successorKey: createHmac("sha256", jwtSecret).update("refresh-token-successor").digest(),
    },
    log,
    clock,
  );
  const emailVerification = new EmailVerificationService(users, mailer, config.appUrl, background);
  const mfa = new MfaService(users, hasher, rateLimits, sessions, cipher);
  const sessionData: PersonalData<SessionRecord[]> = {
    exportOf: (userId) => sessions.allOf(userId),
    erase: ({ id }) => sessions.deleteAllOf(id),
  };
  return {
    services: {
      sessions,
      emailVerification,
      mfa,
      auth: new AuthService(users, tokens, sessions, hasher, emailVerification, mfa, rateLimits),
      passwordProof: new PasswordProofService(users, sessions, hasher, mfa, rateLimits, mailer),
      passwordReset: new PasswordResetService(
        users,
        sessions,
        hasher,
        mailer,
        config.appUrl,
        background,
      ),
    },
    tokens,
    hashing,
    sessionData,
    models: [model],
    migrations: [
      {
        name: "TOTP secrets sealed",
        run: () => users().sealClearMfaSecrets((clear) => cipher.seal(clear, MFA_SECRET_FIELD)),
      },
    ],
    /** The hashing threads. */
    close: () => hasher.close(),
  } satisfies ModuleParts & Record<string, unknown>;
}
