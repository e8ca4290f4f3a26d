import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { created, ok, paged } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { applicationWords } from "../../mail/status-words";
import { CurrentCaller, type Caller } from "../auth/caller";
import {
  Audit,
  NotAudited,
  byArg,
  createdId,
  noTarget,
  listOrSearch,
} from "../audit/audited-operations";
import { Role } from "../users/role";
import { MemberStatus } from "./member.enums";
import {
  ApplyArgs,
  MemberListArgs,
  PendingMemberListArgs,
  UpdateMemberStatusArgs,
} from "./member.input";
import { ApplicationPayload, MemberPage, MemberPayload } from "./member.type";

@Resolver()
export class MemberResolver {
  @Rest("POST", "/members/apply", {
    tag: "Members",
    status: 201,
    errors: [403, 409],
    errorCodes: ["EMAIL_NOT_VERIFIED"],
  })
  @Audit({ action: "member.apply", targetType: "member", target: createdId })
  @Authorized()
  @Mutation(() => ApplicationPayload, {
    description: "Apply for membership. Needs a verified email; one open application per person.",
  })
  async applyForMembership(
    @CurrentCaller() caller: Caller,
    @Args() args: ApplyArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ApplicationPayload> {
    const member = await ctx.services.members.applications.apply(caller, args);
    return {
      ...created(member, "Application submitted"),
      // Applying signs no one up: the account exists and is verified (apply refuses otherwise).
      meta: { createdUser: false, isEmailVerified: true },
    };
  }

  @Rest("GET", "/members/me", { tag: "Members" })
  @NotAudited("the caller's own applications")
  @Authorized()
  @Query(() => MemberPage, { description: "The caller's own applications, newest first." })
  async myMemberships(
    @CurrentCaller() caller: Caller,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.members.reads.listOwn(caller, args);
    return paged(page, "Your applications");
  }

  @Rest("GET", "/members", { tag: "Members" })
  @Audit({
    action: listOrSearch("member.list", "member.search"),
    targetType: "member",
    target: noTarget,
  })
  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Member records, newest first. Admin only." })
  async members(@Args() args: MemberListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.reads.list(args);
    return paged(page, "Member records");
  }

  @Rest("GET", "/members/pending", { tag: "Members" })
  @Audit({
    action: listOrSearch("member.pending", "member.pendingSearch"),
    targetType: "member",
    target: noTarget,
  })
  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Applications waiting for review. Admin only." })
  async pendingMembers(@Args() args: PendingMemberListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.reads.list({ ...args, status: MemberStatus.PENDING });
    return paged(page, "Pending applications");
  }

  @Rest("PATCH", "/members/:id/status", { tag: "Members", errors: [409] })
  @Audit({ action: "member.status", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Approve, reject or reopen. Admin only." })
  async updateMemberStatus(
    @CurrentCaller() caller: Caller,
    @Args() args: UpdateMemberStatusArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const member = await ctx.services.members.reviews.updateStatus(caller, args);
    return ok(member, `The application ${applicationWords(args.status)}`);
  }

  @Rest("PATCH", "/members/:id/archive", { tag: "Members", errors: [409] })
  @Audit({ action: "member.archive", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Archive a record (isActive false). Admin only." })
  async archiveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.reviews.archive(id), "Member record archived");
  }

  @Rest("PATCH", "/members/:id/retrieve", { tag: "Members", errors: [409] })
  @Audit({ action: "member.retrieve", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Bring an archived record back. Admin only." })
  async retrieveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.reviews.retrieve(id), "Member record retrieved");
  }
}
