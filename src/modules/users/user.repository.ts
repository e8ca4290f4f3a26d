import DataLoader from "dataloader";
import type { Collection } from "mongodb";
import type { ProjectionType } from "mongoose";
import { DUPLICATE, unlessDuplicate, type Duplicate } from "../../db/errors";
import { greaterThan, lessThan } from "../../db/operators";
import { Role } from "./role";
import type { UserModel, UserRecord } from "./user.model";

/** What a member record shows of its applicant's account (the avatar: its public page). */
export type AccountIdentity = Pick<UserRecord, "_id" | "name" | "email" | "role"> &
  Partial<Pick<UserRecord, "avatar">>;

/**
 * A bounded `$in` per query: a page's accounts are looked up in batches, so no single query's
 * filter grows with the page (tools/dev-db keeps its `_id` index use within the same bound).
 */
const IDS_PER_QUERY = 1000;

export type NewUser = Pick<UserRecord, "_id" | "name" | "email" | "passwordHash" | "role"> &
  Partial<Pick<UserRecord, "isEmailVerified">>;

/** The fields a profile update may change. */
export type ProfileChanges = Partial<
  Pick<UserRecord, "name" | "avatar" | "email" | "isEmailVerified">
>;

/**
 * Every read and write of the users collection. An email another account has is refused by the
 * unique index: `create` and `updateProfile` answer DUPLICATE.
 */
export class UserRepository {
  /**
   * The accounts the records of one answer refer to, gathered into one `_id $in` read (a
   * thousand ids at most), which the `_id` index serves. No cache: each batch reads afresh.
   * Sent through the driver: every `_id` is a string the service built, nothing to cast.
   */
  private readonly identities: DataLoader<string, AccountIdentity | undefined>;

  constructor(private readonly users: UserModel) {
    // mongoose types every model's collection as holding ObjectId keys; these hold strings.
    const collection = users.collection as unknown as Collection<AccountIdentity>;
    this.identities = new DataLoader(
      async (ids) => {
        const found = await collection
          .find(
            { _id: { $in: [...ids] } },
            { projection: { name: 1, email: 1, role: 1, avatar: 1 } },
          )
          .toArray();
        const byId = new Map(found.map((account) => [account._id, account] as const));
        return ids.map((id) => byId.get(id));
      },
      { cache: false, maxBatchSize: IDS_PER_QUERY, batchScheduleFn: (run) => setImmediate(run) },
    );
  }

  async create(user: NewUser): Promise<UserRecord | Duplicate> {
    const created = await unlessDuplicate(this.users.create(user));
    return created === DUPLICATE ? DUPLICATE : created.toObject();
  }

  findById(id: string, projection?: ProjectionType<UserRecord>): Promise<UserRecord | null> {
    return this.users.findById(id, projection).lean<UserRecord>();
  }

  /** `email` already normalised. */
  findByEmail(email: string, projection?: ProjectionType<UserRecord>): Promise<UserRecord | null> {
    return this.users.findOne({ email }, projection).lean<UserRecord>();
  }

