import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { randomUUID } from "node:crypto";
import {
  ConflictError,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  UnauthenticatedError,
} from "../../errors/app-errors";
import type { Caller } from "./caller";
import type { RateLimits } from "../../rate-limits/rate-limits";
import { normaliseEmail } from "../users/email";
import { Role } from "../users/role";
import type { UserRecord } from "../users/user.model";
import type { UserRepository } from "../users/user.repository";
import { loginLockKey } from "./password-proof.service";
import type { EmailVerificationService } from "./email-verification.service";
import type { MfaService } from "./mfa.service";
import type { PasswordHasher } from "./password-hasher";
import type { ClientInfo, SessionService } from "./session.service";
import type { TokenService } from "./token.service";

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  role?: Role | null;
}

/** A signed-in result: the access token for the caller, the refresh token for the cookie. */
export interface SignedIn {
  kind: "signed-in";
  user: UserRecord;
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

export type RegisterResult = SignedIn | { kind: "created"; user: UserRecord };
export type LoginResult = SignedIn | { kind: "mfa-required"; mfaToken: string };

/**
 * Who the caller is and how they become so: registration, login (with its MFA step),
 * refresh, logout, and turning an access token back into a caller on every request.
 */
export class AuthService {
  constructor(
    private readonly users: () => UserRepository,
    private readonly tokens: TokenService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly verification: EmailVerificationService,
    private readonly mfa: MfaService,
    private readonly limits: RateLimits,
  ) {}

  /**
   * Self-registration makes a MEMBER and signs them in. An administrator may create any role;
   * that account starts unverified and the administrator's own session is left alone.
   */
  async register(
    input: RegisterInput,
    caller: Caller | undefined,
    client: ClientInfo,
  ): Promise<RegisterResult> {
    const role = input.role ?? Role.MEMBER;
    const byAdmin = caller?.role === Role.ADMIN;
    if (role !== Role.MEMBER && !byAdmin) {
      throw new ForbiddenError("Only an administrator may create OFFICER or ADMIN accounts");
    }
    const user = await this.createAccount(input, role, client);
    await this.verification.issue(user);
    if (byAdmin) return { kind: "created", user };
    return this.signIn(user, client);
  }

  /**
   * Unknown email and wrong password are indistinguishable: same error, and a bcrypt
   * comparison in both cases. Failures per address and email lead to a lockout.
   */
  async login(email: string, password: string, client: ClientInfo): Promise<LoginResult> {
    const address = normaliseEmail(email);
    const lockKey = loginLockKey(client.ip, address);
    // An unknown address is compared too (as long, same shares), so neither tells it apart.
    const share = { client: client.ip ?? "-", account: address };
    this.hasher.assertRoom(share);
    await this.limits.reserveLoginAttempt(lockKey);
    const user = await this.users().findByEmail(address);
    const valid = await this.limits.releasedIfRefused(lockKey, () =>
      this.hasher.verify(password, user?.passwordHash, share),
    );
    if (!user || !valid || user.deletingSince) {
      await this.limits.recordLoginFailure(lockKey);
      throw new InvalidCredentialsError();
    }
    await this.limits.resetLoginFailures(lockKey);
    if (user.mfaEnabled) {
      const tokenId = randomUUID();
      await this.users().setMfaLoginToken(user._id, tokenId);
      return {
        kind: "mfa-required",
        mfaToken: this.tokens.signMfaToken(user._id, client.userAgent, tokenId),
      };
    }
    return this.signIn(user, client);
  }

  async completeMfaLogin(mfaToken: string, code: string, client: ClientInfo): Promise<SignedIn> {
    const step = this.tokens.verifyMfaToken(mfaToken);
    const user = await this.users().findById(step.userId);
    if (!user || !user.mfaEnabled || user.deletingSince) {
      throw new InvalidCredentialsError("The code is not valid");
    }
    // A token is good for one sign-in: a wrong code leaves it usable, a signed-in one spends it.
    if (user.mfaLoginTokenId !== step.tokenId) throw spentMfaToken();
    if (!(await this.mfa.checkLoginCode(user, code))) {
      throw new InvalidCredentialsError("The code is not valid");
    }
    if (!(await this.users().spendMfaLoginToken(user._id, step.tokenId))) throw spentMfaToken();
    return this.signIn(user, { ip: client.ip, userAgent: client.userAgent ?? step.userAgent });
  }

  async logout(caller: Caller): Promise<void> {
    await this.sessions.end(caller.sessionId, "logout");
  }

  async refresh(refreshToken: string | undefined): Promise<Omit<SignedIn, "kind" | "user">> {
    if (!refreshToken) throw new UnauthenticatedError("The refreshToken cookie is missing");
    const rotated = await this.sessions.rotate(refreshToken);
    const user = await this.users().findById(rotated.userId, { role: 1, deletingSince: 1 });
    if (!user || user.deletingSince) throw new UnauthenticatedError("The account no longer exists");
    // Pinned to the rotation, so a grace-window repeat answers the same access token.
    const from = { issuedAt: rotated.rotatedAt, refreshToken: rotated.refreshToken };
    return {
      accessToken: this.tokens.signAccessToken(user._id, user.role, rotated.sessionId, from),
      refreshToken: rotated.refreshToken,
      refreshExpiresAt: rotated.refreshExpiresAt,
    };
  }

  /**
   * Every request with a bearer token: the token must verify and its session still be live.
   * Both are read from the database each time, so a logout, a deletion or a role change made
   * anywhere (another instance, or straight in the database) holds from the next request on.
   */
  async authenticate(token: string): Promise<Caller> {
    if (!token) throw new UnauthenticatedError("The Authorization header must be 'Bearer <token>'");
    const claims = this.tokens.verifyAccessToken(token);
    const [user, session] = await Promise.all([
      this.users().findById(claims.sub),
      this.sessions.find(claims.sid),
    ]);
    this.sessions.assertLive(session);
    if (!user || user.deletingSince || session.userId !== user._id) {
      throw new UnauthenticatedError("The account of this token no longer exists");
    }
    // The stored role wins over the token's, so a demotion takes effect at once.
    const { authenticatedAt } = session;
    return { id: user._id, role: user.role, sessionId: claims.sid, user, authenticatedAt };
  }

  private async createAccount(
    input: RegisterInput,
    role: Role,
    client: ClientInfo,
  ): Promise<UserRecord> {
    const created = await this.users().create({
      _id: uuidv7(),
      name: input.name.trim(),
      email: normaliseEmail(input.email),
      passwordHash: await this.hasher.hash(input.password, { client: client.ip ?? "-" }),
      role,
    });
    // The unique email index is what makes an address belong to one account.
    if (created === DUPLICATE) throw duplicateEmail();
    return created;
  }

  private async signIn(user: UserRecord, client: ClientInfo): Promise<SignedIn> {
    const session = await this.sessions.start(user._id, client);
    return {
      kind: "signed-in",
      user,
      accessToken: this.tokens.signAccessToken(user._id, user.role, session.sessionId),
      refreshToken: session.refreshToken,
      refreshExpiresAt: session.refreshExpiresAt,
    };
  }
}

const spentMfaToken = () =>
  new InvalidTokenError("The MFA token was already used or replaced; sign in again");
const duplicateEmail = () => new ConflictError("An account with this email already exists");
