import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged } from "../../graphql/envelopes";
import { NotAudited } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "./caller";
import { ChangePasswordArgs, ReauthenticateArgs } from "./auth.input";
import { clearRefreshCookie } from "./refresh-cookie";
import { SessionInfo, SessionList } from "./session.type";

/** The signed-in caller's own sessions and password (ASVS V7.5: re-authentication, sessions). */
@Resolver()
export class SessionResolver {
  @Rest("POST", "/auth/reauthenticate", { tag: "Auth", errorCodes: ["INVALID_CREDENTIALS"] })
  @NotAudited("the caller's own password proof")
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description:
      "Prove the password again (and the TOTP code with MFA): renews the recent sign-in that " +
      "changing the email, MFA or deleting the account needs.",
  })
  async reauthenticate(
    @CurrentCaller() caller: Caller,
    @Args() args: ReauthenticateArgs,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.passwordProof.reauthenticate(caller, args.password, args.code, ctx.client);
    return acknowledged("Password confirmed");
  }

  @Rest("POST", "/auth/change-password", {
    summary: "Change the password (the current one as currentPassword, or oldPassword)",
    tag: "Auth",
    errors: [409],
    errorCodes: ["INVALID_CREDENTIALS"],
  })
  @NotAudited("the caller's own password (its sessions record the end)")
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Change the password; every other session ends, this one stays.",
  })
  async changePassword(
    @CurrentCaller() caller: Caller,
    @Args() args: ChangePasswordArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const currentPassword = args.currentPassword ?? args.oldPassword ?? "";
    const { password } = args;
    await ctx.services.passwordProof.changePassword(caller, currentPassword, password, ctx.client);
    return acknowledged("Password changed; your other sessions were signed out");
  }

  @Rest("GET", "/auth/sessions", {
    tag: "Auth",
    aliases: [{ method: "GET", path: "/users/sessions" }],
  })
  @NotAudited("the caller's own sessions")
  @Authorized()
  @Query(() => SessionList, { description: "The caller's live sessions, newest first." })
  async sessions(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ): Promise<SessionList> {
    const live = await ctx.services.sessions.liveOf(caller.id);
    const sessions = live.map((session) => SessionInfo.from(session, caller.sessionId));
    return {
      code: "OK",
      message: "Your sessions",
      sessions,
      data: { currentSession: sessions.find((s) => s.current) ?? null, sessions },
    };
  }

  @Rest("DELETE", "/auth/sessions/others", {
    tag: "Auth",
    aliases: [{ method: "DELETE", path: "/users/sessions/others" }],
  })
  @NotAudited("the caller's own sign-out of their other sessions")
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "End every session of the caller but this one (their tokens stop working).",
  })
  async endOtherSessions(
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    await ctx.services.sessions.endAllOthers(caller.id, caller.sessionId, "ended by the user");
    return acknowledged("Your other sessions were signed out");
  }

  @Rest("DELETE", "/auth/sessions/:id", {
    tag: "Auth",
    status: 204,
    errors: [404],
    aliases: [{ method: "DELETE", path: "/users/sessions/:id" }],
  })
  @NotAudited("the caller's own sign-out of one session")
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "End one of the caller's sessions (its tokens stop working).",
  })
  async endSession(
    @CurrentCaller() caller: Caller,
    @Arg("id", () => UUIDResolver) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Acknowledgement> {
    await ctx.services.sessions.endOwn(caller.id, id);
    if (id === caller.sessionId) clearRefreshCookie(ctx);
    return acknowledged("Session ended");
  }
}
