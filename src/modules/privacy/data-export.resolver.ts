import { UUIDResolver } from "graphql-scalars";
import { Arg, Ctx, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { CurrentCaller, type Caller } from "../auth/caller";
import { NotAudited } from "../audit/audited-operations";
import { entryFor } from "../audit/audit-log.service";
import { Role } from "../users/role";
import { DataExportPayload } from "./data-export.type";

@Resolver()
export class DataExportResolver {
  @Rest("GET", "/users/current/export", { tag: "Users" })
  @NotAudited("the caller's own data")
  @Authorized()
  @Query(() => DataExportPayload, {
    description: "Everything the service holds about the caller, as one document.",
  })
  async currentUserExport(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.dataExport.exportOf(caller.id), "Your data");
  }

  @Rest("GET", "/users/:userId/export", { tag: "Users" })
  @NotAudited("audited in its resolver, with the account it exports")
  @Authorized(Role.ADMIN)
  @Query(() => DataExportPayload, {
    description:
      "Everything the service holds about an account, for its owner's request. Admin only.",
  })
  async userExport(@Arg("userId", () => UUIDResolver) userId: string, @Ctx() ctx: RequestContext) {
    const data = await ctx.services.dataExport.exportOf(userId);
    // An administrator reading one person's records (their applications included) is logged.
    await ctx.services.audit.record(
      entryFor(ctx, { action: "user.export", targetType: "user", targetId: userId }),
    );
    return ok(data, "The account's data");
  }
}
