import { ConflictError, InvalidCredentialsError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "./caller";
import type { Mailer } from "../../mail/mailer";
import { passwordChangedMail } from "../../mail/templates";
import type { RateLimits } from "../../rate-limits/rate-limits";
import type { UserRepository } from "../users/user.repository";
import type { MfaService } from "./mfa.service";
import type { PasswordHasher } from "./password-hasher";
import type { ClientInfo, SessionService } from "./session.service";

/** The login lockout's key: failures count per client address and account address. */
export const loginLockKey = (ip: string | null, email: string) => `login|${ip ?? "-"}|${email}`;

/**
 * A signed-in caller proving the password again: to renew the recent sign-in that takeover
 * paths need, or to change the password. Wrong passwords count toward the login lockout, so
 * a stolen access token cannot be used to guess the password faster than the login form.
 */
export class PasswordProofService {
  constructor(
    private readonly users: () => UserRepository,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly mfa: MfaService,
    private readonly limits: RateLimits,
    private readonly mailer: Mailer,
  ) {}

  /** Password, and the TOTP code when the account has MFA, as at login. */
  async reauthenticate(
    caller: Caller,
    password: string,
    code: string | null | undefined,
    client: ClientInfo,
  ): Promise<void> {
    await this.provePassword(caller, password, client);
    if (caller.user.mfaEnabled) {
      if (!code) throw ValidationError.field("code", "code is required: this account has MFA");
      if (!(await this.mfa.checkLoginCode(caller.user, code))) {
        throw new InvalidCredentialsError("The code is not valid");
      }
    }
    await this.sessions.markAuthenticated(caller.sessionId);
  }

  /** Every other session ends; the caller's own stays signed in. */
  async changePassword(
    caller: Caller,
    currentPassword: string,
    password: string,
    client: ClientInfo,
  ): Promise<void> {
    await this.provePassword(caller, currentPassword, client);
    const changed = await this.users().changePassword(
      caller.id,
      caller.user.passwordHash,
      await this.hasher.hash(password, { client: client.ip ?? "-" }),
    );
    // The filter holds the old hash: a reset or another change in between wins.
    if (!changed) throw new ConflictError("The password changed meanwhile; sign in again");
    await this.sessions.endAllOthers(caller.id, caller.sessionId, "password changed");
    const { email, name } = caller.user;
    this.mailer.send(passwordChangedMail({ to: email, name, how: "changed" }));
  }

  private async provePassword(caller: Caller, password: string, client: ClientInfo) {
    const lockKey = loginLockKey(client.ip, caller.user.email);
    await this.limits.reserveLoginAttempt(lockKey);
    const share = { client: client.ip ?? "-", account: caller.user.email };
    const valid = await this.limits.releasedIfRefused(lockKey, () =>
      this.hasher.verify(password, caller.user.passwordHash, share),
    );
    if (!valid) {
      await this.limits.recordLoginFailure(lockKey);
      throw new InvalidCredentialsError("The password is not correct");
    }
    await this.limits.resetLoginFailures(lockKey);
  }
}
