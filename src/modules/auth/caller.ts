import { createParameterDecorator } from "type-graphql";
import { UnauthenticatedError } from "../../errors/app-errors";
import type { Role } from "../users/role";
import type { UserRecord } from "../users/user.model";

/** The account a request was authenticated as. */
export interface Caller {
  id: string;
  role: Role;
  sessionId: string;
  user: UserRecord;
  /** When this session last proved the password (recent sign-in); null: never. */
  authenticatedAt: Date | null;
}

/** What the decorator reads of a request's context (kept narrow: no import of the context). */
interface WithCaller {
  caller?: Caller;
  authError?: Error;
}

/**
 * The resolver's `caller` parameter. `@Authorized` lets no caller-less request through; this
 * still refuses one (401, or why its token was refused) rather than hand a resolver undefined.
 */
export function CurrentCaller() {
  return createParameterDecorator<WithCaller>(({ context }) => {
    if (!context.caller) throw context.authError ?? new UnauthenticatedError();
    return context.caller;
  });
}
