import { greaterThan, lessThan, notEqual } from "../../db/operators";
import type { SessionModel, SessionRecord } from "./session.model";

/** What authenticating a request needs to know of a session. */
export type SessionState = Pick<
  SessionRecord,
  "_id" | "userId" | "revokedAt" | "expiresAt" | "lastUsedAt" | "authenticatedAt"
>;

/** What a refresh needs to decide between rotation, reuse and a plain refusal. */
export type RefreshState = SessionState &
  Pick<SessionRecord, "refreshTokenHash" | "retiredTokenHashes" | "refreshExpiresAt" | "rotatedAt">;

/** What the caller's session list shows. */
export type SessionSummary = Pick<
  SessionRecord,
  "_id" | "userAgent" | "createdAt" | "lastUsedAt" | "ip" | "refreshExpiresAt"
>;

const SESSION_STATE = {
  userId: 1,
  revokedAt: 1,
  expiresAt: 1,
  lastUsedAt: 1,
  authenticatedAt: 1,
} as const;
const REFRESH_STATE = {
  ...SESSION_STATE,
  refreshTokenHash: 1,
  retiredTokenHashes: 1,
  refreshExpiresAt: 1,
  rotatedAt: 1,
} as const;

export interface Rotation {
  sessionId: string;
  presentedHash: string;
  nextHash: string;
  now: Date;
  refreshExpiresAt: Date;
}

/** Every read and write of the sessions collection. */
export class SessionRepository {
  constructor(private readonly sessions: SessionModel) {}

  async insert(
    record: Omit<SessionRecord, "retiredTokenHashes" | "revokedAt" | "revokedReason" | "rotatedAt">,
  ): Promise<void> {
    await this.sessions.create({
      ...record,
      rotatedAt: null,
      retiredTokenHashes: [],
      revokedAt: null,
      revokedReason: null,
    });
  }

  findState(sessionId: string): Promise<SessionState | null> {
    return this.sessions.findById(sessionId, SESSION_STATE).lean<SessionState>();
  }

  findRefreshState(sessionId: string): Promise<RefreshState | null> {
    return this.sessions.findById(sessionId, REFRESH_STATE).lean<RefreshState>();
  }

  /**
   * Swaps the refresh token only while the presented one is still the live one: of two
   * refreshes with one token, exactly one matches this filter.
   */
  async rotate(rotation: Rotation): Promise<SessionRecord | null> {
    const { sessionId, presentedHash, nextHash, now, refreshExpiresAt } = rotation;
    // No projection: the development database does not implement findAndModify's `fields`.
    return this.sessions
      .findOneAndUpdate(
        {
          _id: sessionId,
          refreshTokenHash: presentedHash,
          revokedAt: null,
          refreshExpiresAt: greaterThan(now),
          expiresAt: greaterThan(now),
        },
        {
          $set: { refreshTokenHash: nextHash, lastUsedAt: now, refreshExpiresAt, rotatedAt: now },
          $push: { retiredTokenHashes: presentedHash },
        },
        { returnDocument: "after" },
      )
      .lean();
  }

  /** False when the session was already ended (or is gone). */
  async revoke(sessionId: string, reason: string): Promise<boolean> {
    const result = await this.sessions.updateOne(
      { _id: sessionId, revokedAt: null },
      { $set: { revokedAt: new Date(), revokedReason: reason } },
    );
    return result.modifiedCount === 1;
  }

  /** Ends one live session of `userId`; false when it is not theirs, not live, or unknown. */
  async revokeOwn(sessionId: string, userId: string, reason: string): Promise<boolean> {
    const result = await this.sessions.updateOne(
      { _id: sessionId, userId, revokedAt: null },
      { $set: { revokedAt: new Date(), revokedReason: reason } },
    );
    return result.modifiedCount === 1;
  }

  /** Every live session of the user, but `exceptSessionId` when given. */
  async revokeAllOf(userId: string, reason: string, exceptSessionId?: string): Promise<void> {
    await this.sessions.updateMany(
      {
        userId,
        revokedAt: null,
        ...(exceptSessionId === undefined ? {} : { _id: notEqual(exceptSessionId) }),
      },
      { $set: { revokedAt: new Date(), revokedReason: reason } },
    );
  }

  /** A password proof for a session still live. */
  async markAuthenticated(sessionId: string, now: Date): Promise<boolean> {
    const result = await this.sessions.updateOne(
      { _id: sessionId, revokedAt: null },
      { $set: { authenticatedAt: now } },
    );
    return result.matchedCount === 1;
  }

  /**
   * The user's sessions whose refresh token still works, newest first. The user's index
   * gives the order; ended ones are filtered out of that user's few.
   */
  liveOf(userId: string, now: Date): Promise<SessionSummary[]> {
    return this.sessions
      .find(
        { userId, revokedAt: null, refreshExpiresAt: greaterThan(now) },
        { userAgent: 1, createdAt: 1, lastUsedAt: 1, ip: 1, refreshExpiresAt: 1 },
      )
      .sort({ createdAt: -1, _id: -1 })
      .lean<SessionSummary[]>();
  }

  /** Records a use unless one at or after `before` is already recorded. */
  async touch(sessionId: string, now: Date, before: Date): Promise<void> {
    await this.sessions.updateOne(
      { _id: sessionId, lastUsedAt: lessThan(before) },
      { $set: { lastUsedAt: now } },
    );
  }

  /** Newest first. */
  allOf(userId: string): Promise<SessionRecord[]> {
    return this.sessions.find({ userId }).sort({ createdAt: -1, _id: -1 }).lean();
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.sessions.deleteMany({ userId });
  }
}
