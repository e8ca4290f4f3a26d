import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok, paged } from "../../graphql/envelopes";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { Role } from "../users/role";
import { CreateOfficeArgs, OfficeListArgs, UpdateOfficeArgs } from "./office.input";
import { OfficeTitlePage, OfficeTitlePayload } from "./office.type";

@Resolver()
export class OfficeResolver {
  @Rest("GET", "/offices", { tag: "Office titles" })
  @NotAudited("the organisation's office titles")
  @Authorized()
  @Query(() => OfficeTitlePage, { description: "Office titles; newest first unless sorted." })
  async offices(@Args() args: OfficeListArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.offices.list(args), "Office titles");
  }

  @Rest("GET", "/offices/:id", { tag: "Office titles" })
  @NotAudited("the organisation's office titles")
  @Authorized()
  @Query(() => OfficeTitlePayload, { description: "One office title." })
  async office(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.offices.get(id), "Office title");
  }

  @Rest("POST", "/offices/create", {
    tag: "Office titles",
    status: 201,
    errors: [409],
    example: {
      name: "City Chaplain of Cebu City",
      level: "CITY_CHAPLAIN",
      description: "Leads the chaplains of Cebu City",
      maxSlots: 1,
    },
  })
  @Audit({ action: "office.create", targetType: "office", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeTitlePayload, { description: "Create an office title. Admin only." })
  async createOffice(@Args() args: CreateOfficeArgs, @Ctx() ctx: RequestContext) {
    return created(await ctx.services.offices.create(args), "Office title created");
  }

  @Rest("PUT", "/offices/:id", {
    tag: "Office titles",
    errors: [409],
    summary: "Update an office title",
    example: { description: "Leads the chaplains of Cebu City and its barangays", maxSlots: 2 },
  })
  @Audit({ action: "office.update", targetType: "office", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeTitlePayload, { description: "Partial update. Admin only." })
  async updateOffice(@Args() args: UpdateOfficeArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.offices.update(args), "Office title updated");
  }

  @Rest("DELETE", "/offices/:id", { tag: "Office titles", status: 204, errors: [409] })
  @Audit({ action: "office.delete", targetType: "office", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, {
    description: "Delete an office title nobody holds. Admin only.",
  })
  async deleteOffice(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.offices.delete(id);
    return acknowledged("Office title deleted");
  }
}
