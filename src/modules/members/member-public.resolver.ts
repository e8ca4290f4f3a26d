import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Audit, NotAudited, byArg } from "../audit/audited-operations";
import { Role } from "../users/role";
import { DirectoryLocationsPayload } from "./member-directory.type";
import { PageWindowArgs } from "../../graphql/paging";
import { PublicProfileArgs, SetMemberTypeArgs } from "./member-public.input";
import {
  MemberTypeAssignmentPayload,
  PublicMemberPayload,
  PublicProfileChoicePayload,
  ServiceChaplainPage,
} from "./member-public.type";

/** The organisation's public pages over member records, and the choices behind them (§12). */
@Resolver()
export class MemberPublicResolver {
  @Rest("GET", "/members/public/directory-locations", {
    tag: "Members",
    publicCache: { sources: ["members"] },
  })
  @NotAudited("counts by place: no one member's data")
  @Query(() => DirectoryLocationsPayload, {
    description:
      "Approved members counted by region, province, municipality and barangay, with the headquarters. No token needed.",
  })
  async directoryLocations(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.memberPublic.directory(), "Member directory");
  }

  @Rest("GET", "/members/public/service-chaplains", {
    tag: "Members",
    publicCache: { sources: ["members", "branch_services", "member_requirements", "files"] },
  })
  @NotAudited("what listed members chose to make public")
  @Query(() => ServiceChaplainPage, {
    description: "Certified specialist chaplains who chose to be listed, by name. No token needed.",
  })
  async serviceChaplains(@Args() args: PageWindowArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.memberPublic.serviceChaplains(args.page, args.limit);
    return paged(page, "Service chaplains");
  }

  @Rest("GET", "/members/public/:id", {
    tag: "Members",
    errors: [404],
    publicCache: {
      sources: [
        "members",
        "branch_services",
        "offices",
        "office_holders",
        "member_requirements",
        "files",
        "users",
        "member_certificates",
        "member_public_records",
        "member_follows",
        "membership_terms",
      ],
    },
  })
  @NotAudited("a public credential check: only what the member chose to show")
  @Query(() => PublicMemberPayload, {
    description:
      "Public page of an approved member, by record id or uniqueId, as the organisation's site renders it; every other key answers the same 404. No token needed.",
  })
  async publicMember(
    // Any text, not a UUID: a uniqueId is accepted, and a malformed key gets the same 404.
    @Arg("id", () => ID, { description: "The record's id or the member's uniqueId" }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.memberPublic.publicMember(id), "Approved member");
  }

  @Rest("PUT", "/members/current/public-profile", { tag: "Members", errors: [404] })
  @Audit({
    action: "member.publicProfile",
    targetType: "member",
    target: (_args, result) => (result as { data?: { memberId?: string } }).data?.memberId ?? null,
  })
  @Authorized()
  @Mutation(() => PublicProfileChoicePayload, {
    description:
      "What the public page shows of the caller's current record; a choice left out is off.",
  })
  async setPublicProfile(
    @CurrentCaller() caller: Caller,
    @Args() args: PublicProfileArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.memberPublic.setPublicProfile(caller, args), "Choice saved");
  }

  @Rest("PATCH", "/members/:id/member-type", { tag: "Members", errors: [404] })
  @Audit({ action: "member.memberType", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MemberTypeAssignmentPayload, {
    description: "Set a member's type and badge number. Admin only.",
  })
  async setMemberType(@Args() args: SetMemberTypeArgs, @Ctx() ctx: RequestContext) {
    const assigned = await ctx.services.memberPublic.setMemberType(
      args.id,
      args.memberType,
      args.badgeNumber,
    );
    return ok(assigned, "Member type set");
  }
}
