import { uuidv7 } from "../../db/uuid";
import { UnauthenticatedError } from "../../errors/app-errors";
import type { Logger } from "../../logger";
import { hashSecret, newOpaqueToken } from "./secrets";
import type { SessionRecord } from "./session.model";
import type { RefreshState, SessionRepository, SessionState } from "./session.repository";

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
    private readonly sessions: SessionRepository,
    private readonly refreshTtlSeconds: number,
    private readonly log: Logger,
  ) {}

  async start(userId: string, client: ClientInfo): Promise<IssuedSession> {
    const now = new Date();
    const sessionId = uuidv7();
    const expiresAt = new Date(now.getTime() + ABSOLUTE_LIFETIME_SECONDS * 1000);
    const { token, hash } = this.newRefreshToken(sessionId);
    const refreshExpiresAt = this.refreshExpiry(now, expiresAt);
    await this.sessions.insert({
      _id: sessionId,
      userId,
      refreshTokenHash: hash,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      ip: client.ip,
      createdAt: now,
      lastUsedAt: now,
      refreshExpiresAt,
      expiresAt,
    });
    return { sessionId, refreshToken: token, refreshExpiresAt };
  }

  /** Swaps a live refresh token for a new one; anything else is a 401. */
  async rotate(presented: string): Promise<IssuedSession & { userId: string }> {
    const sessionId = presented.split(".")[0];
    if (!sessionId || presented.length > 200) throw new UnauthenticatedError(INVALID_REFRESH);
    const presentedHash = hashSecret(presented);
    const now = new Date();
    const current = await this.sessions.findRefreshState(sessionId);
    if (!current || current.refreshTokenHash !== presentedHash) {
      await this.endIfReused(current, presentedHash);
      throw new UnauthenticatedError(INVALID_REFRESH);
    }
    const { token, hash } = this.newRefreshToken(sessionId);
    const refreshExpiresAt = this.refreshExpiry(now, current.expiresAt);
    const rotated = await this.sessions.rotate({
      sessionId,
      presentedHash,
      nextHash: hash,
      now,
      refreshExpiresAt,
    });
    if (!rotated) {
      // Ended, expired, or another refresh spent this token first: that one retired it, so
      // this presentation counts as reuse.
      await this.endIfReused(await this.sessions.findRefreshState(sessionId), presentedHash);
      throw new UnauthenticatedError(INVALID_REFRESH);
    }
    return { sessionId, refreshToken: token, refreshExpiresAt, userId: rotated.userId };
  }

  /** The session behind an access token as it is now in the database; null when gone. */
  find(sessionId: string): Promise<SessionState | null> {
    return this.sessions.findState(sessionId);
  }

  /** Refuses an ended or expired session and notes its use. */
  assertLive(session: SessionState | null): asserts session is SessionState {
    if (!session || session.revokedAt || session.expiresAt <= new Date()) {
      throw new UnauthenticatedError("This session has ended; sign in again");
    }
    this.touch(session);
  }

  async end(sessionId: string, reason: string): Promise<void> {
    await this.sessions.revoke(sessionId, reason);
  }

  async endAllOf(userId: string, reason: string): Promise<void> {
    await this.sessions.revokeAllOf(userId, reason);
  }

  /** Subject access: the account's sessions, newest first (token hashes stay inside). */
  async allOf(userId: string): Promise<SessionRecord[]> {
    return this.sessions.allOf(userId);
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.sessions.deleteAllOf(userId);
  }

  private async endIfReused(session: RefreshState | null, presentedHash: string): Promise<void> {
    if (!session || session.revokedAt || !session.retiredTokenHashes.includes(presentedHash)) {
      return;
    }
    if (await this.sessions.revoke(session._id, "refresh token reuse")) {
      this.log.warn(
        { sessionId: session._id, userId: session.userId },
        "refresh token reused; session ended",
      );
    }
  }

  private touch(session: SessionState): void {
    const now = Date.now();
    if (now - session.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    // Concurrent requests of one session would all write; the filter lets one of them.
    this.sessions
      .touch(session._id, new Date(now), new Date(now - LAST_USED_RESOLUTION_MS))
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
