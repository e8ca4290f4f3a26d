import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, listOrSearch, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { MemberProfile } from "../members/member-profile.type";
import { Member, MemberPayload } from "../members/member.type";
import { MemberStatus } from "../members/member.enums";
import { Role } from "../users/role";
import { MoveStepArgs, OnboardingListArgs, RecordOathArgs } from "./progress.input";
import {
  MemberOnboarding,
  OnboardingListPage,
  OnboardingProgress,
  OnboardingProgressPayload,
} from "./progress.type";

@Resolver()
export class OnboardingProgressResolver {
  @Rest("GET", "/members/current/onboarding-progress", { tag: "Onboarding" })
  @NotAudited("the caller's own onboarding")
  @Authorized()
  @Query(() => OnboardingProgressPayload, {
    description: "The caller's steps and what each misses; null unless their record is APPROVED.",
  })
  async onboardingProgress(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.progress.currentProgress(caller), "Your onboarding");
  }

  @Rest("PUT", "/members/current/onboarding-progress/step", {
    tag: "Onboarding",
    errors: [409],
    example: { currentStep: "PRE_ORIENTATION" },
  })
  @NotAudited("the caller's own onboarding")
  @Authorized()
  @Mutation(() => OnboardingProgressPayload, {
    description: "Move to a step: back always, forward once every earlier step is done (else 409).",
  })
  async moveOnboardingStep(
    @CurrentCaller() caller: Caller,
    @Args() args: MoveStepArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const progress = await ctx.services.onboarding.progress.moveTo(caller, args.currentStep);
    return ok(progress, `Moved to ${args.currentStep}`);
  }

  @Rest("GET", "/onboarding", { tag: "Onboarding" })
  @Audit({
    action: listOrSearch("onboarding.list", "onboarding.search"),
    targetType: "member",
    target: noTarget,
  })
  @Authorized(Role.ADMIN)
  @Query(() => OnboardingListPage, {
    description:
      "Approved members, newest first, with their step and what each step misses. Admin only.",
  })
  async onboardingMembers(@Args() args: OnboardingListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.onboarding.admin.list(args);
    return paged(page, "Onboarding");
  }

  @Rest("GET", "/members/:id", { tag: "Members", errors: [404] })
  @Audit({ action: "member.read", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Query(() => MemberPayload, {
    description: "One member record with its whole onboarding (`onboarding`). Admin only.",
  })
  async member(
    @Arg("id", () => UUIDResolver) id: string,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.onboarding.admin.member(id, caller), "Member record");
  }

  @Rest("POST", "/members/:id/oath", { tag: "Onboarding", errors: [409] })
  @Audit({ action: "member.oath", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, {
    description:
      "Record the oath: completes onboarding, the member becomes ASSOCIATE_CHAPLAIN and is mailed the certificate. Admin only.",
  })
  async recordOath(
    @CurrentCaller() caller: Caller,
    @Args() args: RecordOathArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.onboarding.admin.recordOath(caller, args), "Oath recorded");
  }
}

/** The whole onboarding on a Member, for administrators. */
@Resolver(() => Member)
export class MemberOnboardingResolver {
  @FieldResolver(() => MemberOnboarding, {
    nullable: true,
    description:
      "The whole onboarding of an APPROVED record, on `member(id)` only (null in lists). " +
      "Administrators only; null for anyone else",
  })
  onboarding(
    @Root() member: Member & { onboarding?: MemberOnboarding | null },
    @Ctx() ctx: RequestContext,
  ): MemberOnboarding | null {
    if (ctx.caller?.role !== Role.ADMIN) return null;
    // Gathered by member(id) alone; every other read of a Member leaves it out.
    return member.onboarding ?? null;
  }
}

/** `memberProfile.onboardingProgress`: where the account's latest record stands. */
@Resolver(() => MemberProfile)
export class MemberProfileOnboardingResolver {
  @FieldResolver(() => OnboardingProgress, {
    nullable: true,
    description: "The onboarding of an APPROVED, active record; null otherwise",
  })
  onboardingProgress(
    @Root() profile: MemberProfile,
    @Ctx() ctx: RequestContext,
  ): Promise<OnboardingProgress | null> {
    // Only an APPROVED, active record has onboarding: the profile already says so, and a page of
    // users whose records are still pending reads nothing more.
    if (profile.status !== MemberStatus.APPROVED || !profile.isActive) return Promise.resolve(null);
    return ctx.services.onboarding.progress.progressOfId(profile.id);
  }
}
