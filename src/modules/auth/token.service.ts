import jwt from "jsonwebtoken";
import { createHash, createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import { Clock } from "../../clock";
import { InvalidTokenError, UnauthenticatedError } from "../../errors/app-errors";
import type { Role } from "../users/role";

export interface AccessTokenClaims {
  sub: string;
  role: Role;
  jti: string;
  sid: string;
}

/** The second login step is short: long enough to open an authenticator app. */
export const MFA_TOKEN_TTL_SECONDS = 5 * 60;

/** Access tokens remembered as verified, per process: bounds the memory the cache may hold. */
export const VERIFIED_TOKENS_KEPT = 4_096;

type VerifiedClaims = Readonly<AccessTokenClaims & { exp: number }>;

/**
 * Signs and checks JWTs (HS256). Access tokens and MFA step tokens carry different `typ`
 * claims so neither can stand in for the other. Knows nothing of HTTP or storage.
 */
export class TokenService {
  // A KeyObject made once: given the string, jsonwebtoken derives one on every sign and verify,
  // work repeated for every signed-in request.
  private readonly secret: KeyObject;
  /*
   * A client sends the same access token with every request until it expires, and checking
   * its signature and decoding its claims again each time is a real share of a cheap read's
   * work. A token's text is what was verified, so only the very same text is let through
   * here, until its expiry; whether its session is live is checked per request.
   */
  private readonly verified = new Map<string, VerifiedClaims>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock = new Clock(),
  ) {
    this.secret = createSecretKey(Buffer.from(secret, "utf8"));
  }

  /**
   * `from` pins the token to a refresh: the same rotation signs the same claims (issued at its
   * time, a token id drawn from its new refresh token), so a grace-window repeat of a refresh
   * answers the very same access token.
   */
  signAccessToken(
    userId: string,
    role: Role,
    sessionId: string,
    from?: { issuedAt: Date; refreshToken: string },
  ): string {
    const issuedAt = from ? Math.floor(from.issuedAt.getTime() / 1000) : this.clock.nowSeconds();
    return jwt.sign({ typ: "access", role, sid: sessionId, iat: issuedAt }, this.secret, {
      algorithm: "HS256",
      subject: userId,
      jwtid: from ? uuidOf(`jti|${from.refreshToken}`) : randomUUID(),
      expiresIn: this.ttlSeconds,
    });
  }

  verifyAccessToken(token: string): AccessTokenClaims {
    const known = this.verified.get(token);
    // jsonwebtoken's own rule: expired from the second `exp` names.
    if (known && this.clock.nowSeconds() < known.exp) return known;
    try {
      const claims = jwt.verify(token, this.secret, {
        algorithms: ["HS256"],
        clockTimestamp: this.clock.nowSeconds(),
      });
      if (
        typeof claims === "string" ||
        claims.typ !== "access" ||
        !claims.sub ||
        !claims.sid ||
        !claims.jti ||
        typeof claims.exp !== "number"
      ) {
        throw new Error("missing claims");
      }
      return this.remember(token, claims as unknown as VerifiedClaims);
    } catch (error) {
      this.verified.delete(token);
      const expired = error instanceof jwt.TokenExpiredError;
      throw new UnauthenticatedError(
        expired ? "The access token has expired" : "The access token is invalid",
      );
    }
  }

  private remember(token: string, claims: VerifiedClaims): VerifiedClaims {
    // The oldest first: a Map iterates in insertion order.
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) {
      this.verified.delete(this.verified.keys().next().value!);
    }
    const frozen = Object.freeze(claims);
    this.verified.set(token, frozen);
    return frozen;
  }

  /** Proves the password step of a login for MFA_TOKEN_TTL_SECONDS; `tokenId` makes it spendable once. */
  signMfaToken(userId: string, userAgent: string | null, tokenId: string): string {
    return jwt.sign({ typ: "mfa", ua: userAgent, iat: this.clock.nowSeconds() }, this.secret, {
      algorithm: "HS256",
      subject: userId,
      jwtid: tokenId,
      expiresIn: MFA_TOKEN_TTL_SECONDS,
    });
  }

  verifyMfaToken(token: string): { userId: string; userAgent: string | null; tokenId: string } {
    try {
      const claims = jwt.verify(token, this.secret, {
        algorithms: ["HS256"],
        clockTimestamp: this.clock.nowSeconds(),
      });
      if (typeof claims === "string" || claims.typ !== "mfa" || !claims.sub || !claims.jti) {
        throw new Error("not an MFA token");
      }
      const userAgent = typeof claims.ua === "string" ? claims.ua : null;
      return { userId: claims.sub, userAgent, tokenId: claims.jti };
    } catch {
      throw new InvalidTokenError("The MFA token is invalid or has expired; sign in again");
    }
  }
}

/** A UUID-shaped id (version 4 bits set) drawn from a hash of `seed`. */
function uuidOf(seed: string): string {
  const bytes = createHash("sha256").update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
