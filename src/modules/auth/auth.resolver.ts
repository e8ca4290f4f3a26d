import { Args, Authorized, Ctx, Mutation, Resolver, UseMiddleware } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { accountRateLimit } from "../../rate-limits/account-rate-limit";
import { Role } from "../users/role";
import { User, UserPayload } from "../users/user.type";
import type { SignedIn } from "./auth.service";
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

@Resolver()
export class AuthResolver {
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

  @Authorized()
  @Mutation(() => Acknowledgement, { description: "End this session; its tokens stop working." })
  async logout(@Ctx() ctx: RequestContext): Promise<Acknowledgement> {
    await ctx.services.auth.logout(ctx.caller!);
    clearRefreshCookie(ctx);
    return acknowledged("Signed out");
  }

  @Mutation(() => AccessTokenPayload, {
    description: "A new access token for the refreshToken cookie, which is rotated.",
  })
  async refreshToken(@Ctx() ctx: RequestContext): Promise<AccessTokenPayload> {
    const refreshed = await ctx.services.auth.refresh(readRefreshCookie(ctx));
    setRefreshCookie(ctx, refreshed.refreshToken, refreshed.refreshExpiresAt);
    return { code: "OK", message: "Access token refreshed", accessToken: refreshed.accessToken };
  }

  @UseMiddleware(accountRateLimit("forgotPassword"))
  @Mutation(() => Acknowledgement, {
    description: "Mail a password reset token, if the account exists.",
  })
  async forgotPassword(@Args() args: EmailArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.passwordReset.request(args.email);
    return acknowledged(FORGOT_MESSAGE);
  }

  @Mutation(() => Acknowledgement, { description: "Set a new password; ends every session." })
  async resetPassword(@Args() args: ResetPasswordArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.passwordReset.reset(args.token, args.password);
    return acknowledged("Password changed; sign in with the new password");
  }

  @UseMiddleware(accountRateLimit("verifyEmail"))
  @Mutation(() => UserPayload, { description: "Confirm an email address with its code." })
  async verifyEmail(@Args() args: VerifyEmailArgs, @Ctx() ctx: RequestContext) {
    return UserPayload.of(await ctx.services.emailVerification.verify(args.code), "Email verified");
  }

  @UseMiddleware(accountRateLimit("resendEmailVerification"))
  @Mutation(() => Acknowledgement, { description: "Mail a new verification code, if one is due." })
  async resendEmailVerification(@Args() args: EmailArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.emailVerification.resend(args.email);
    return acknowledged(RESEND_MESSAGE);
  }

  @Authorized()
  @Mutation(() => MfaSetupPayload, { description: "Start MFA: a new TOTP secret to confirm." })
  async setupMfa(@Ctx() ctx: RequestContext): Promise<MfaSetupPayload> {
    const setup = await ctx.services.mfa.setup(ctx.caller!.user);
    return { code: "OK", message: "Confirm with a code from your authenticator app", ...setup };
  }

  @Authorized()
  @Mutation(() => UserPayload, { description: "Turn MFA on with a code from the new secret." })
  async enableMfa(@Args() args: MfaCodeArgs, @Ctx() ctx: RequestContext) {
    return UserPayload.of(await ctx.services.mfa.enable(ctx.caller!, args.code), "MFA enabled");
  }

  @Mutation(() => AuthPayload, { description: "The login's second step." })
  async verifyMfa(@Args() args: VerifyMfaArgs, @Ctx() ctx: RequestContext): Promise<AuthPayload> {
    const result = await ctx.services.auth.completeMfaLogin(args.mfaToken, args.code, ctx.client);
    return signedIn(ctx, result, "Signed in");
  }

  @Authorized()
  @Mutation(() => UserPayload, {
    description: "Turn MFA off; needs a current code and the password.",
  })
  async disableMfa(@Args() args: DisableMfaArgs, @Ctx() ctx: RequestContext) {
    const user = await ctx.services.mfa.disable(ctx.caller!, args.code, args.password);
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
