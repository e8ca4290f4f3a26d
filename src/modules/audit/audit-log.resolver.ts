import { Args, Authorized, Ctx, Query, Resolver } from "type-graphql";
import type { RequestContext } from "../../graphql/context";
import { Role } from "../users/role";
import { AuditLogListArgs } from "./audit-log.input";
import { AuditLogPage } from "./audit-log.type";

@Resolver()
export class AuditLogResolver {
  @Authorized(Role.ADMIN)
  @Query(() => AuditLogPage, {
    description:
      "Administrative acts, newest first, filtered by actor, target, action and time. Admin only.",
  })
  async auditLogs(@Args() args: AuditLogListArgs, @Ctx() ctx: RequestContext) {
    return { code: "OK", message: "Audit log", ...(await ctx.services.audit.list(args)) };
  }
}
