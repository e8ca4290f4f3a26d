import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { ChangePasswordArgs, ReauthenticateArgs } from "./auth.input";
import { clearRefreshCookie } from "./refresh-cookie";
import { SessionInfo, SessionList } from "./session.type";

/** The signed-in caller's own sessions and password (ASVS V7.5: re-authentication, sessions). */
@Resolver()
export class SessionResolver {
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description:
      "Prove the password again (and the TOTP code with MFA): renews the recent sign-in that " +
      "changing the email, MFA or deleting the account needs.",
  })
  async reauthenticate(@Args() args: ReauthenticateArgs, @Ctx() ctx: RequestContext) {
    await ctx.services.credentials.reauthenticate(
      ctx.caller!,
      args.password,
      args.code,
      ctx.client,
    );
    return acknowledged("Password confirmed");
  }

  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Change the password; every other session ends, this one stays.",
  })
  async changePassword(@Args() args: ChangePasswordArgs, @Ctx() ctx: RequestContext) {
    const { currentPassword, password } = args;
    await ctx.services.credentials.changePassword(
      ctx.caller!,
      currentPassword,
      password,
      ctx.client,
    );
    return acknowledged("Password changed; your other sessions were signed out");
  }

  @Authorized()
  @Query(() => SessionList, { description: "The caller's live sessions, newest first." })
  async sessions(@Ctx() ctx: RequestContext): Promise<SessionList> {
    const caller = ctx.caller!;
    const live = await ctx.services.sessions.liveOf(caller.id);
    return {
      code: "OK",
      message: "Your sessions",
      sessions: live.map((session) => SessionInfo.from(session, caller.sessionId)),
    };
  }

  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "End one of the caller's sessions (its tokens stop working).",
  })
  async endSession(
    @Arg("id", () => UUIDResolver) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    const caller = ctx.caller!;
    await ctx.services.sessions.endOwn(caller.id, id);
    if (id === caller.sessionId) clearRefreshCookie(ctx);
    return acknowledged("Session ended");
  }
}
