import type { Claims } from "../../db/claims";
import { UnauthenticatedError } from "../../errors/app-errors";
import type { Logger } from "../../logger";
import type { AccessCache, SessionState } from "./access-cache";
import { hashSecret, newOpaqueToken } from "./secrets";
import type { SessionModel, SessionRecord } from "./session.model";

/** A session cannot be stretched by rotation beyond this, whatever the refresh lifetime. */
const ABSOLUTE_LIFETIME_SECONDS = 30 * 24 * 3600;
/** lastUsedAt is bookkeeping for the user; one write a minute per session is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface IssuedSession {
  sessionId: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

const INVALID_REFRESH = "The refresh token is missing, invalid or expired; sign in again";

/**
 * Sessions and their refresh tokens. A refresh token is `<sessionId>.<random>`; only its hash
 * is stored, and each refresh swaps it for a new one. Presenting a swapped-out token again
 * means it leaked (or was stolen and used first), so the whole session ends.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionModel,
    private readonly claims: Claims,
    private readonly access: AccessCache,
    private readonly refreshTtlSeconds: number,
    private readonly log: Logger,
  ) {}

  async start(userId: string, client: ClientInfo): Promise<IssuedSession> {
    const now = new Date();
    const session = new this.sessions({
      userId,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      ip: client.ip,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + ABSOLUTE_LIFETIME_SECONDS * 1000),
    });
    const { token, hash } = this.newRefreshToken(session._id);
    const refreshExpiresAt = this.refreshExpiry(now, session.expiresAt);
    session.refreshTokenHash = hash;
    session.refreshExpiresAt = refreshExpiresAt;
    await session.save();
    return { sessionId: session._id, refreshToken: token, refreshExpiresAt };
  }

  /** Swaps a live refresh token for a new one; anything else is a 401. */
  async rotate(presented: string): Promise<IssuedSession & { userId: string }> {
    const sessionId = presented.split(".")[0];
    if (!sessionId || presented.length > 200) throw new UnauthenticatedError(INVALID_REFRESH);
    const presentedHash = hashSecret(presented);
    const now = new Date();
    const { token, hash } = this.newRefreshToken(sessionId);
    const current = await this.sessions
      .findOne({ _id: sessionId, refreshTokenHash: presentedHash, revokedAt: null })
      .lean();
    if (!current || current.refreshExpiresAt <= now || current.expiresAt <= now) {
      await this.detectReuse(sessionId, presentedHash);
      throw new UnauthenticatedError(INVALID_REFRESH);
    }
    // Each refresh token is spent once: of two refreshes racing with one token, one wins and
    // the other counts as reuse.
    if (!(await this.claims.take(`refresh:${presentedHash}`))) {
      await this.detectReuse(sessionId, presentedHash, true);
      throw new UnauthenticatedError(INVALID_REFRESH);
    }
    const refreshExpiresAt = this.refreshExpiry(now, current.expiresAt);
    const rotated = await this.sessions.findOneAndUpdate(
      { _id: sessionId, refreshTokenHash: presentedHash, revokedAt: null },
      {
        $set: { refreshTokenHash: hash, lastUsedAt: now, refreshExpiresAt },
        $push: { retiredTokenHashes: presentedHash },
      },
      { returnDocument: "after" },
    );
    if (!rotated) {
      await this.detectReuse(sessionId, presentedHash);
      throw new UnauthenticatedError(INVALID_REFRESH);
    }
    return { sessionId, refreshToken: token, refreshExpiresAt, userId: rotated.userId };
  }

  /**
   * Refuses an ended or expired session (as the access cache holds it) and notes its use.
   * Ending a session is announced to every instance, so the cached state is current.
   */
  assertLive(session: SessionState | null): asserts session is SessionState {
    if (!session || session.revokedAt || session.expiresAt <= new Date()) {
      throw new UnauthenticatedError("This session has ended; sign in again");
    }
    this.touch(session);
  }

  async end(sessionId: string, reason: string): Promise<void> {
    await this.access.write([{ sessionId }], () =>
      this.sessions.updateOne(
        { _id: sessionId, revokedAt: null },
        { $set: { revokedAt: new Date(), revokedReason: reason } },
      ),
    );
  }

  async endAllOf(userId: string, reason: string): Promise<void> {
    await this.access.write([{ userId }], () =>
      this.sessions.updateMany(
        { userId, revokedAt: null },
        { $set: { revokedAt: new Date(), revokedReason: reason } },
      ),
    );
  }

  /** Subject access: the account's sessions, newest first (token hashes stay inside). */
  async allOf(userId: string): Promise<SessionRecord[]> {
    return this.sessions.find({ userId }).sort({ createdAt: -1, _id: -1 }).lean();
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.access.write([{ userId }], () => this.sessions.deleteMany({ userId }));
  }

  /** `spent`: the token was live but already claimed by another refresh. */
  private async detectReuse(
    sessionId: string,
    presentedHash: string,
    spent = false,
  ): Promise<void> {
    const session = await this.sessions
      .findById(sessionId, { retiredTokenHashes: 1, revokedAt: 1, userId: 1 })
      .lean();
    if (!session || session.revokedAt) return;
    if (!spent && !session.retiredTokenHashes.includes(presentedHash)) return;
    await this.end(sessionId, "refresh token reuse");
    this.log.warn({ sessionId, userId: session.userId }, "refresh token reused; session ended");
  }

  private touch(session: SessionState): void {
    const now = Date.now();
    if (now - session.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // On the cached copy too, so the requests that follow do not write again.
    session.lastUsedAt = new Date(now);
    this.sessions
      .updateOne({ _id: session._id }, { $set: { lastUsedAt: new Date(now) } })
      .catch((error: unknown) => this.log.warn({ err: error }, "could not record session use"));
  }

  private newRefreshToken(sessionId: string): { token: string; hash: string } {
    const token = `${sessionId}.${newOpaqueToken()}`;
    return { token, hash: hashSecret(token) };
  }

  private refreshExpiry(now: Date, sessionEnd: Date): Date {
    return new Date(Math.min(now.getTime() + this.refreshTtlSeconds * 1000, sessionEnd.getTime()));
  }
}
