import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { created, ok, paged } from "../../graphql/envelopes";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { Role } from "../users/role";
import {
  AppointOfficeHolderArgs,
  EndOfficeHolderArgs,
  HolderListArgs,
} from "./office-holder.input";
import { OfficeHolderPage, OfficeHolderPayload } from "./office-holder.type";

@Resolver()
export class OfficeHolderResolver {
  @Rest("POST", "/offices/:id/holders", { tag: "Office holders", status: 201, errors: [409] })
  @Audit({ action: "office.appoint", targetType: "officeHolder", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeHolderPayload, {
    description: "Appoint an APPROVED, active member to an office, within maxSlots. Admin only.",
  })
  async appointOfficeHolder(
    @CurrentCaller() caller: Caller,
    @Args() args: AppointOfficeHolderArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const holder = await ctx.services.officeHolders.appoint(caller, args);
    return created(holder, "Member appointed");
  }

  @Rest("PATCH", "/offices/:id/holders/:holderId/end", { tag: "Office holders", errors: [409] })
  @Audit({ action: "office.end", targetType: "officeHolder", target: byArg("holderId") })
  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeHolderPayload, { description: "End a running appointment. Admin only." })
  async endOfficeHolder(
    @CurrentCaller() caller: Caller,
    @Args() args: EndOfficeHolderArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.officeHolders.end(caller, args), "Appointment ended");
  }

  @Rest("GET", "/offices/:id/holders", { tag: "Office holders" })
  @NotAudited("who holds an office, shown to every member")
  @Authorized()
  @Query(() => OfficeHolderPage, {
    description: "Who holds an office title (id and name only), newest appointment first.",
  })
  async officeHolders(@Args() args: HolderListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.officeHolders.listOfOffice(args);
    return paged(page, "Office holders");
  }

  @Rest("GET", "/members/:id/offices", { tag: "Office holders" })
  @NotAudited("who holds an office, shown to every member")
  @Authorized()
  @Query(() => OfficeHolderPage, {
    description: "The offices a member record holds or held, newest appointment first.",
  })
  async memberOffices(@Args() args: HolderListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.officeHolders.listOfMember(args);
    return paged(page, "Offices of the member");
  }
}
