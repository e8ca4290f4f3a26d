import { Args, Ctx, Mutation, Resolver, UseMiddleware } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { accountRateLimit } from "../../rate-limits/account-rate-limit";
import { Audit, NotAudited } from "../audit/audited-operations";
import { Role } from "../users/role";
import { User, UserPayload } from "../users/user.type";
import type { SignedIn } from "./auth.service";
import { CurrentCaller, type Caller } from "./caller";
import {
  DisableMfaArgs,
  EmailArgs,
  LoginArgs,
  MfaCodeArgs,
  RegisterArgs,
  ResetPasswordArgs,
  VerifyEmailArgs,
  VerifyMfaArgs,
} from "./auth.input";
import { AccessTokenPayload, AuthPayload, MfaSetupPayload } from "./auth.type";
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from "./refresh-cookie";

/** Forgot-password says the same whatever the address (no account enumeration). */
const FORGOT_MESSAGE = "If an account has this email, a password reset link has been sent to it";
const RESEND_MESSAGE =
  "If this email belongs to an account that is not verified yet, a new code has been sent";
/** A sign-in's answer over REST leaves out what it does not carry, rather than say null. */
const SIGN_IN_OPTIONALS = ["user", "accessToken", "mfaToken"];

/** Self-registration is the person's own act; an administrator creating an account is audited. */
const adminCreatedUser = (_args: unknown, result: unknown, caller: Caller | undefined) =>
  caller?.role === Role.ADMIN ? ((result as AuthPayload).user?.id ?? null) : undefined;

@Resolver()
export class AuthResolver {
  @Rest("POST", "/auth/register", {
    tag: "Auth",
    errors: [401, 403, 409],
    omitWhenNull: SIGN_IN_OPTIONALS,
    optionalBearer: true,
    refreshCookie: "sets",
    // Not the administrator's address, which every other example uses: a new account's own,
    // so that "Try it out" creates it on a fresh database (and answers 409 the second time).
    example: {
      name: "Maria Santos",
      email: "maria.santos@example.org",
      password: "Maria#Chaplain7",
    },
  })
  @Audit({ action: "user.create", targetType: "user", target: adminCreatedUser })
  @UseMiddleware(accountRateLimit("register"))
  @Mutation(() => AuthPayload, {
    description: "Create an account. Without an admin token only MEMBER; signs the new member in.",
  })
  async register(@Args() args: RegisterArgs, @Ctx() ctx: RequestContext): Promise<AuthPayload> {
    // An expired admin token asking for a role is a 401 to fix, not a 403 to puzzle over.
    if (args.role && args.role !== Role.MEMBER && !ctx.caller && ctx.authError) throw ctx.authError;
    const result = await ctx.services.auth.register(args, ctx.caller, ctx.client);
    if (result.kind === "created") {
      return {
        code: "OK",
        message: "Account created; a verification code was sent to its email",
        user: User.from(result.user),
        mfaRequired: false,
      };
    }
    return signedIn(ctx, result, "Account created; a verification code was sent to your email");
  }

  @Rest("POST", "/auth/login", {
    tag: "Auth",
    errors: [401],
    errorCodes: ["INVALID_CREDENTIALS"],
    omitWhenNull: SIGN_IN_OPTIONALS,
    refreshCookie: "sets",
  })
  @NotAudited("the caller's own sign-in (sessions record it)")
  @Mutation(() => AuthPayload, { description: "Sign in; may ask for the MFA step." })
  async login(@Args() args: LoginArgs, @Ctx() ctx: RequestContext): Promise<AuthPayload> {
    const client = { ip: ctx.client.ip, userAgent: args.userAgent ?? ctx.client.userAgent };
    const result = await ctx.services.auth.login(args.email, args.password, client);
    if (result.kind === "mfa-required") {
      return {
        code: "OK",
        message: "Enter the code from your authenticator app",
        mfaRequired: true,
        mfaToken: result.mfaToken,
      };
    }
    return signedIn(ctx, result, "Signed in");
  }

  @Rest("DELETE", "/auth/logout", { tag: "Auth", refreshCookie: "clears" })
  @NotAudited("the caller's own sign-out")
  @Authorized()
  @Mutation(() => Acknowledgement, { description: "End this session; its tokens stop working." })
  async logout(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    await ctx.services.auth.logout(caller);
    clearRefreshCookie(ctx);
    return acknowledged("Signed out");
  }

  @Rest("GET", "/auth/refresh-token", { tag: "Auth", errors: [401], refreshCookie: "rotates" })
  @NotAudited("token rotation")
  @Mutation(() => AccessTokenPayload, {
    description: "A new access token for the refreshToken cookie, which is rotated.",
  })
  async refreshToken(@Ctx() ctx: RequestContext): Promise<AccessTokenPayload> {
    const refreshed = await ctx.services.auth.refresh(readRefreshCookie(ctx));
    setRefreshCookie(ctx, refreshed.refreshToken, refreshed.refreshExpiresAt);
    return { code: "OK", message: "Access token refreshed", accessToken: refreshed.accessToken };
  }

