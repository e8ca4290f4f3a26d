import { Schema, type Connection, type Model, type ProjectionType } from "mongoose";
import { isDuplicateKeyError } from "../../db/errors";
import type { UserModel, UserRecord } from "./user.model";

/*
 * Accounts by email, as primary keys. FerretDB v1 answers only `_id` lookups from an index and
 * decodes every document for any other filter: finding the newest of 100 000 accounts by
 * email took 9 s. A key document {_id: email, userId} per account turns sign-in, password
 * reset and "resend code" into two primary-key reads on both engines.
 *
 * The users collection keeps its unique email index and stays the truth: a key counts only
 * while the account it names exists and still has that email. Keys a crash left behind are
 * therefore harmless and are taken over when the email is claimed again, once they are old
 * enough that the account they name cannot still be on its way (its creation hashes a
 * password first).
 */

interface EmailKeyRecord {
  _id: string;
  userId: string;
  at: Date;
}

/** A key younger than this may belong to an account being created right now. */
const IN_PROGRESS_MS = 5 * 60_000;

interface MigrationRecord {
  _id: string;
  at: Date;
}

const MIGRATION_ID = "user-email-keys";

export class UserEmailKeys {
  private readonly keys: Model<EmailKeyRecord>;
  private readonly migrations: Model<MigrationRecord>;

  constructor(
    connection: Connection,
    private readonly users: UserModel,
  ) {
    this.keys =
      (connection.models.UserEmailKey as Model<EmailKeyRecord> | undefined) ??
      connection.model<EmailKeyRecord>(
        "UserEmailKey",
        new Schema<EmailKeyRecord>(
          {
            _id: { type: String, required: true },
            userId: { type: String, required: true },
            at: { type: Date, required: true },
          },
          { versionKey: false },
        ),
        "user_email_keys",
      );
    this.migrations =
      (connection.models.Migration as Model<MigrationRecord> | undefined) ??
      connection.model<MigrationRecord>(
        "Migration",
        new Schema<MigrationRecord>({ _id: String, at: Date }, { versionKey: false }),
        "migrations",
      );
  }

  /** The account with this (normalised) email, or null. */
  async findUser(
    email: string,
    projection?: ProjectionType<UserRecord>,
  ): Promise<UserRecord | null> {
    const key = await this.keys.findById(email).lean();
    if (!key) return null;
    const user = await this.users.findById(key.userId, withEmail(projection)).lean();
    return user?.email === email ? user : null;
  }

  /**
   * Reserves `email` for `userId`. False when another account has it or may be getting it; a
   * key left by a crash (its account gone, or moved to another email) is taken over.
   */
  async claim(email: string, userId: string): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const holder = await this.keys.findById(email).lean();
      if (!holder) {
        try {
          await this.keys.create({ _id: email, userId, at: new Date() });
          return true;
        } catch (error) {
          if (isDuplicateKeyError(error)) continue;
          throw error;
        }
      }
      if (holder.userId === userId) return true;
      if (Date.now() - holder.at.getTime() < IN_PROGRESS_MS) return false;
      if (await this.findUser(email, { _id: 1 })) return false;
      const taken = await this.keys.updateOne(
        { _id: email, userId: holder.userId },
        { $set: { userId, at: new Date() } },
      );
      if (taken.modifiedCount === 1) return true;
    }
    return false;
  }

  /** Drops the key of `email` if it is `userId`'s. */
  async release(email: string, userId: string): Promise<void> {
    await this.keys.deleteOne({ _id: email, userId });
  }

  /** A key for every account created before keys existed; once per database. */
  async backfill(): Promise<number> {
    if (await this.migrations.exists({ _id: MIGRATION_ID })) return 0;
    const keyed = new Set<string>();
    for await (const key of this.keys.find({}, { _id: 1 }).lean().cursor()) keyed.add(key._id);
    let written = 0;
    let batch: Pick<UserRecord, "_id" | "email">[] = [];
    const flush = async () => {
      await this.insertMany(batch);
      written += batch.length;
      batch = [];
    };
    for await (const user of this.users.find({}, { email: 1 }).lean().cursor()) {
      if (!keyed.has(user.email)) batch.push(user);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await this.migrations.create({ _id: MIGRATION_ID, at: new Date() }).catch(ignoreDuplicate);
    return written;
  }

  /**
   * Keys for accounts written in bulk (the demo seed, the backfill); a key another instance
   * wrote meanwhile is left as it is.
   */
  async insertMany(users: Pick<UserRecord, "_id" | "email">[]): Promise<void> {
    const keys = users.map((user) => ({ _id: user.email, userId: user._id, at: new Date(0) }));
    await this.keys.insertMany(keys, { lean: true, ordered: false }).catch(ignoreDuplicate);
  }
}

function ignoreDuplicate(error: unknown): void {
  if (!isDuplicateKeyError(error)) throw error;
}

const BATCH = 1_000;
function withEmail(
  projection?: ProjectionType<UserRecord>,
): ProjectionType<UserRecord> | undefined {
  if (!projection || typeof projection !== "object" || Array.isArray(projection)) return projection;
  const values = Object.values(projection);
  // An inclusion projection must include the email the key is checked against.
  return values.some((value) => value === 1 || value === true)
    ? { ...(projection as Record<string, unknown>), email: 1 }
    : projection;
}
