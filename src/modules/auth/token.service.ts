import jwt from "jsonwebtoken";
import { randomUUID } from "node:crypto";
import { UnauthenticatedError } from "../../errors/app-errors";
import type { Role } from "../users/role";

export interface AccessTokenClaims {
  sub: string;
  role: Role;
  jti: string;
  sid: string;
}

/** Signs and checks access tokens (HS256). Knows nothing of HTTP or storage. */
export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  signAccessToken(userId: string, role: Role, sessionId: string): string {
    return jwt.sign({ role, sid: sessionId }, this.secret, {
      algorithm: "HS256",
      subject: userId,
      jwtid: randomUUID(),
      expiresIn: this.ttlSeconds,
    });
  }

  verifyAccessToken(token: string): AccessTokenClaims {
    try {
      const claims = jwt.verify(token, this.secret, { algorithms: ["HS256"] });
      if (typeof claims === "string" || !claims.sub || !claims.sid || !claims.jti) {
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
}
