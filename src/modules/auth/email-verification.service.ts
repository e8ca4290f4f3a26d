import { greaterThan } from "../../db/operators";
import { InvalidTokenError } from "../../errors/app-errors";
import type { Mailer } from "../../mail/mailer";
import { verificationCodeMail } from "../../mail/templates";
import { normaliseEmail } from "../users/email";
import type { UserEmailKeys } from "../users/user-email-keys";
import type { UserModel, UserRecord } from "../users/user.model";
import type { AccessCache } from "./access-cache";
import { hashSecret, newVerificationCode, normaliseVerificationCode } from "./secrets";

export const VERIFICATION_CODE_TTL_MINUTES = 60;

/**
 * Email ownership: a single-use code, mailed, stored only as a hash. The code alone identifies
 * the account, which is why it is long enough (40 bits) and its endpoint is rate limited.
 */
export class EmailVerificationService {
  constructor(
    private readonly users: UserModel,
    private readonly access: AccessCache,
    private readonly emailKeys: UserEmailKeys,
    private readonly mailer: Mailer,
    private readonly appUrl: string | undefined,
  ) {}

  /** A new code replaces any earlier one, and is mailed to the account's address. */
  async issue(user: Pick<UserRecord, "_id" | "name" | "email">): Promise<void> {
    const code = newVerificationCode();
    await this.access.write([{ userId: user._id }], () =>
      this.users.updateOne(
        { _id: user._id },
        {
          $set: {
            verificationCodeHash: hashSecret(code),
            verificationExpiresAt: new Date(Date.now() + VERIFICATION_CODE_TTL_MINUTES * 60_000),
          },
        },
      ),
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
    const user = await this.users
      .findOneAndUpdate(
        { verificationCodeHash: codeHash, verificationExpiresAt: greaterThan(new Date()) },
        {
          $set: { isEmailVerified: true, verificationCodeHash: null, verificationExpiresAt: null },
        },
        { returnDocument: "after" },
      )
      .lean();
    if (!user) throw new InvalidTokenError("The verification code is invalid or has expired");
    await this.access.announce({ userId: user._id });
    return user;
  }

  /** Silent about unknown and already verified addresses: the caller learns nothing. */
  async resend(email: string): Promise<void> {
    const user = await this.emailKeys.findUser(normaliseEmail(email), {
      name: 1,
      email: 1,
      isEmailVerified: 1,
    });
    if (!user || user.isEmailVerified) return;
    await this.issue(user);
  }
}
