import type { Connection } from "mongoose";
import { ChangeFeed, type Change } from "../../db/change-feed";
import { FeedFollower } from "../../db/feed-follower";
import type { UserModel, UserRecord } from "../users/user.model";
import type { SessionModel, SessionRecord } from "./session.model";

/** What authenticating a request needs to know of a session. */
export type SessionState = Pick<SessionRecord, "_id" | "userId" | "revokedAt" | "expiresAt"> & {
  /** The cached copy is what the once-a-minute lastUsedAt write is throttled on. */
  lastUsedAt: Date;
};

/** Which cached facts a write changes: an account (and all its sessions) or one session. */
export type AccessChange = { userId: string } | { sessionId: string };

export interface AccessCacheOptions {
  /**
   * How long a cached account or session is trusted without reading it again. Writes by the
   * service are seen at once through the feed; this bounds how long a change made outside
   * it (an operator editing the database) goes unnoticed.
   */
  ttlMs: number;
  /** Accounts and sessions kept per process; the least recently loaded go first. */
  maxEntries: number;
}

const DEFAULTS: AccessCacheOptions = { ttlMs: 10_000, maxEntries: 20_000 };

const SESSION_FIELDS = { userId: 1, revokedAt: 1, expiresAt: 1, lastUsedAt: 1 } as const;

interface Cached<T> {
  value: T;
  loadedAt: number;
}

/**
 * The accounts and sessions behind access tokens, in memory. Every signed-in request needs
 * both, and on FerretDB each primary-key read costs about a millisecond of the engine's CPU:
 * two of them per request were most of the cost of a cheap read.
 *
 * Every write to an account or a session that matters here is announced on the "accounts"
 * change feed once it has landed (`write`/`announce`); before answering, each process reads
 * the feed it has not seen (one shared read for all requests waiting) and forgets what it
 * names. A logout, a deletion or a password reset on one instance is therefore refused on
 * every instance from the next request on, as before the cache.
 */
export class AccessCache {
  private readonly feed: ChangeFeed;
  private readonly follower: FeedFollower;
  private readonly options: AccessCacheOptions;
  private readonly users = new Map<string, Cached<UserRecord>>();
  private readonly sessions = new Map<string, Cached<SessionState>>();
  private located: Promise<void> | null = null;

  constructor(
    connection: Connection,
    private readonly userModel: UserModel,
    private readonly sessionModel: SessionModel,
    options: Partial<AccessCacheOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.feed = new ChangeFeed(connection, "accounts");
    this.follower = new FeedFollower(this.feed, (change) => this.forget(change));
  }

  /** The account and the session of an access token as they are now; null when gone. */
  async lookup(
    userId: string,
    sessionId: string,
  ): Promise<{ user: UserRecord | null; session: SessionState | null }> {
    await this.catchUp();
    const [user, session] = await Promise.all([
      this.cached(this.users, userId, () => this.userModel.findById(userId).lean()),
      this.cached(this.sessions, sessionId, () =>
        this.sessionModel.findById(sessionId, SESSION_FIELDS).lean<SessionState>(),
      ),
    ]);
    return { user, session };
  }

  /**
   * Runs a write to accounts or sessions and announces it unless it certainly changed nothing
   * (no document matched): a refused request leaves no trace. A write that failed may have
   * landed all the same, so it is announced.
   */
  async write<T>(changes: AccessChange[], write: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await write();
    } catch (error) {
      await this.announce(...changes);
      throw error;
    }
    if (changedSomething(result)) await this.announce(...changes);
    return result;
  }

  /** Tells every process (this one included) to forget what these changes touched. */
  async announce(...changes: AccessChange[]): Promise<void> {
    for (const change of changes) {
      const key = "userId" in change ? `user:${change.userId}` : `session:${change.sessionId}`;
      await this.feed.append("done", key);
    }
    await this.catchUp();
  }

  private async catchUp(): Promise<void> {
    // Start from the feed's end: what was written before this process started is not cached.
    this.located ??= this.feed.head().then(
      (head) => this.follower.skipTo(head),
      (error: unknown) => {
        this.located = null;
        throw error;
      },
    );
    await this.located;
    await this.follower.catchUp();
  }

  private async cached<T>(
    map: Map<string, Cached<T>>,
    id: string,
    load: () => Promise<T | null>,
  ): Promise<T | null> {
    const now = Date.now();
    const hit = map.get(id);
    if (hit && now - hit.loadedAt < this.options.ttlMs) return hit.value;
    const position = this.follower.position;
    const value = await load();
    // A change read from the feed while loading may be newer than what was loaded: keep
    // nothing then, the next request loads again.
    if (value && this.follower.position === position) this.remember(map, id, value, now);
    else map.delete(id);
    return value;
  }

  private remember<T>(map: Map<string, Cached<T>>, id: string, value: T, now: number): void {
    map.delete(id);
    map.set(id, { value, loadedAt: now });
    if (map.size > this.options.maxEntries) map.delete(map.keys().next().value!);
  }

  private forget(change: Change): Promise<void> {
    const key = change.recordId ?? "";
    if (change.kind === "resync") {
      this.users.clear();
      this.sessions.clear();
    } else if (key.startsWith("user:")) {
      const userId = key.slice("user:".length);
      this.users.delete(userId);
      for (const [sessionId, cached] of this.sessions) {
        if (cached.value.userId === userId) this.sessions.delete(sessionId);
      }
    } else if (key.startsWith("session:")) {
      this.sessions.delete(key.slice("session:".length));
    }
    return Promise.resolve();
  }
}

/** What updateOne/updateMany/deleteOne/deleteMany and findOneAndUpdate report of a write. */
function changedSomething(result: unknown): boolean {
  if (result === null) return false;
  if (typeof result !== "object") return true;
  const counts = result as { matchedCount?: number; deletedCount?: number };
  if (typeof counts.matchedCount === "number") return counts.matchedCount > 0;
  if (typeof counts.deletedCount === "number") return counts.deletedCount > 0;
  return true;
}
