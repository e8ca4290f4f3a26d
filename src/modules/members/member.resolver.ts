import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { created, ok } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { Role } from "../users/role";
import { PublicMemberPayload } from "./member-public.type";
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
  @Authorized()
  @Mutation(() => ApplicationPayload, {
    description: "Apply for membership. Needs a verified email; one open application per person.",
  })
  async applyForMembership(
    @Args() args: ApplyArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ApplicationPayload> {
    const member = await ctx.services.members.applications.apply(ctx.caller!, args);
    return {
      ...created(member, "Application submitted"),
      // Applying signs no one up: the account exists and is verified (apply refuses otherwise).
      meta: { createdUser: false, isEmailVerified: true },
    };
  }

  @Authorized()
  @Query(() => MemberPage, { description: "The caller's own applications, newest first." })
  async myMemberships(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.reads.listOwn(ctx.caller!, args);
    return { code: "OK", message: "Your applications", ...page };
  }

  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Member records, newest first. Admin only." })
  async members(@Args() args: MemberListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.reads.list(args);
    return { code: "OK", message: "Member records", ...page };
  }

  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Applications waiting for review. Admin only." })
  async pendingMembers(@Args() args: PendingMemberListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.reads.list({ ...args, status: MemberStatus.PENDING });
    return { code: "OK", message: "Pending applications", ...page };
  }

  @Query(() => PublicMemberPayload, {
    description:
      "Public credential check of an approved member; every other id answers the same 404. No token needed.",
  })
  async publicMember(
    // Any text, not a UUID: a malformed id must get the same 404 as an unknown one.
    @Arg("id", () => ID) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.members.reads.publicMember(id), "Approved member");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Approve, reject or reopen. Admin only." })
  async updateMemberStatus(@Args() args: UpdateMemberStatusArgs, @Ctx() ctx: RequestContext) {
    const member = await ctx.services.members.reviews.updateStatus(ctx.caller!, args);
    return ok(member, `Status changed to ${args.status}`);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Archive a record (isActive false). Admin only." })
  async archiveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.reviews.archive(id), "Member record archived");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Bring an archived record back. Admin only." })
  async retrieveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.reviews.retrieve(id), "Member record retrieved");
  }
}
