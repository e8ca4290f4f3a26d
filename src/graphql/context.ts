import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { AppError } from "../errors/app-errors";
import type { Services } from "../services";
import type { Caller } from "../modules/auth/caller";
import type { ClientInfo } from "../modules/auth/session.service";

/** One context for /graphql and /api/v1, so both mounts see the same caller and checks. */
export interface RequestContext {
  /** Made by the service for this request (src/http/request-logging.ts). */
  requestId: string;
  /** The client's x-request-id, when well formed: logged and audited beside ours, never as it. */
  clientRequestId: string | null;
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
/** The authenticated caller's id, for the request's log line (read once the answer is sent). */
const CALLER_ID = Symbol("callerId");

type RequestWithId = IncomingMessage & {
  id?: unknown;
  log?: Logger;
  ip?: string;
  [CONTEXT]?: Promise<RequestContext>;
  [CALLER_ID]?: string;
};

/** The id of the account a request was authenticated as, if any. */
export function callerIdOf(req: IncomingMessage): string | undefined {
  return (req as RequestWithId)[CALLER_ID];
}

/** A client's x-request-id worth keeping: short, and of characters safe in a log line. */
export function clientRequestIdOf(req: IncomingMessage): string | null {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : null;
}

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
    clientRequestId: clientRequestIdOf(req),
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
    req[CALLER_ID] = context.caller.id;
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
