import { Args, Authorized, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { created, ok } from "../../graphql/envelopes";
import { Role } from "../users/role";
import {
  AppointOfficeHolderArgs,
  EndOfficeHolderArgs,
  HolderListArgs,
} from "./office-holder.input";
import { OfficeHolderPage, OfficeHolderPayload } from "./office-holder.type";

@Resolver()
export class OfficeHolderResolver {
  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeHolderPayload, {
    description: "Appoint an APPROVED, active member to an office, within maxSlots. Admin only.",
  })
  async appointOfficeHolder(@Args() args: AppointOfficeHolderArgs, @Ctx() ctx: RequestContext) {
    const holder = await ctx.services.officeHolders.appoint(ctx.caller!, args);
    return created(holder, "Member appointed");
  }

  @Authorized(Role.ADMIN)
  @Mutation(() => OfficeHolderPayload, { description: "End a running appointment. Admin only." })
  async endOfficeHolder(@Args() args: EndOfficeHolderArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.officeHolders.end(ctx.caller!, args), "Appointment ended");
  }

  @Authorized()
  @Query(() => OfficeHolderPage, {
    description: "Who holds an office title (id and name only), newest appointment first.",
  })
  async officeHolders(@Args() args: HolderListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.officeHolders.listOfOffice(args);
    return { code: "OK", message: "Office holders", ...page };
  }

  @Authorized()
  @Query(() => OfficeHolderPage, {
    description: "The offices a member record holds or held, newest appointment first.",
  })
  async memberOffices(@Args() args: HolderListArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.officeHolders.listOfMember(args);
    return { code: "OK", message: "Offices of the member", ...page };
  }
}
