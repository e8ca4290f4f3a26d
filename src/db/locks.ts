import { randomUUID } from "node:crypto";
import { Schema, type Connection, type Model } from "mongoose";
import { ConflictError } from "../errors/app-errors";
import { isDuplicateKeyError } from "./errors";

interface LockRecord {
  _id: string;
  owner: string;
  until: Date;
}

const lockSchema = new Schema<LockRecord>(
  {
    _id: { type: String, required: true },
    owner: { type: String, required: true },
    until: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface LockOptions {
  /** A holder that died keeps the lock this long at most. */
  ttlMs?: number;
  /** How long to wait for a busy lock before answering 409. */
  waitMs?: number;
}

/**
 * "One at a time" across every instance, for a check followed by a write that must not
 * interleave with another (the last free office slot). The lock is a document whose primary
 * key makes the insert unique on both engines; FerretDB v1 has no transactions and, as
 * released, does not check an update's filter and write in one step, so neither would do.
 */
export class Locks {
  private readonly locks: Model<LockRecord>;

  constructor(connection: Connection) {
    this.locks = connection.model<LockRecord>("Lock", lockSchema, "locks");
  }

  async withLock<T>(key: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    const owner = randomUUID();
    const ttlMs = options.ttlMs ?? 15_000;
    const deadline = Date.now() + (options.waitMs ?? 5_000);
    while (!(await this.tryAcquire(key, owner, ttlMs))) {
      if (Date.now() > deadline) {
        throw new ConflictError("Another change to this record is in progress; try again");
      }
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
    try {
      return await work();
    } finally {
      await this.locks.deleteOne({ _id: key, owner });
    }
  }

  private async tryAcquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    try {
      await this.locks.create({ _id: key, owner, until: new Date(Date.now() + ttlMs) });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const held = await this.locks.findById(key).lean();
    // A holder that outlived its time died with the lock: take it away (by its owner only).
    if (held && held.until.getTime() < Date.now()) {
      await this.locks.deleteOne({ _id: key, owner: held.owner });
    }
    return false;
  }
}
