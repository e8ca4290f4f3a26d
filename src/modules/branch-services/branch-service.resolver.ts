import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok, paged } from "../../graphql/envelopes";
import { PageArgs } from "../../graphql/paging";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { Role } from "../users/role";
import { CreateBranchServiceArgs, UpdateBranchServiceArgs } from "./branch-service.input";
import { BranchServicePage, BranchServicePayload } from "./branch-service.type";

@Resolver()
export class BranchServiceResolver {
  @Rest("GET", "/branch-service", {
    tag: "Branch services",
    publicCache: { sources: ["branch_services"] },
  })
  @NotAudited("the organisation's branches of service")
  @Query(() => BranchServicePage, { description: "Branches of service, newest first. Public." })
  async branchServices(@Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.branchServices.list(args);
    return paged(page, "Branches of service");
  }

  @Rest("GET", "/branch-service/:id", {
    tag: "Branch services",
    publicCache: { sources: ["branch_services"] },
  })
  @NotAudited("the organisation's branches of service")
  @Query(() => BranchServicePayload, { description: "One branch of service. Public." })
  async branchService(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.branchServices.get(id), "Branch of service");
  }

  @Rest("POST", "/branch-service/create", { tag: "Branch services", status: 201, errors: [409] })
  @Audit({ action: "branch.create", targetType: "branchService", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => BranchServicePayload, { description: "Create a branch of service. Admin only." })
  async createBranchService(@Args() args: CreateBranchServiceArgs, @Ctx() ctx: RequestContext) {
    const branch = await ctx.services.branchServices.create(args);
    return created(branch, "Branch of service created");
  }

  @Rest("PUT", "/branch-service/:id", {
    tag: "Branch services",
    errors: [409],
    summary: "Update a branch of service",
    example: { description: "Chaplaincy service to the soldiers and families of the Army" },
  })
  @Audit({ action: "branch.update", targetType: "branchService", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => BranchServicePayload, { description: "Partial update. Admin only." })
  async updateBranchService(@Args() args: UpdateBranchServiceArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.branchServices.update(args), "Branch of service updated");
  }

  @Rest("DELETE", "/branch-service/:id", { tag: "Branch services", status: 204, errors: [409] })
  @Audit({ action: "branch.delete", targetType: "branchService", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, {
    description: "Delete a branch no member record names. Admin only.",
  })
  async deleteBranchService(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.branchServices.delete(id);
    return acknowledged("Branch of service deleted");
  }
}
