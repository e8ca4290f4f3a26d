import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { OrganisationSettingsArgs, OrganisationSettingsPayload } from "./organisation.type";

@Resolver()
export class OrganisationResolver {
  @Rest("GET", "/settings/organisation", { tag: "Settings" })
  @NotAudited("the organisation's own identity: no one's personal data")
  @Authorized(Role.ADMIN)
  @Query(() => OrganisationSettingsPayload, {
    description: "The organisation's name, contacts, seal and signatory. Admin only.",
  })
  async organisationSettings(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.organisation.settings(), "Organisation settings");
  }

  @Rest("PUT", "/settings/organisation", {
    tag: "Settings",
    example: {
      name: "Pearl of the Orient International Auxiliary Chaplain Values Educators Inc.",
      shortName: "POIAVCE",
      address: "Quezon City, Metro Manila",
      email: "office@example.org",
      phone: "+63 2 8123 4567",
      website: "https://www.example.org",
      sealFileId: EXAMPLE_FILE_ID,
      signatoryName: "Rev. Juan Dela Cruz",
      signatoryTitle: "President",
    },
  })
  @Audit({ action: "settings.organisation", targetType: "settings", target: noTarget })
  @Authorized(Role.ADMIN)
  @Mutation(() => OrganisationSettingsPayload, {
    description:
      "Replace the organisation's settings; credentials rendered from now on print them (those already issued keep theirs). Admin only.",
  })
  async updateOrganisationSettings(
    @CurrentCaller() caller: Caller,
    @Args() args: OrganisationSettingsArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.organisation.update(caller, args), "Organisation settings saved");
  }
}
