import type { BackgroundTasks } from "../../background-tasks";
import { InvalidTokenError } from "../../errors/app-errors";
import type { Mailer } from "../../mail/mailer";
import { verificationCodeMail } from "../../mail/templates";
import { normaliseEmail } from "../users/email";
import type { UserRecord } from "../users/user.model";
import type { UserRepository } from "../users/user.repository";
import { hashSecret, newVerificationCode, normaliseVerificationCode } from "./secrets";

export const VERIFICATION_CODE_TTL_MINUTES = 60;

/**
 * Email ownership: a single-use code, mailed, stored only as a hash. The code alone identifies
 * the account, which is why it is long enough (40 bits) and its endpoint is rate limited.
 */
export class EmailVerificationService {
  constructor(
    private readonly users: () => UserRepository,
    private readonly mailer: Mailer,
    private readonly appUrl: string | undefined,
    private readonly background: BackgroundTasks,
  ) {}

  /** A new code replaces any earlier one, and is mailed to the account's address. */
  async issue(user: Pick<UserRecord, "_id" | "name" | "email">): Promise<void> {
    const code = newVerificationCode();
    await this.users().setVerificationCode(
      user._id,
      hashSecret(code),
      new Date(Date.now() + VERIFICATION_CODE_TTL_MINUTES * 60_000),
    );
    this.mailer.send(
      verificationCodeMail({
        to: user.email,
        name: user.name,
        code,
        expiresInMinutes: VERIFICATION_CODE_TTL_MINUTES,
        appUrl: this.appUrl,
      }),
    );
  }

  /** Marks the code's account verified and burns the code. */
  async verify(code: string): Promise<UserRecord> {
    const codeHash = hashSecret(normaliseVerificationCode(code));
    const user = await this.users().verifyByCode(codeHash, new Date());
    if (!user) throw new InvalidTokenError("The verification code is invalid or has expired");
    return user;
  }

  /**
   * Silent about unknown and already verified addresses, and as fast for them: the look-up
   * and the mail happen after the answer, so the caller learns nothing, not even from timing.
   */
  resend(email: string): Promise<void> {
    this.background.run("verification resend", () => this.reissue(email));
    return Promise.resolve();
  }

  private async reissue(email: string): Promise<void> {
    const user = await this.users().findByEmail(normaliseEmail(email), {
      name: 1,
      email: 1,
      isEmailVerified: 1,
    });
    if (!user || user.isEmailVerified) return;
    await this.issue(user);
  }
}
