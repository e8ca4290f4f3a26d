import bcrypt from "bcryptjs";
import { PASSWORD_MAX_BYTES } from "./password-policy";

/**
 * bcrypt behind one door, so the cost lives in one place and a later move off the event loop
 * (a worker pool) changes nothing for callers.
 */
export class PasswordHasher {
  private dummyHash?: Promise<string>;

  constructor(private readonly cost: number) {}

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  /**
   * Compares against the stored hash, or against a throwaway hash of the same cost when there
   * is no account, so "no such email" takes as long as "wrong password". bcrypt ignores bytes
   * past the 72nd, so a longer input would match its own prefix: it never matches, but is
   * still compared so it takes as long as any other failure.
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    this.dummyHash ??= bcrypt.hash("no account has this password", this.cost);
    const target = hash ?? (await this.dummyHash);
    const matches = await bcrypt.compare(password, target);
    const withinLimit = Buffer.byteLength(password, "utf8") <= PASSWORD_MAX_BYTES;
    return matches && withinLimit && hash !== undefined;
  }
}
