import { paged } from "../../graphql/envelopes";
import { Args, Ctx, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import { Rest } from "../../graphql/rest-route";
import type { RequestContext } from "../../graphql/context";
import { Role } from "../users/role";
import { NotAudited } from "./audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { ActivityArgs, ActivityList } from "./activity.type";
import { AuditLogListArgs } from "./audit-log.input";
import { AuditLogPage } from "./audit-log.type";

@Resolver()
export class AuditLogResolver {
  @Rest("GET", "/activity-logs/current", { tag: "Audit" })
  @NotAudited("the caller's own acts")
  @Authorized()
  @Query(() => ActivityList, { description: "The caller's own audited acts, newest first." })
  async myActivity(
    @CurrentCaller() caller: Caller,
    @Args() args: ActivityArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ActivityList> {
    const data = await ctx.services.audit.activityOf(caller.id, args.limit);
    return { code: "OK", message: "Your activity", data };
  }

  @Rest("GET", "/audit-logs", { tag: "Audit" })
  @NotAudited("entries hold ids only, no personal data")
  @Authorized(Role.ADMIN)
  @Query(() => AuditLogPage, {
    description:
      "Administrative acts, newest first, filtered by actor, target, action and time. Admin only.",
  })
  async auditLogs(@Args() args: AuditLogListArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.audit.list(args), "Audit log");
  }
}
