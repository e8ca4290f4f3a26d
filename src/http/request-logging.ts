import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import pinoHttp from "pino-http";
import { callerIdOf, clientRequestIdOf } from "../graphql/context";

/**
 * One JSON line per request: who (the caller's account id once authenticated, the client's
 * address as express reads it behind TRUST_PROXY), what (method and path without the query,
 * which may hold tokens), the status and the time. Not the response headers: they repeat on
 * every line, make a failure line kilobytes long, and add nothing a status does not say.
 *
 * The request id is always the service's own (returned in x-request-id); a client's
 * x-request-id is logged beside it, since a client may send any value, or another's.
 */
export function requestLogging(log: Logger) {
  return pinoHttp({
    logger: log,
    genReqId: (_req, res) => {
      const id = randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    // A line below the logger's level is never written: "silent" skips building it.
    customLogLevel: (_req, res, error) => {
      const level = error || res.statusCode >= 500 ? "error" : "info";
      return log.isLevelEnabled(level) ? level : "silent";
    },
    // Read when the line is written, after the answer: the caller is known by then. Nothing
    // without one (pino-http also asks as the request comes in, and makes a logger of each
    // answer it gets).
    customProps: (req) => {
      const userId = callerIdOf(req);
      return (userId === undefined ? undefined : { userId }) as object;
    },
    // A failed status alone is not an exception: no synthetic error with a stack trace. A
    // thrown error is logged where it is caught (errorResponder, the GraphQL plugin).
    customErrorObject: (_req, res, error, value: Record<string, unknown>) => ({
      res: value.res,
      responseTime: value.responseTime,
      ...(isStatusOnly(error, res) ? {} : { err: { message: error.message } }),
    }),
    serializers: {
      req: (req: {
        id: unknown;
        method: string;
        url: string;
        raw?: IncomingMessage & { ip?: string };
      }) => {
        const raw = req.raw;
        const clientRequestId = raw ? clientRequestIdOf(raw) : null;
        return {
          id: req.id,
          method: req.method,
          url: req.url.split("?")[0],
          ip: raw?.ip ?? raw?.socket.remoteAddress,
          ...(clientRequestId === null ? {} : { clientRequestId }),
        };
      },
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

function isStatusOnly(error: Error, res: ServerResponse): boolean {
  return error.message === `failed with status code ${res.statusCode}`;
}
