import { UUIDResolver } from "graphql-scalars";
import { Arg, Authorized, Ctx, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { entryFor } from "../audit/audit-log.service";
import { Role } from "../users/role";
import { DataExportPayload } from "./data-export.type";

@Resolver()
export class DataExportResolver {
  @Authorized()
  @Query(() => DataExportPayload, {
    description: "Everything the service holds about the caller, as one document.",
  })
  async currentUserExport(@Ctx() ctx: RequestContext) {
    return ok(await ctx.services.dataExport.exportOf(ctx.caller!.id), "Your data");
  }

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
