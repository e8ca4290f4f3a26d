import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { documentName, reviewWords } from "../../mail/status-words";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { ReviewRequirementArgs, SaveRequirementsArgs } from "./requirement.input";
import {
  MemberRequirementsPayload,
  PendingRequirementPage,
  RequirementPayload,
} from "./requirement.type";

@Resolver()
export class RequirementResolver {
  @Rest("GET", "/members/current/requirements", { tag: "Onboarding", errors: [404] })
  @NotAudited("the caller's own documents")
  @Authorized()
  @Query(() => MemberRequirementsPayload, {
    description:
      "The caller's application status, uniqueId and documents. 404 without an application.",
  })
  async currentRequirements(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.requirements.current(caller), "Your requirements");
  }

  @Rest("PUT", "/members/current/requirements", {
    tag: "Onboarding",
    errors: [409],
    example: { attachments: [{ type: "PHOTO_2X2", fileId: EXAMPLE_FILE_ID }] },
  })
  @NotAudited("the caller's own documents")
  @Authorized()
  @Mutation(() => MemberRequirementsPayload, {
    description:
      "Attach uploaded files (purpose REQUIREMENT), one per type. APPROVED records only.",
  })
  async saveCurrentRequirements(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveRequirementsArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.onboarding.requirements.save(caller, args), "Requirements saved");
  }

  @Rest("PATCH", "/members/:id/requirements/:type", { tag: "Onboarding", errors: [404] })
  @Audit({ action: "requirement.review", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => RequirementPayload, {
    description: "Approve or reject one document; the note is mailed to the member. Admin only.",
  })
  async reviewRequirement(
    @CurrentCaller() caller: Caller,
    @Args() args: ReviewRequirementArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const requirement = await ctx.services.onboarding.requirements.review(caller, args);
    const name = documentName(args.type);
    return ok(requirement, `The ${name} ${reviewWords(args.reviewStatus)}`);
  }

  @Rest("GET", "/requirements/pending", { tag: "Onboarding" })
  @Audit({ action: "requirement.pending", targetType: "member", target: noTarget })
  @Authorized(Role.ADMIN)
  @Query(() => PendingRequirementPage, {
    description: "Documents waiting for review, oldest first. Admin only.",
  })
  async pendingRequirements(
    @Args() args: PageArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.onboarding.requirements.pending(args, caller);
    return paged(page, "Documents waiting for review");
  }
}
