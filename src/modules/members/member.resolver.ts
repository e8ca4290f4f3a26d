import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { created, ok } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { Role } from "../users/role";
import { MemberStatus } from "./member.enums";
import {
  ApplyArgs,
  MemberListArgs,
  PendingMemberListArgs,
  UpdateMemberStatusArgs,
} from "./member.input";
import { MemberPage, MemberPayload } from "./member.type";

@Resolver()
export class MemberResolver {
  @Authorized()
  @Mutation(() => MemberPayload, {
    description: "Apply for membership. Needs a verified email; one open application per person.",
  })
  async applyForMembership(@Args() args: ApplyArgs, @Ctx() ctx: RequestContext) {
    return created(await ctx.services.members.apply(ctx.caller!, args), "Application submitted");
  }

  @Authorized()
  @Query(() => MemberPage, { description: "The caller's own applications, newest first." })
  async myMemberships(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.listOwn(ctx.caller!, args);
    return { code: "OK", message: "Your applications", ...page };
  }

  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Member records, newest first. Admin only." })
  async members(@Args() args: MemberListArgs, @Ctx() ctx: RequestContext) {
    return { code: "OK", message: "Member records", ...(await ctx.services.members.list(args)) };
  }

  @Authorized(Role.ADMIN)
  @Query(() => MemberPage, { description: "Applications waiting for review. Admin only." })
  async pendingMembers(@Args() args: PendingMemberListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.members.list({ ...args, status: MemberStatus.PENDING });
    return { code: "OK", message: "Pending applications", ...page };
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Approve, reject or reopen. Admin only." })
  async updateMemberStatus(@Args() args: UpdateMemberStatusArgs, @Ctx() ctx: RequestContext) {
    const member = await ctx.services.members.updateStatus(ctx.caller!, args);
    return ok(member, `Status changed to ${args.status}`);
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Archive a record (isActive false). Admin only." })
  async archiveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.archive(id), "Member record archived");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => MemberPayload, { description: "Bring an archived record back. Admin only." })
  async retrieveMember(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.members.retrieve(id), "Member record retrieved");
  }
}
