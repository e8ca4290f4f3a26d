import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { NotAudited } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { FollowStatePayload } from "./follow.type";

const TAG = "Public profiles";
const KEY = "The record's id or the member's uniqueId";

/** Following a member's public page. */
@Resolver()
export class FollowResolver {
  @Rest("GET", "/members/public/:id/follow", { tag: TAG, errors: [404] })
  @NotAudited("the caller's own follow of a public page")
  @Authorized()
  @Query(() => FollowStatePayload, {
    description:
      "Whether the caller follows an APPROVED, listed member, and how many do; every other key is the public page's 404.",
  })
  async followState(
    @Arg("id", () => ID, { description: KEY }) id: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.follows.state(caller.id, id), "Follow state");
  }

  @Rest("POST", "/members/public/:id/follow", { tag: TAG, errors: [404] })
  @NotAudited("the caller's own follow of a public page, kept as the follow itself")
  @Authorized()
  @Mutation(() => FollowStatePayload, {
    description:
      "Follow an APPROVED, listed member (idempotent); not oneself (400). Every other key is the public page's 404.",
  })
  async followMember(
    @Arg("id", () => ID, { description: KEY }) id: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.follows.follow(caller.id, id), "Following");
  }

  @Rest("DELETE", "/members/public/:id/follow", { tag: TAG, errors: [404] })
  @NotAudited("the caller's own follow of a public page")
  @Authorized()
  @Mutation(() => FollowStatePayload, {
    description: "Stop following a member (idempotent). Answers the new state.",
  })
  async unfollowMember(
    @Arg("id", () => ID, { description: KEY }) id: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.follows.unfollow(caller.id, id), "Not following");
  }
}
