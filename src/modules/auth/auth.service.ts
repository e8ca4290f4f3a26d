import { UnauthenticatedError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import type { UserModel } from "../users/user.model";
import type { TokenService } from "./token.service";

/** Turns a bearer token into a caller. Login and sessions arrive with the accounts work. */
export class AuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UserModel,
  ) {}

  async authenticate(token: string): Promise<Caller> {
    if (!token) throw new UnauthenticatedError("The Authorization header must be 'Bearer <token>'");
    const claims = this.tokens.verifyAccessToken(token);
    const user = await this.users.findById(claims.sub).lean();
    if (!user) throw new UnauthenticatedError("The account of this token no longer exists");
    // The stored role wins over the token's, so a demotion takes effect at once.
    return { id: user._id, role: user.role, sessionId: claims.sid, user };
  }
}
