import { getMetadataStorage } from "type-graphql";
import { ForbiddenError, UnauthenticatedError } from "../errors/app-errors";
import type { Role } from "../modules/users/role";
import type { RequestContext } from "./context";

export type Access = "public" | "signed-in" | Role[];

/** Who may run a root field, read from the resolver's @Authorized decorator (the one source). */
export function accessOf(fieldName: string): Access {
  const entry = getMetadataStorage().authorizedFields.find((meta) => meta.fieldName === fieldName);
  if (!entry) return "public";
  return entry.roles.length === 0 ? "signed-in" : (entry.roles as Role[]);
}

/** 401 without a valid token, 403 without the role. Used by the authChecker and the REST gate. */
export function assertAccess(context: RequestContext, roles: readonly Role[]): void {
  const caller = context.caller;
  if (!caller) throw context.authError ?? new UnauthenticatedError();
  if (roles.length > 0 && !roles.includes(caller.role)) throw new ForbiddenError();
}
