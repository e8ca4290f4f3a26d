import type { AuthCheckerFn } from "type-graphql";
import { ForbiddenError, UnauthenticatedError } from "../errors/app-errors";
import type { Role } from "../modules/users/role";
import type { RequestContext } from "./context";

/** The coarse gate: a caller for any @Authorized, the role for @Authorized(Role.X). */
export const authChecker: AuthCheckerFn<RequestContext, Role> = ({ context }, roles) => {
  const caller = context.caller;
  if (!caller) throw context.authError ?? new UnauthenticatedError();
  if (roles.length > 0 && !roles.includes(caller.role)) throw new ForbiddenError();
  return true;
};