  /** Name, email and role of each account, in the order of `ids`, leaving out those gone. */
  async identitiesOf(ids: readonly string[]): Promise<AccountIdentity[]> {
    const found = await this.identities.loadMany(ids);
    return found.flatMap((account) => {
      if (account instanceof Error) throw account;
      return account ? [account] : [];
    });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.users.exists({ _id: id })) !== null;
  }

  /** Newest first, leaving out accounts being erased. */
  listNewestFirst(offset: number, limit: number): Promise<UserRecord[]> {
    return this.users
      .find({ deletingSince: null })
      .sort({ createdAt: -1, _id: -1 })
      .skip(offset)
      .limit(limit)
      .lean<UserRecord[]>();
  }

  /** The whole collection: a count with an empty filter cannot use an index. */
  estimatedCount(): Promise<number> {
    return this.users.estimatedDocumentCount();
  }

  /** Accounts marked for erasure: few, and found on the index that starts with the mark. */
  countBeingErased(): Promise<number> {
    return this.users.countDocuments({ deletingSince: greaterThan(new Date(0)) });
  }

  async anyAdminStaying(): Promise<boolean> {
    return (await this.users.exists({ role: Role.ADMIN, deletingSince: null })) !== null;
  }

  /** Null when the account is gone or being erased. */
  updateProfile(id: string, changes: ProfileChanges): Promise<UserRecord | null | Duplicate> {
    return unlessDuplicate(
      this.users
        .findOneAndUpdate(
          { _id: id, deletingSince: null },
          { $set: changes },
          { returnDocument: "after" },
        )
        .lean<UserRecord>(),
    );
  }

  /** Marks the account as being erased unless a deletion started after `staleBefore`. */
  markDeleting(id: string, now: Date, staleBefore: Date): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate(
        {
          _id: id,
          $or: [{ deletingSince: null }, { deletingSince: lessThan(staleBefore) }],
        },
        { $set: { deletingSince: now } },
        { returnDocument: "after" },
      )
      .lean<UserRecord>();
  }

  async unmarkDeleting(id: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { deletingSince: null } });
  }

  async delete(id: string): Promise<void> {
    await this.users.deleteOne({ _id: id });
  }

  async setVerificationCode(id: string, codeHash: string, expiresAt: Date): Promise<void> {
    await this.users.updateOne(
      { _id: id },
      { $set: { verificationCodeHash: codeHash, verificationExpiresAt: expiresAt } },
    );
  }

  /** Verifies the account of a live code and burns the code, in one write. */
  verifyByCode(codeHash: string, now: Date): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate(
        { verificationCodeHash: codeHash, verificationExpiresAt: greaterThan(now) },
        {
          $set: { isEmailVerified: true, verificationCodeHash: null, verificationExpiresAt: null },
        },
        { returnDocument: "after" },
      )
      .lean<UserRecord>();
  }

  async setResetToken(id: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.users.updateOne(
      { _id: id },
      { $set: { resetTokenHash: tokenHash, resetExpiresAt: expiresAt } },
    );
  }

  async hasLiveResetToken(tokenHash: string, now: Date): Promise<boolean> {
    const found = await this.users.exists({
      resetTokenHash: tokenHash,
      resetExpiresAt: greaterThan(now),
    });
    return found !== null;
  }

  /**
   * Sets the password and burns the token in one write, so of two resets with one token only
   * one matches. The mail round trip proved the address, so it counts as verified.
   */
  resetPassword(tokenHash: string, now: Date, passwordHash: string): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate(
        { resetTokenHash: tokenHash, resetExpiresAt: greaterThan(now) },
        {
          $set: { passwordHash, resetTokenHash: null, resetExpiresAt: null, isEmailVerified: true },
        },
        // No projection: the development database does not implement findAndModify's `fields`.
      )
      .lean<UserRecord>();
  }

  /** Null when the password is no longer `oldHash` (a reset or another change came first). */
  changePassword(id: string, oldHash: string, passwordHash: string): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate({ _id: id, passwordHash: oldHash }, { $set: { passwordHash } })
      .lean<UserRecord>();
  }

  /** Keeps an address the account no longer has (sealed by the caller), for erasure. */
  async rememberFormerEmail(id: string, sealed: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $push: { formerEmails: sealed } });
  }

  async setPendingMfaSecret(id: string, secret: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { mfaPendingSecret: secret } });
  }

  /** Null when the pending secret changed meanwhile (another setup or enable won). */
  enableMfa(id: string, pendingSecret: string, step: number): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate(
        { _id: id, mfaPendingSecret: pendingSecret },
        {
          $set: {
            mfaEnabled: true,
            mfaSecret: pendingSecret,
            mfaPendingSecret: null,
            mfaLastStep: step,
          },
        },
        { returnDocument: "after" },
      )
      .lean<UserRecord>();
  }

  disableMfa(id: string): Promise<UserRecord | null> {
    return this.users
      .findOneAndUpdate(
        { _id: id },
        { $set: { mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null } },
        { returnDocument: "after" },
      )
      .lean<UserRecord>();
  }

  /**
   * Seals the TOTP secrets an earlier version stored in clear, each by one conditional write;
   * returns how many. Clear secrets are base32 (A–Z, 2–7), which sorts before every sealed
   * value's `enc:` prefix, so one indexed range per field finds them.
   */
  async sealClearMfaSecrets(seal: (clear: string) => string): Promise<number> {
    let changed = 0;
    for (const field of ["mfaSecret", "mfaPendingSecret"] as const) {
      const clear = this.users
        .find({ [field]: lessThan("enc:") }, { [field]: 1 })
        .lean<Pick<UserRecord, "_id" | typeof field>[]>()
        .cursor({ batchSize: 500 });
      for await (const record of clear) {
        const value = record[field];
        if (typeof value !== "string") continue;
        const result = await this.users.updateOne(
          { _id: record._id, [field]: value },
          { $set: { [field]: seal(value) } },
          { timestamps: false },
        );
        changed += result.modifiedCount;
      }
    }
    return changed;
  }

  /**
   * Records a TOTP step only if no equal or later one was accepted under this secret: of two
   * logins racing with one code, one matches.
   */
  /** The MFA step token the password step just issued; an earlier one stops working. */
  async setMfaLoginToken(id: string, tokenId: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { mfaLoginTokenId: tokenId } });
  }

  /** Spends the MFA step token: true for the one request that spent it. */
  async spendMfaLoginToken(id: string, tokenId: string): Promise<boolean> {
    const result = await this.users.updateOne(
      { _id: id, mfaLoginTokenId: tokenId },
      { $set: { mfaLoginTokenId: null } },
    );
    return result.modifiedCount === 1;
  }

  async recordMfaStep(id: string, secret: string, step: number): Promise<boolean> {
    const result = await this.users.updateOne(
      {
        _id: id,
        mfaEnabled: true,
        mfaSecret: secret,
        $or: [{ mfaLastStep: null }, { mfaLastStep: lessThan(step) }],
      },
      { $set: { mfaLastStep: step } },
    );
    return result.modifiedCount === 1;
  }
}
