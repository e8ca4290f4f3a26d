import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok } from "../../graphql/envelopes";
import { Role } from "../users/role";
import { CreateOfficeArgs, OfficeListArgs, UpdateOfficeArgs } from "./office.input";
import { OfficeTitlePage, OfficeTitlePayload } from "./office.type";

@Resolver()
export class OfficeResolver {
  @Authorized()
  @Query(() => OfficeTitlePage, { description: "Office titles; newest first unless sorted." })
  async offices(@Args() args: OfficeListArgs, @Ctx() ctx: RequestContext) {
    return { code: "OK", message: "Office titles", ...(await ctx.services.offices.list(args)) };
  }

  @Authorized()
  @Query(() => OfficeTitlePayload, { description: "One office title." })
  async office(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.offices.get(id), "Office title");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeTitlePayload, { description: "Create an office title. Admin only." })
  async createOffice(@Args() args: CreateOfficeArgs, @Ctx() ctx: RequestContext) {
    return created(await ctx.services.offices.create(args), "Office title created");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeTitlePayload, { description: "Partial update. Admin only." })
  async updateOffice(@Args() args: UpdateOfficeArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.offices.update(args), "Office title updated");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, {
    description: "Delete an office title nobody holds. Admin only.",
  })
  async deleteOffice(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.offices.delete(id);
    return acknowledged("Office title deleted");
  }
}
