import QRCode from "qrcode";
import { generateSecret, generateURI, verify } from "otplib";
import type { FieldCipher } from "../../db/field-cipher";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  InvalidTokenError,
} from "../../errors/app-errors";
import { ValidationError } from "../../errors/app-errors";
import type { Caller } from "./caller";
import type { RateLimits } from "../../rate-limits/rate-limits";
import { MFA_SECRET_FIELD, type UserRecord } from "../users/user.model";
import type { UserRepository } from "../users/user.repository";
import type { PasswordHasher } from "./password-hasher";
import type { SessionService } from "./session.service";

export const MFA_ISSUER = "Chaplaincy Membership";
/** One 30-second step either side, for clocks that drift and people who type slowly. */
const CLOCK_TOLERANCE_SECONDS = 30;

export interface MfaSetup {
  secret: string;
  otpauthUri: string;
  /** The URI as a PNG QR code (data: URL), for clients that show it as is. */
  qrCodeDataUrl: string;
}

/**
 * TOTP (RFC 6238) second factor. A secret becomes active only after a code from it is
 * confirmed, each accepted time step is remembered so a code works once, and wrong codes
 * count toward the same lockout as wrong passwords.
 */
export class MfaService {
  constructor(
    private readonly users: () => UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly limits: RateLimits,
    /**
     * Turning MFA on or off needs a recent sign-in (an access token alone is not enough);
     * turning it on ends the account's other sessions.
     */
    private readonly sessions: Pick<SessionService, "assertRecentSignIn" | "endAllOthers">,
    /** Secrets are stored sealed; the stored (sealed) form is what preconditions compare. */
    private readonly cipher: FieldCipher,
  ) {}

  async setup(user: UserRecord): Promise<MfaSetup> {
    if (user.mfaEnabled) throw new ConflictError("MFA is already enabled; disable it first");
    // Else whoever registered someone else's address could lock its owner out of the account
    // the owner takes over by a password reset.
    if (!user.isEmailVerified) {
      throw new ForbiddenError("Verify your email address before turning on MFA");
    }
    const secret = generateSecret();
    await this.users().setPendingMfaSecret(user._id, this.cipher.seal(secret, MFA_SECRET_FIELD));
    const otpauthUri = generateURI({ issuer: MFA_ISSUER, label: user.email, secret });
    return { secret, otpauthUri, qrCodeDataUrl: await QRCode.toDataURL(otpauthUri) };
  }

  async enable(caller: Caller, code: string): Promise<UserRecord> {
    const { user } = caller;
    this.sessions.assertRecentSignIn(caller);
    if (user.mfaEnabled) throw new ConflictError("MFA is already enabled");
    if (!user.mfaPendingSecret) throw new BadRequestError("Start with POST /auth/mfa/setup");
    const step = await this.matchingStep(this.open(user.mfaPendingSecret), code, null);
    if (step === undefined)
      throw new InvalidTokenError("The code does not match; try the next one");
    const updated = await this.users().enableMfa(user._id, user.mfaPendingSecret, step);
    if (!updated) throw new ConflictError("MFA setup changed meanwhile; start again");
    // A session opened with the password alone (perhaps a thief's) must not outlive the
    // second factor.
    await this.sessions.endAllOthers(user._id, caller.sessionId, "MFA enabled");
    return updated;
  }

  /**
   * Turns MFA off. With a code and the password, both are checked; with neither (the client's
   * `POST /auth/two-factor/disable`) the recent sign-in alone is the proof.
   */
  async disable(
    caller: Caller,
    code: string | null | undefined,
    password: string | null | undefined,
  ): Promise<UserRecord> {
    const { user } = caller;
    this.sessions.assertRecentSignIn(caller);
    if (!user.mfaEnabled || !user.mfaSecret) throw new ConflictError("MFA is not enabled");
    if (!code && !password) return (await this.users().disableMfa(user._id)) ?? user;
    if (!code) throw ValidationError.field("code", "code is required with the password");
    if (!password) throw ValidationError.field("password", "password is required with the code");
    const lockKey = `mfa|${user._id}`;
    await this.limits.reserveLoginAttempt(lockKey);
    const share = { client: `user:${user._id}`, account: user.email };
    const valid = await this.limits.releasedIfRefused(lockKey, () =>
      this.hasher.verify(password, user.passwordHash, share),
    );
    if (!valid) {
      await this.limits.recordLoginFailure(lockKey);
      throw ValidationError.field("password", "password is incorrect");
    }
    if (!(await this.consumeCode(user, code))) {
      await this.limits.recordLoginFailure(lockKey);
      throw new InvalidTokenError("The code does not match; try the next one");
    }
    await this.limits.resetLoginFailures(lockKey);
    const updated = await this.users().disableMfa(user._id);
    return updated ?? user;
  }

  /** The login's second step. A wrong code counts as a failed login for this account. */
  async checkLoginCode(user: UserRecord, code: string): Promise<boolean> {
    const lockKey = `mfa|${user._id}`;
    await this.limits.reserveLoginAttempt(lockKey);
    const accepted = await this.consumeCode(user, code);
    if (accepted) await this.limits.resetLoginFailures(lockKey);
    else await this.limits.recordLoginFailure(lockKey);
    return accepted;
  }

  /** Accepts a code once: the step is recorded only if no later or equal one was used. */
  private async consumeCode(user: UserRecord, code: string): Promise<boolean> {
    if (!user.mfaSecret) return false;
    const step = await this.matchingStep(this.open(user.mfaSecret), code, user.mfaLastStep);
    if (step === undefined) return false;
    return this.users().recordMfaStep(user._id, user.mfaSecret, step);
  }

  private open(stored: string): string {
    return this.cipher.open(stored, MFA_SECRET_FIELD);
  }

  private async matchingStep(
    secret: string,
    code: string,
    afterStep: number | null,
  ): Promise<number | undefined> {
    if (!/^\d{6}$/.test(code)) return undefined;
    const result = await verify({
      secret,
      token: code,
      epochTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    // The TOTP strategy reports the matched time step; HOTP results (never used here) do not.
    return result.valid && "timeStep" in result ? result.timeStep : undefined;
  }
}
