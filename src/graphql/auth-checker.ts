import type { AuthCheckerFn } from "type-graphql";
import type { Role } from "../modules/users/role";
import { assertAccess } from "./access";
import type { RequestContext } from "./context";

/** The coarse gate: a caller for any @Authorized, the role for @Authorized(Role.X). */
export const authChecker: AuthCheckerFn<RequestContext, Role> = ({ context }, roles) => {
  assertAccess(context, roles);
  return true;
};
