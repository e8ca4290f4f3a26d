import type { BackgroundTasks } from "../../background-tasks";
import { InvalidTokenError } from "../../errors/app-errors";
import type { Mailer } from "../../mail/mailer";
import { passwordChangedMail, passwordResetMail } from "../../mail/templates";
import { normaliseEmail } from "../users/email";
import type { UserRepository } from "../users/user.repository";
import type { PasswordHasher } from "./password-hasher";
import { hashSecret, newOpaqueToken } from "./secrets";
import type { SessionService } from "./session.service";

export const RESET_TOKEN_TTL_MINUTES = 30;

/** Forgot/reset password: a single-use, hashed, 30-minute token mailed to the address. */
export class PasswordResetService {
  constructor(
    private readonly users: () => UserRepository,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly appUrl: string | undefined,
    private readonly background: BackgroundTasks,
  ) {}

  /**
   * Answers the same whether or not the address has an account, and as fast: the look-up,
   * the token and the mail happen after the answer, so its timing tells nothing either.
   */
  request(email: string): Promise<void> {
    this.background.run("password reset", () => this.issueResetToken(email));
    return Promise.resolve();
  }

  private async issueResetToken(email: string): Promise<void> {
    const user = await this.users().findByEmail(normaliseEmail(email), { name: 1, email: 1 });
    if (!user) return;
    const token = newOpaqueToken();
    await this.users().setResetToken(
      user._id,
      hashSecret(token),
      new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000),
    );
    this.mailer.send(
      passwordResetMail({
        to: user.email,
        name: user.name,
        token,
        expiresInMinutes: RESET_TOKEN_TTL_MINUTES,
        appUrl: this.appUrl,
      }),
    );
  }

  /**
   * Sets the new password and burns the token in one conditional write (two requests with one
   * token cannot both succeed), then ends every session: whoever knew the old password is out.
   * The mail round trip also proves the address, so it counts as verified.
   */
  async reset(token: string, password: string): Promise<void> {
    const tokenHash = hashSecret(token);
    // Check first so a stream of bad tokens costs no bcrypt work; the write below decides.
    if (!(await this.users().hasLiveResetToken(tokenHash, new Date()))) throw invalidResetToken();
    const passwordHash = await this.hasher.hash(password);
    const user = await this.users().resetPassword(tokenHash, new Date(), passwordHash);
    if (!user) throw invalidResetToken();
    await this.sessions.endAllOf(user._id, "password reset");
    this.mailer.send(passwordChangedMail({ to: user.email, name: user.name, how: "reset" }));
  }
}

function invalidResetToken(): InvalidTokenError {
  return new InvalidTokenError("The reset token is invalid, expired or already used");
}
