import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, type AuditRule } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import {
  SaveBranchServicesArgs,
  SaveChurchAffiliationArgs,
  SaveEducationArgs,
  SaveProfileBannerArgs,
} from "./member-page.input";
import {
  BranchServiceChoicePayload,
  ChurchAffiliationPayload,
  EducationPayload,
  ProfileBannerPayload,
  ProfileBannerSavedPayload,
} from "./member-page.type";

const TAG = "Public profiles";
/** An owner edit of the public page, written down against the record it changed. */
const edit = (action: string): AuditRule => ({
  action,
  targetType: "member",
  target: (_args, result) => (result as { data?: { id?: string } }).data?.id ?? null,
});

/** The owner's edits of the record behind the public page. */
@Resolver()
export class MemberPageResolver {
  @Rest("GET", "/members/current/profile-banner", { tag: TAG })
  @NotAudited("the caller's own page")
  @Authorized()
  @Query(() => ProfileBannerPayload, {
    description: "The banner of the caller's public page; data is null without an application.",
  })
  async currentProfileBanner(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.memberPage.banner(caller), "Your banner");
  }

  @Rest("PUT", "/members/current/profile-banner", {
    tag: TAG,
    errors: [404, 409],
    example: { profileBannerUrl: EXAMPLE_FILE_ID, profileBannerPositionY: 40 },
  })
  @Audit(edit("member.profileBanner"))
  @Authorized()
  @Mutation(() => ProfileBannerSavedPayload, {
    description:
      "Set the banner (an image of the caller's; null removes it) and where it sits. APPROVED records only.",
  })
  async saveProfileBanner(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveProfileBannerArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.memberPage.saveBanner(caller, args), "Banner saved");
  }

  @Rest("PUT", "/members/current/church-affiliation", { tag: TAG, errors: [404, 409] })
  @Audit(edit("member.churchAffiliation"))
  @Authorized()
  @Mutation(() => ChurchAffiliationPayload, {
    description: "Change the church, its address and the position held. APPROVED records only.",
  })
  async saveChurchAffiliation(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveChurchAffiliationArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const saved = await ctx.services.memberPage.saveChurchAffiliation(caller, args);
    return ok(saved, "Church affiliation saved");
  }

  @Rest("PUT", "/members/current/education", { tag: TAG, errors: [404, 409] })
  @Audit(edit("member.education"))
  @Authorized()
  @Mutation(() => EducationPayload, {
    description: 'Change the schools; entries are stored joined by " | ". APPROVED records only.',
  })
  async saveEducation(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveEducationArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.memberPage.saveEducation(caller, args), "Education saved");
  }

  @Rest("PUT", "/members/current/branch-services", {
    tag: TAG,
    errors: [404, 409],
    example: { preferredBranchOther: "Hospital Chaplaincy, Prison ministry" },
  })
  @Audit(edit("member.branchServices"))
  @Authorized()
  @Mutation(() => BranchServiceChoicePayload, {
    description:
      'The branches of service, as names joined by ", ": those matching a branch become preferredBranches, the rest stay as other. APPROVED records only.',
  })
  async saveBranchServices(
    @CurrentCaller() caller: Caller,
    @Args() args: SaveBranchServicesArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const saved = await ctx.services.memberPage.saveBranchServices(caller, args);
    return ok(saved, "Branches of service saved");
  }
}
