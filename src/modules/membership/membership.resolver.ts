import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import {
  CredentialRevocationPayload,
  DecideRenewalArgs,
  MembershipYearPayload,
  RenewalListArgs,
  RenewalPage,
  RenewalPayload,
  RevokeCredentialsArgs,
  SubmitRenewalArgs,
} from "./membership.type";

@Resolver()
export class MembershipResolver {
  @Rest("GET", "/members/current/membership", { tag: "Membership" })
  @NotAudited("the caller's own membership year")
  @Authorized()
  @Query(() => MembershipYearPayload, {
    description: "The caller's membership year: standing, end, renewal window, latest renewal.",
  })
  async currentMembership(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.renewals.current(caller), "Your membership year");
  }

  @Rest("POST", "/members/current/renewal", {
    tag: "Membership",
    status: 201,
    errors: [409],
    example: { paymentMethod: "E_WALLET", proofFileId: EXAMPLE_FILE_ID },
  })
  @NotAudited("the caller's own renewal")
  @Authorized()
  @Mutation(() => RenewalPayload, {
    description:
      "Renew the membership year with its payment: from 60 days before its end until 90 days after.",
  })
  async submitRenewal(
    @CurrentCaller() caller: Caller,
    @Args() args: SubmitRenewalArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.renewals.submit(caller, args), "Renewal submitted");
  }

  @Rest("GET", "/renewals", { tag: "Membership" })
  @Audit({ action: "renewal.list", targetType: "renewal", target: noTarget })
  @Authorized(Role.ADMIN)
  @Query(() => RenewalPage, { description: "Renewals of one status, oldest first. Admin only." })
  async renewals(
    @Args() args: RenewalListArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return paged(await ctx.services.renewals.list(args, caller), "Renewals");
  }

  @Rest("PATCH", "/renewals/:id", {
    tag: "Membership",
    errors: [404, 409],
    example: { status: "VERIFIED" },
  })
  @Audit({ action: "renewal.decide", targetType: "renewal", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => RenewalPayload, {
    description:
      "Verify (extends the year from the later of its end and today, prints the card again) or reject a renewal. Admin only.",
  })
  async decideRenewal(
    @CurrentCaller() caller: Caller,
    @Args() args: DecideRenewalArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.renewals.decide(caller, args), `Renewal ${args.status}`);
  }

  @Rest("POST", "/members/:id/credentials/revoke", {
    tag: "Membership",
    errors: [404, 409],
    example: { reason: "Conduct unbecoming of a chaplain" },
  })
  @Audit({ action: "credentials.revoke", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => CredentialRevocationPayload, {
    description:
      "Revoke a member's credentials with a reason: the public check says REVOKED. Admin only.",
  })
  async revokeCredentials(
    @CurrentCaller() caller: Caller,
    @Args() args: RevokeCredentialsArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(
      await ctx.services.membership.revoke(caller, args.id, args.reason),
      "Credentials revoked",
    );
  }
}