  @Rest("POST", "/auth/forgot-password", { tag: "Auth" })
  @NotAudited("self-service, answers the same for any address")
  @UseMiddleware(accountRateLimit("forgotPassword"))
  @Mutation(() => Acknowledgement, {
    description: "Mail a password reset token, if the account exists.",
  })
  async forgotPassword(@Args() args: EmailArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.passwordReset.request(args.email);
    return acknowledged(FORGOT_MESSAGE);
  }

  @Rest("POST", "/auth/reset-password", {
    tag: "Auth",
    errorCodes: ["INVALID_TOKEN"],
    queryArguments: ["token"],
  })
  @NotAudited("self-service with a mailed token")
  @Mutation(() => Acknowledgement, { description: "Set a new password; ends every session." })
  async resetPassword(@Args() args: ResetPasswordArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.passwordReset.reset(args.token, args.password);
    return acknowledged("Password changed; sign in with the new password");
  }

  @Rest("POST", "/auth/verify-email", { tag: "Auth", errorCodes: ["INVALID_TOKEN"] })
  @NotAudited("self-service with a mailed code")
  @UseMiddleware(accountRateLimit("verifyEmail"))
  @Mutation(() => UserPayload, { description: "Confirm an email address with its code." })
  async verifyEmail(@Args() args: VerifyEmailArgs, @Ctx() ctx: RequestContext) {
    return UserPayload.of(await ctx.services.emailVerification.verify(args.code), "Email verified");
  }

  @Rest("POST", "/auth/resend-email-verification", { tag: "Auth" })
  @NotAudited("self-service")
  @UseMiddleware(accountRateLimit("resendEmailVerification"))
  @Mutation(() => Acknowledgement, { description: "Mail a new verification code, if one is due." })
  async resendEmailVerification(@Args() args: EmailArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.emailVerification.resend(args.email);
    return acknowledged(RESEND_MESSAGE);
  }

  @Rest("POST", "/auth/mfa/setup", {
    tag: "Auth",
    errors: [409],
    aliases: [{ method: "POST", path: "/auth/two-factor/setup" }],
  })
  @NotAudited("the caller's own second factor")
  @Authorized()
  @Mutation(() => MfaSetupPayload, { description: "Start MFA: a new TOTP secret to confirm." })
  async setupMfa(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ): Promise<MfaSetupPayload> {
    const setup = await ctx.services.mfa.setup(caller.user);
    return {
      code: "OK",
      message: "Confirm with a code from your authenticator app",
      secret: setup.secret,
      otpauthUri: setup.otpauthUri,
      data: {
        secret: setup.secret,
        otpauthUrl: setup.otpauthUri,
        qrCodeDataUrl: setup.qrCodeDataUrl,
      },
    };
  }

  @Rest("POST", "/auth/mfa/enable", {
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_TOKEN", "REAUTHENTICATION_REQUIRED"],
    aliases: [{ method: "POST", path: "/auth/two-factor/enable" }],
  })
  @NotAudited("the caller's own second factor")
  @Authorized()
  @Mutation(() => UserPayload, { description: "Turn MFA on with a code from the new secret." })
  async enableMfa(
    @CurrentCaller() caller: Caller,
    @Args() args: MfaCodeArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return UserPayload.of(
      await ctx.services.mfa.enable(caller, args.code ?? args.token ?? ""),
      "MFA enabled",
    );
  }

  @Rest("POST", "/auth/mfa/verify", {
    tag: "Auth",
    errors: [401],
    errorCodes: ["INVALID_CREDENTIALS", "INVALID_TOKEN"],
    omitWhenNull: SIGN_IN_OPTIONALS,
    refreshCookie: "sets",
  })
  @NotAudited("the second step of the caller's own sign-in")
  @Mutation(() => AuthPayload, { description: "The login's second step." })
  async verifyMfa(@Args() args: VerifyMfaArgs, @Ctx() ctx: RequestContext): Promise<AuthPayload> {
    const result = await ctx.services.auth.completeMfaLogin(args.mfaToken, args.code, ctx.client);
    return signedIn(ctx, result, "Signed in");
  }

  @Rest("POST", "/auth/mfa/disable", {
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_TOKEN", "REAUTHENTICATION_REQUIRED"],
    aliases: [{ method: "POST", path: "/auth/two-factor/disable" }],
  })
  @NotAudited("the caller's own second factor")
  @Authorized()
  @Mutation(() => UserPayload, {
    description:
      "Turn MFA off: a current code and the password, or neither within a recent sign-in.",
  })
  async disableMfa(
    @CurrentCaller() caller: Caller,
    @Args() args: DisableMfaArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const user = await ctx.services.mfa.disable(caller, args.code, args.password);
    return UserPayload.of(user, "MFA disabled");
  }
}

function signedIn(ctx: RequestContext, result: SignedIn, message: string): AuthPayload {
  setRefreshCookie(ctx, result.refreshToken, result.refreshExpiresAt);
  return {
    code: "OK",
    message,
    user: User.from(result.user),
    accessToken: result.accessToken,
    mfaRequired: false,
  };
}
