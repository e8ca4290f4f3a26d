import { createHmac } from "node:crypto";
import { Clock } from "../../clock";
import { uuidv7 } from "../../db/uuid";
import {
  NotFoundError,
  ReauthenticationRequiredError,
  UnauthenticatedError,
} from "../../errors/app-errors";
import type { Logger } from "../../logger";
import { hashSecret, newOpaqueToken } from "./secrets";
import type { SessionRecord } from "./session.model";
import type {
  RefreshState,
  SessionRepository,
  SessionState,
  SessionSummary,
} from "./session.repository";

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

/** A rotation's outcome; a grace-window repeat gives exactly the same one. */
export interface Rotated extends IssuedSession {
  userId: string;
  rotatedAt: Date;
}

export interface SessionPolicy {
  refreshTtlSeconds: number;
  /** REFRESH_REUSE_GRACE_SECONDS; 0 turns the two-tabs grace off. */
  reuseGraceSeconds: number;
  /** REAUTH_MAX_AGE_SECONDS. */
  reauthMaxAgeSeconds: number;
  /** Keys the derivation of a refresh token's successor (see `successorOf`). */
  successorKey: Buffer;
}

/** A session with the password proof the recent sign-in rule reads. */
export interface ProvenSession {
  authenticatedAt: Date | null;
}

const INVALID_REFRESH = "The refresh token is missing, invalid or expired; sign in again";

/**
 * Sessions and their refresh tokens. A refresh token is `<sessionId>.<secret>`; only its hash
 * is stored, and each refresh swaps it for a new one. Presenting a swapped-out token again
 * means it leaked (or was stolen and used first), so the whole session ends, except for the
 * token just swapped out, within a few seconds: two tabs refreshing with one cookie.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly policy: SessionPolicy,
    private readonly log: Logger,
    private readonly clock: Clock = new Clock(),
  ) {}

  async start(userId: string, client: ClientInfo): Promise<IssuedSession> {
    const now = this.clock.now();
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
      // Every way a session starts proves the password (or the MFA step that followed it).
      authenticatedAt: now,
      refreshExpiresAt,
      expiresAt,
    });
    return { sessionId, refreshToken: token, refreshExpiresAt };
  }

  /**
   * Swaps a live refresh token for its successor. The token swapped out last answers the same
   * successor again within the grace window; any other token is a 401, and a retired one ends
   * the session.
   */
  async rotate(presented: string): Promise<Rotated> {
    const sessionId = presented.split(".")[0];
    if (!sessionId || presented.length > 200) throw new UnauthenticatedError(INVALID_REFRESH);
    const presentedHash = hashSecret(presented);
    const successor = this.successorOf(sessionId, presented);
    const now = this.clock.now();
    const current = await this.sessions.findRefreshState(sessionId);
    if (!current || current.refreshTokenHash !== presentedHash) {
      return this.repeatOrRefuse(current, presentedHash, successor, now);
    }
    const refreshExpiresAt = this.refreshExpiry(now, current.expiresAt);
    const rotated = await this.sessions.rotate({
      sessionId,
      presentedHash,
      nextHash: successor.hash,
      now,
      refreshExpiresAt,
    });
    if (!rotated) {
      // Ended, expired, or another refresh spent this token first (a second tab, or a thief).
      const after = await this.sessions.findRefreshState(sessionId);
      return this.repeatOrRefuse(after, presentedHash, successor, now);
    }
    const { userId } = rotated;
    return { sessionId, refreshToken: successor.token, refreshExpiresAt, userId, rotatedAt: now };
  }

  /** Recent sign-in: what can take an account over needs a fresh proof of the password. */
  assertRecentSignIn(session: ProvenSession): void {
    const provenAt = session.authenticatedAt?.getTime();
    const maxAgeMs = this.policy.reauthMaxAgeSeconds * 1000;
    if (provenAt === undefined || this.clock.now().getTime() - provenAt > maxAgeMs) {
      throw new ReauthenticationRequiredError();
    }
  }

  /** The caller proved the password again: what needs a recent sign-in is open once more. */
  async markAuthenticated(sessionId: string): Promise<void> {
    if (!(await this.sessions.markAuthenticated(sessionId, this.clock.now()))) {
      throw new UnauthenticatedError("This session has ended; sign in again");
    }
  }

  /** The user's live sessions, newest first. */
  liveOf(userId: string): Promise<SessionSummary[]> {
    return this.sessions.liveOf(userId, this.clock.now());
  }

  /** Ends one of the user's own live sessions; any other id is the same 404. */
  async endOwn(userId: string, sessionId: string): Promise<void> {
    if (!(await this.sessions.revokeOwn(sessionId, userId, "ended by the user"))) {
      throw new NotFoundError("You have no live session with this id");
    }
  }

  /** Every session of the user but the one named (a password change keeps its own). */
  async endAllOthers(userId: string, keptSessionId: string, reason: string): Promise<void> {
    await this.sessions.revokeAllOf(userId, reason, keptSessionId);
  }

  /** The session behind an access token as it is now in the database; null when gone. */
  find(sessionId: string): Promise<SessionState | null> {
    return this.sessions.findState(sessionId);
  }

  /** Refuses an ended or expired session and notes its use. */
  assertLive(session: SessionState | null): asserts session is SessionState {
    if (!session || session.revokedAt || session.expiresAt <= this.clock.now()) {
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

  /**
   * The two-tabs case: the presented token is the one the live token succeeded, swapped out
   * within the grace window, so the same successor (re-derived, never stored) is the answer.
   * Anything else is refused, and a retired token ends the session.
   */
  private async repeatOrRefuse(
    current: RefreshState | null,
    presentedHash: string,
    successor: { token: string; hash: string },
    now: Date,
  ): Promise<Rotated> {
    const graceMs = this.policy.reuseGraceSeconds * 1000;
    if (
      graceMs > 0 &&
      current &&
      !current.revokedAt &&
      current.rotatedAt &&
      now.getTime() - current.rotatedAt.getTime() <= graceMs &&
      current.refreshTokenHash === successor.hash &&
      current.refreshExpiresAt > now &&
      current.expiresAt > now
    ) {
      return {
        sessionId: current._id,
        userId: current.userId,
        refreshToken: successor.token,
        refreshExpiresAt: current.refreshExpiresAt,
        rotatedAt: current.rotatedAt,
      };
    }
    await this.endIfReused(current, presentedHash);
    throw new UnauthenticatedError(INVALID_REFRESH);
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
    const now = this.clock.now().getTime();
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

  /**
   * The token that replaces `presented`: a keyed hash of it, so a second presentation within
   * the grace window yields the same cookie without the new token being stored anywhere.
   * Without the key, a successor is as unpredictable as a random token.
   */
  private successorOf(sessionId: string, presented: string): { token: string; hash: string } {
    const secret = createHmac("sha256", this.policy.successorKey)
      .update(presented)
      .digest("base64url");
    const token = `${sessionId}.${secret}`;
    return { token, hash: hashSecret(token) };
  }

  private refreshExpiry(now: Date, sessionEnd: Date): Date {
    const ttlMs = this.policy.refreshTtlSeconds * 1000;
    return new Date(Math.min(now.getTime() + ttlMs, sessionEnd.getTime()));
  }
}
