import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { AppError } from "../errors/app-errors";
import type { Services } from "../services";
import type { Role } from "../modules/users/role";
import type { UserRecord } from "../modules/users/user.model";
import type { ClientInfo } from "../modules/auth/session.service";

export interface Caller {
  id: string;
  role: Role;
  sessionId: string;
  user: UserRecord;
  /** When this session last proved the password (recent sign-in); null: never. */
  authenticatedAt: Date | null;
}

/** One context for /graphql and /api/v1, so both mounts see the same caller and checks. */
export interface RequestContext {
  requestId: string;
  log: Logger;
  services: Services;
  caller?: Caller;
  /** Why a presented token was refused; reported only if the operation needs a caller. */
  authError?: AppError;
  /** Where the request comes from (the proxy-aware address when TRUST_PROXY says so). */
  client: ClientInfo;
  /** Mark cookies Secure (production). */
  secureCookies: boolean;
  req: IncomingMessage;
  res?: ServerResponse;
}

export interface ContextOptions {
  secureCookies: boolean;
}

/**
 * Where a request keeps its context. Not a WeakMap keyed by the request: V8's young-generation
 * collector treats WeakMap values as strong, and the context refers back to its request, so
 * every request would survive into the old generation and wait for a full collection.
 */
const CONTEXT = Symbol("requestContext");

type RequestWithId = IncomingMessage & {
  id?: unknown;
  log?: Logger;
  ip?: string;
  [CONTEXT]?: Promise<RequestContext>;
};

/** Built once per request (the REST gate and Sofa both ask for it). */
export function createContextBuilder(
  services: Services,
  fallbackLog: Logger,
  options: ContextOptions,
) {
  return function buildContext(req: RequestWithId, res?: ServerResponse): Promise<RequestContext> {
    req[CONTEXT] ??= createContext(services, fallbackLog, options, req, res);
    return req[CONTEXT];
  };
}

async function createContext(
  services: Services,
  fallbackLog: Logger,
  options: ContextOptions,
  req: RequestWithId,
  res?: ServerResponse,
): Promise<RequestContext> {
  const context: RequestContext = {
    requestId: typeof req.id === "string" ? req.id : "",
    log: req.log ?? fallbackLog,
    services,
    client: clientOf(req),
    secureCookies: options.secureCookies,
    req,
    res,
  };
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) return context;
  try {
    context.caller = await services.auth.authenticate(token);
  } catch (error) {
    context.authError = error as AppError;
  }
  return context;
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : "";
}

/** express sets `ip` (honouring "trust proxy"); a bare node request only has its socket. */
function clientOf(req: RequestWithId): ClientInfo {
  const userAgent = req.headers["user-agent"];
  return {
    ip: req.ip ?? req.socket.remoteAddress ?? null,
    userAgent: typeof userAgent === "string" ? userAgent.slice(0, 500) : null,
  };
}
