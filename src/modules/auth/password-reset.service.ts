import type { Claims } from "../../db/claims";
import { greaterThan } from "../../db/operators";
import { InvalidTokenError } from "../../errors/app-errors";
import type { Mailer } from "../../mail/mailer";
import { passwordResetMail } from "../../mail/templates";
import { normaliseEmail } from "../users/email";
import type { UserEmailKeys } from "../users/user-email-keys";
import type { UserModel } from "../users/user.model";
import type { AccessCache } from "./access-cache";
import type { PasswordHasher } from "./password-hasher";
import { hashSecret, newOpaqueToken } from "./secrets";
import type { SessionService } from "./session.service";

export const RESET_TOKEN_TTL_MINUTES = 30;

/** Forgot/reset password: a single-use, hashed, 30-minute token mailed to the address. */
export class PasswordResetService {
  constructor(
    private readonly users: UserModel,
    private readonly access: AccessCache,
    private readonly emailKeys: UserEmailKeys,
    private readonly sessions: SessionService,
    private readonly claims: Claims,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly appUrl: string | undefined,
  ) {}

  /**
   * Answers the same whether or not the address has an account; the mail goes out in the
   * background so the response time does not tell either.
   */
  async request(email: string): Promise<void> {
    const user = await this.emailKeys.findUser(normaliseEmail(email), { name: 1, email: 1 });
    if (!user) return;
    const token = newOpaqueToken();
    await this.access.write([{ userId: user._id }], () =>
      this.users.updateOne(
        { _id: user._id },
        {
          $set: {
            resetTokenHash: hashSecret(token),
            resetExpiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000),
          },
        },
      ),
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
    const live = () => ({ resetTokenHash: tokenHash, resetExpiresAt: greaterThan(new Date()) });
    // The password, the token and the verified flag change here; endAllOf announces all of it.
    // Check first so a stream of bad tokens costs no bcrypt work.
    if (!(await this.users.exists(live()))) throw invalidResetToken();
    // Single use even when two resets race with one token (see Claims).
    if (!(await this.claims.take(`reset:${tokenHash}`))) throw invalidResetToken();
    const passwordHash = await this.hasher.hash(password);
    const user = await this.users
      .findOneAndUpdate(
        live(),
        {
          $set: {
            passwordHash,
            resetTokenHash: null,
            resetExpiresAt: null,
            isEmailVerified: true,
          },
        },
        // No projection: FerretDB v1 does not implement findAndModify's `fields`.
      )
      .lean();
    if (!user) throw invalidResetToken();
    await this.sessions.endAllOf(user._id, "password reset");
  }
}

function invalidResetToken(): InvalidTokenError {
  return new InvalidTokenError("The reset token is invalid, expired or already used");
}
