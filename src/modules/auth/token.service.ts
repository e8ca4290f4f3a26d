import jwt from "jsonwebtoken";
import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
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

/**
 * Signs and checks JWTs (HS256). Access tokens and MFA step tokens carry different `typ`
 * claims so neither can stand in for the other. Knows nothing of HTTP or storage.
 */
export class TokenService {
  // A KeyObject made once: given the string, jsonwebtoken derives one on every sign and verify,
  // which was a tenth of the CPU of a signed-in request.
  private readonly secret: KeyObject;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.secret = createSecretKey(Buffer.from(secret, "utf8"));
  }

  signAccessToken(userId: string, role: Role, sessionId: string): string {
    return jwt.sign({ typ: "access", role, sid: sessionId }, this.secret, {
      algorithm: "HS256",
      subject: userId,
      jwtid: randomUUID(),
      expiresIn: this.ttlSeconds,
    });
  }

  verifyAccessToken(token: string): AccessTokenClaims {
    try {
      const claims = jwt.verify(token, this.secret, { algorithms: ["HS256"] });
      if (
        typeof claims === "string" ||
        claims.typ !== "access" ||
        !claims.sub ||
        !claims.sid ||
        !claims.jti
      ) {
        throw new Error("missing claims");
      }
      return claims as unknown as AccessTokenClaims;
    } catch (error) {
      const expired = error instanceof jwt.TokenExpiredError;
      throw new UnauthenticatedError(
        expired ? "The access token has expired" : "The access token is invalid",
      );
    }
  }

  /** Proves the password step of a login for MFA_TOKEN_TTL_SECONDS. */
  signMfaToken(userId: string, userAgent: string | null): string {
    return jwt.sign({ typ: "mfa", ua: userAgent }, this.secret, {
      algorithm: "HS256",
      subject: userId,
      jwtid: randomUUID(),
      expiresIn: MFA_TOKEN_TTL_SECONDS,
    });
  }

  verifyMfaToken(token: string): { userId: string; userAgent: string | null } {
    try {
      const claims = jwt.verify(token, this.secret, { algorithms: ["HS256"] });
      if (typeof claims === "string" || claims.typ !== "mfa" || !claims.sub) {
        throw new Error("not an MFA token");
      }
      return { userId: claims.sub, userAgent: typeof claims.ua === "string" ? claims.ua : null };
    } catch {
      throw new InvalidTokenError("The MFA token is invalid or has expired; sign in again");
    }
  }
}
