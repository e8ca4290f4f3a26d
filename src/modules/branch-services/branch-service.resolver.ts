import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { Role } from "../users/role";
import { CreateBranchServiceArgs, UpdateBranchServiceArgs } from "./branch-service.input";
import { BranchServicePage, BranchServicePayload } from "./branch-service.type";

@Resolver()
export class BranchServiceResolver {
  @Query(() => BranchServicePage, { description: "Branches of service, newest first. Public." })
  async branchServices(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.branchServices.list(args);
    return { code: "OK", message: "Branches of service", ...page };
  }

  @Query(() => BranchServicePayload, { description: "One branch of service. Public." })
  async branchService(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.branchServices.get(id), "Branch of service");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => BranchServicePayload, { description: "Create a branch of service. Admin only." })
  async createBranchService(@Args() args: CreateBranchServiceArgs, @Ctx() ctx: RequestContext) {
    const branch = await ctx.services.branchServices.create(args);
    return created(branch, "Branch of service created");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => BranchServicePayload, { description: "Partial update. Admin only." })
  async updateBranchService(@Args() args: UpdateBranchServiceArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.branchServices.update(args), "Branch of service updated");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, {
    description: "Delete a branch no member record names. Admin only.",
  })
  async deleteBranchService(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.branchServices.delete(id);
    return acknowledged("Branch of service deleted");
  }
}
