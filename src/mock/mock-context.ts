import type { Request, Response } from "express";
import type { Logger } from "pino";
import { clientRequestIdOf, type RequestContext } from "../graphql/context";
import type { Caller } from "../modules/auth/caller";
import { Role } from "../modules/users/role";
import type { UserRecord } from "../modules/users/user.model";
import type { Services } from "../services";

/**
 * The mock's caller: any bearer token signs the request in as an administrator (the mock has
 * no accounts to check it against), no token leaves it anonymous, so a client meets the same
 * 401 on a protected path as on the service. The mocked resolvers never reach `services`.
 */
export function mockContextBuilder(log: Logger) {
  const contexts = new WeakMap<Request, RequestContext>();
  return (req: Request, res: Response): Promise<RequestContext> => {
    let context = contexts.get(req);
    if (!context) {
      context = {
        requestId: typeof req.id === "string" ? req.id : "",
        clientRequestId: clientRequestIdOf(req),
        log,
        services: undefined as unknown as Services,
        client: { ip: req.ip ?? null, userAgent: req.get("user-agent") ?? null },
        secureCookies: false,
        req,
        res,
        caller: /^Bearer \S+/i.test(req.get("authorization") ?? "")
          ? { ...MOCK_ADMIN, authenticatedAt: new Date() }
          : undefined,
      };
      contexts.set(req, context);
    }
    return Promise.resolve(context);
  };
}

/** Every bearer signs in as this administrator, just now (so recent sign-in holds). */
const MOCK_ADMIN: Omit<Caller, "authenticatedAt"> = {
  id: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b",
  role: Role.ADMIN,
  sessionId: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5c",
  user: {
    _id: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b",
    name: "Maria Santos",
    email: "admin@example.org",
    role: Role.ADMIN,
    isEmailVerified: true,
    mfaEnabled: false,
  } as UserRecord,
};
