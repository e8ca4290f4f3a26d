import type { GraphQLField } from "graphql";
// The one place type-graphql's own @Authorized is used: wrapped below.
// eslint-disable-next-line no-restricted-imports
import { Authorized as Gate, Extensions, type AuthCheckerFn } from "type-graphql";
import { ForbiddenError, UnauthenticatedError } from "../errors/app-errors";
import type { Role } from "../modules/users/role";
import type { RequestContext } from "./context";

export type Access = "public" | "signed-in" | Role[];

/**
 * type-graphql's `@Authorized` (the gate the authChecker applies as the operation runs), with
 * the same roles put on the field's extensions, where the REST gate, the mock and OpenAPI read
 * them off the built schema. Resolvers use this one; eslint forbids type-graphql's directly.
 */
export function Authorized(...roles: Role[]): MethodDecorator {
  const access: Access = roles.length === 0 ? "signed-in" : roles;
  const gate = Gate(roles);
  const mark = Extensions({ access });
  return (prototype, key, descriptor) => {
    gate(prototype, key, descriptor);
    mark(prototype, key, descriptor);
  };
}

/** Who may run a root field of the built schema: what its `@Authorized` said. */
export function accessOf(field: GraphQLField<unknown, unknown>): Access {
  return (field.extensions.access as Access | undefined) ?? "public";
}

/** 401 without a valid token, 403 without the role. Used by the authChecker and the REST gate. */
export function assertAccess(context: RequestContext, roles: readonly Role[]): void {
  const caller = context.caller;
  if (!caller) throw context.authError ?? new UnauthenticatedError();
  if (roles.length > 0 && !roles.includes(caller.role)) throw new ForbiddenError();
}

/** The coarse gate: a caller for any @Authorized, the role for @Authorized(Role.X). */
export const authChecker: AuthCheckerFn<RequestContext, Role> = ({ context }, roles) => {
  assertAccess(context, roles);
  return true;
};

/** The same check from a field's access, for the gates that run before the operation. */
export function assertFieldAccess(
  context: RequestContext,
  field: GraphQLField<unknown, unknown>,
): void {
  const access = accessOf(field);
  if (access !== "public") assertAccess(context, access === "signed-in" ? [] : access);
}
