import { BcryptPool, type HashingShare } from "./bcrypt-pool";
import { PASSWORD_MAX_BYTES } from "./password-policy";

/** bcrypt behind one door: the cost lives here, the work runs off the event loop (BcryptPool). */
export class PasswordHasher {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly cost: number,
    private readonly pool = new BcryptPool(),
  ) {}

  /** `share` names whose work this is, for the hashing queue's per-client and per-account shares. */
  hash(password: string, share?: HashingShare): Promise<string> {
    return this.pool.hash(password, this.cost, share);
  }

  /** Refuses at once (429) when the hashing queue has no room for this share. */
  assertRoom(share: HashingShare): void {
    this.pool.assertRoom(share);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /**
   * Compares against the stored hash, or against a throwaway hash of the same cost when there
   * is no account, so "no such email" takes as long as "wrong password". bcrypt ignores bytes
   * past the 72nd, so a longer input would match its own prefix: it never matches, but is
   * still compared so it takes as long as any other failure.
   */
  async verify(password: string, hash: string | undefined, share?: HashingShare): Promise<boolean> {
    this.dummyHash ??= this.hash("no account has this password");
    const target = hash ?? (await this.dummyHash);
    const matches = await this.pool.compare(password, target, share);
    const withinLimit = Buffer.byteLength(password, "utf8") <= PASSWORD_MAX_BYTES;
    return matches && withinLimit && hash !== undefined;
  }
}
