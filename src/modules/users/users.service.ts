import { DUPLICATE } from "../../db/errors";
import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { fileIdOf, isFileId } from "../files/file-links";
import type { FileRefs } from "../files/file-refs";
import type { Mailer } from "../../mail/mailer";
import { emailChangedMail } from "../../mail/templates";
import type { EmailVerificationService } from "../auth/email-verification.service";
import type { SessionService } from "../auth/session.service";
import { normaliseEmail } from "./email";
import { Role } from "./role";
import type { UpdateCurrentUserArgs, UserListArgs } from "./user.input";
import type { UserRecord } from "./user.model";
import type { ProfileChanges, UserRepository } from "./user.repository";
import type { OffsetWindow, PageResult } from "../page-result";
import { User } from "./user.type";

/** What other modules do when an account changes: erase their data, follow a new email. */
export interface AccountHooks {
  erasers: ((account: { id: string; email: string }) => Promise<void>)[];
  emailChanged: ((userId: string, email: string, previousEmail: string) => Promise<void>)[];
  /** Whether the member's public page still shows this file of theirs (as its banner). */
  pageShows: (userId: string, fileId: string) => Promise<boolean>;
}

/** A deletion that crashed half-way may be retried after this long. */
const STALE_DELETION_MS = 60_000;

/** Accounts as their owners and administrators manage them. */
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly verification: Pick<EmailVerificationService, "issue">,
    private readonly hooks: AccountHooks,
    /** Changing the email and deleting oneself need a recent sign-in. */
    private readonly recentSignIn: Pick<SessionService, "assertRecentSignIn">,
    private readonly mailer: Mailer,
    /** The avatar may be a stored file (files module, built after this one). */
    private readonly files: () => FileRefs,
  ) {}

  async get(id: string): Promise<UserRecord> {
    const user = await this.users.findById(id);
    if (!user || user.deletingSince) throw new NotFoundError("No user has this id");
    return user;
  }

  /**
   * The total leaves out accounts being erased, as the pages do (an erasure that failed
   * half-way keeps its mark until retried); counting the rest directly would read them all.
   */
  async list(args: UserListArgs): Promise<PageResult<User, OffsetWindow>> {
    const [records, all, beingErased] = await Promise.all([
      this.users.listNewestFirst(args.offset, args.limit),
      this.users.estimatedCount(),
      this.users.countBeingErased(),
    ]);
    return {
      offset: args.offset,
      limit: args.limit,
      items: records.map((record) => User.from(record)),
      total: Math.max(0, all - beingErased),
    };
  }

  /**
   * A changed email is unverified until its new code comes back. The email is the recovery
   * channel, so changing it needs a recent sign-in and the old address is told.
   */
  async updateCurrent(caller: Caller, args: UpdateCurrentUserArgs): Promise<UserRecord> {
    const changes: ProfileChanges = {};
    if (args.name !== undefined && args.name !== null) changes.name = args.name.trim();
    if (args.avatar !== undefined) changes.avatar = await this.avatarOf(caller.id, args.avatar);
    const email = args.email ? normaliseEmail(args.email) : undefined;
    const emailChanged = email !== undefined && email !== caller.user.email;
    if (emailChanged) {
      this.recentSignIn.assertRecentSignIn(caller);
      Object.assign(changes, { email, isEmailVerified: false });
    }
    const updated = await this.applyUpdate(caller.id, changes);
    await this.releaseReplacedAvatar(caller.id, caller.user.avatar, updated.avatar);
    if (emailChanged) {
      for (const follow of this.hooks.emailChanged) {
        await follow(updated._id, updated.email, caller.user.email);
      }
      await this.verification.issue(updated);
      const { email: previous, name } = caller.user;
      this.mailer.send(emailChangedMail({ to: previous, name, newEmail: updated.email }));
    }
    return updated;
  }

  /** Erasure asked by the owner: a stolen access token alone cannot do it. */
  async deleteCurrent(caller: Caller): Promise<void> {
    this.recentSignIn.assertRecentSignIn(caller);
    await this.delete(caller.id);
  }

  /**
   * Erases an account and everything of it. An administrator is first marked as leaving and
   * the remaining administrators counted afterwards: of two admins removing each other at
   * once, at least one sees the other leaving and backs off, so one always remains.
   */
  async delete(targetId: string): Promise<void> {
    const target = await this.markDeleting(targetId);
    if (target.role === Role.ADMIN && !(await this.users.anyAdminStaying())) {
      await this.users.unmarkDeleting(targetId);
      throw new ConflictError(
        "The last administrator cannot be deleted; make another account ADMIN first",
      );
    }
    for (const erase of this.hooks.erasers) await erase({ id: targetId, email: target.email });
    await this.users.delete(targetId);
  }

  private async markDeleting(id: string): Promise<UserRecord> {
    const now = new Date();
    const staleBefore = new Date(now.getTime() - STALE_DELETION_MS);
    const marked = await this.users.markDeleting(id, now, staleBefore);
    if (marked) return marked;
    if (await this.users.exists(id)) {
      throw new ConflictError("This account is already being deleted");
    }
    throw new NotFoundError("No user has this id");
  }

  /** An AVATAR upload becomes the account's avatar (POST /files, the site's avatarUploader). */
  async useAvatarFile(userId: string, fileId: string): Promise<void> {
    const before = await this.get(userId);
    const updated = await this.applyUpdate(userId, { avatar: await this.avatarOf(userId, fileId) });
    await this.releaseReplacedAvatar(userId, before.avatar, updated.avatar);
  }

  /**
   * What `avatar` stores: a file of this service by its id (claimed: the caller's own AVATAR
   * upload, else a 400 on `avatar`), or an outside URL as given.
   */
  private async avatarOf(userId: string, avatar: string | null): Promise<string | null> {
    if (avatar === null || fileIdOf(avatar) === null) return avatar;
    return this.files().claim(avatar, {
      ownerId: userId,
      purposes: ["AVATAR"],
      field: "avatar",
    });
  }

  /**
   * The orphan sweep may take a stored avatar file that the account no longer shows, unless the
   * member's page still shows the same file as its banner.
   */
  private async releaseReplacedAvatar(
    userId: string,
    before: string | null,
    after: string | null,
  ): Promise<void> {
    if (before === null || before === after || !isFileId(before)) return;
    if (await this.hooks.pageShows(userId, before)) return;
    await this.files().release([before]);
  }

  private async applyUpdate(id: string, changes: ProfileChanges): Promise<UserRecord> {
    const updated = await this.users.updateProfile(id, changes);
    if (updated === DUPLICATE) throw emailTaken();
    if (!updated) throw new NotFoundError("No user has this id");
    return updated;
  }
}

const emailTaken = () => new ConflictError("Another account already uses this email");
