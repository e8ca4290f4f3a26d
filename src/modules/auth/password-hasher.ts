import bcrypt from "bcryptjs";

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
   * is no account, so "no such email" takes as long as "wrong password".
   */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    this.dummyHash ??= bcrypt.hash("no account has this password", this.cost);
    const target = hash ?? (await this.dummyHash);
    const matches = await bcrypt.compare(password, target);
    return matches && hash !== undefined;
  }
}
