import { isDuplicateKeyError } from "../../db/errors";
import { lessThan } from "../../db/operators";
import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import type { AccessCache } from "../auth/access-cache";
import type { EmailVerificationService } from "../auth/email-verification.service";
import { normaliseEmail } from "./email";
import { Role } from "./role";
import type { UpdateCurrentUserArgs, UserListArgs } from "./user.input";
import type { UserEmailKeys } from "./user-email-keys";
import type { UserModel, UserRecord } from "./user.model";
import { User, type UserList } from "./user.type";

/** What other modules do when an account changes: erase their data, follow a new email. */
export interface AccountHooks {
  erasers: ((account: { id: string; email: string }) => Promise<void>)[];
  emailChanged: ((userId: string, email: string) => Promise<void>)[];
}

/** A deletion that crashed half-way may be retried after this long. */
const STALE_DELETION_MS = 60_000;

/** Accounts as their owners and administrators manage them (contract §5). */
export class UsersService {
  constructor(
    private readonly users: UserModel,
    private readonly access: AccessCache,
    private readonly emailKeys: UserEmailKeys,
    private readonly verification: EmailVerificationService,
    private readonly hooks: AccountHooks,
  ) {}

  async get(id: string): Promise<UserRecord> {
    const user = await this.users.findById(id).lean();
    if (!user || user.deletingSince) throw new NotFoundError("No user has this id");
    return user;
  }

  async list(args: UserListArgs): Promise<Omit<UserList, "code" | "message">> {
    const filter = { deletingSince: null };
    const [records, total] = await Promise.all([
      this.users
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip(args.offset)
        .limit(args.limit)
        .lean(),
      this.users.countDocuments(filter),
    ]);
    return {
      total,
      limit: args.limit,
      offset: args.offset,
      totalPages: Math.ceil(total / args.limit),
      currentPage: Math.floor(args.offset / args.limit) + 1,
      hasMore: args.offset + records.length < total,
      users: records.map((record) => User.from(record)),
    };
  }

  /** A changed email is unverified until its new code comes back. */
  async updateCurrent(caller: Caller, args: UpdateCurrentUserArgs): Promise<UserRecord> {
    const changes: Partial<UserRecord> = {};
    if (args.name !== undefined && args.name !== null) changes.name = args.name.trim();
    if (args.avatar !== undefined) changes.avatar = args.avatar;
    const email = args.email ? normaliseEmail(args.email) : undefined;
    const emailChanged = email !== undefined && email !== caller.user.email;
    if (emailChanged) {
      Object.assign(changes, { email, isEmailVerified: false });
      if (!(await this.emailKeys.claim(email, caller.id))) throw emailTaken();
    }
    let updated: UserRecord;
    try {
      updated = await this.applyUpdate(caller.id, changes);
    } catch (error) {
      if (emailChanged) await this.emailKeys.release(email, caller.id);
      throw error;
    }
    if (emailChanged) {
      await this.emailKeys.release(caller.user.email, caller.id);
      for (const follow of this.hooks.emailChanged) await follow(updated._id, updated.email);
      await this.verification.issue(updated);
    }
    return updated;
  }

  /**
   * Erases an account and everything of it. An administrator is first marked as leaving and
   * the remaining administrators counted afterwards: of two admins removing each other at
   * once, at least one sees the other leaving and backs off, so one always remains.
   */
  async delete(targetId: string): Promise<void> {
    const target = await this.markDeleting(targetId);
    if (target.role === Role.ADMIN) {
      const remaining = await this.users.countDocuments({ role: Role.ADMIN, deletingSince: null });
      if (remaining === 0) {
        await this.access.write([{ userId: targetId }], () =>
          this.users.updateOne({ _id: targetId }, { $set: { deletingSince: null } }),
        );
        throw new ConflictError(
          "The last administrator cannot be deleted; make another account ADMIN first",
        );
      }
    }
    for (const erase of this.hooks.erasers) await erase({ id: targetId, email: target.email });
    await this.access.write([{ userId: targetId }], () => this.users.deleteOne({ _id: targetId }));
    await this.emailKeys.release(target.email, targetId);
  }

  private async markDeleting(id: string): Promise<UserRecord> {
    const now = new Date();
    const marked = await this.access.write([{ userId: id }], () =>
      this.users
        .findOneAndUpdate(
          {
            _id: id,
            $or: [
              { deletingSince: null },
              { deletingSince: lessThan(new Date(now.getTime() - STALE_DELETION_MS)) },
            ],
          },
          { $set: { deletingSince: now } },
          { returnDocument: "after" },
        )
        .lean(),
    );
    if (marked) return marked;
    if (await this.users.exists({ _id: id })) {
      throw new ConflictError("This account is already being deleted");
    }
    throw new NotFoundError("No user has this id");
  }

  private async applyUpdate(id: string, changes: Partial<UserRecord>): Promise<UserRecord> {
    try {
      const updated = await this.access.write([{ userId: id }], () =>
        this.users
          .findOneAndUpdate(
            { _id: id, deletingSince: null },
            { $set: changes },
            { returnDocument: "after" },
          )
          .lean(),
      );
      if (!updated) throw new NotFoundError("No user has this id");
      return updated;
    } catch (error) {
      if (isDuplicateKeyError(error)) throw emailTaken();
      throw error;
    }
  }
}

const emailTaken = () => new ConflictError("Another account already uses this email");
