import cors from "cors";
import type { Express, RequestHandler } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import type { Config } from "../config";
import type { Services } from "../services";
import { CorsOrigins } from "./cors-origins";
import { noStore } from "./no-store";
import { requestLogging } from "./request-logging";
import { API_BASE } from "./rest/rest-api";

/**
 * What every request passes through before its route: request id and log, security
 * headers, no-store, CORS and the per-client rate limit. The benchmark's hand-written floor
 * passes its requests through the same shell, so it differs from the service only by Sofa and
 * GraphQL.
 */
export function useRequestShell(
  app: Express,
  config: Config,
  services: Services,
  log: Logger,
): void {
  app.disable("x-powered-by");
  // Express would hash every body it sends for a weak ETag, mostly POST /graphql answers
  // (member pages among them) that no client can revalidate; the REST paths have none.
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy);
  app.use(requestLogging(log));
  app.use(
    helmet({
      // Only where clients come over https: over plain HTTP by hostname, the browser would
      // fetch the explorers' own scripts over https and show a blank page.
      contentSecurityPolicy: {
        directives: { upgradeInsecureRequests: config.servedOverTls ? [] : null },
      },
    }),
  );
  app.use(noStore);
  // Browsers may call from CORS_ORIGINS (outside production APP_URL's origin too), else
  // same-origin only; a refused origin is logged once with the setting that admits it.
  const origins = new CorsOrigins(config, log);
  app.use(
    cors((req, callback) => {
      origins.check(req);
      callback(null, {
        origin: origins.list,
        credentials: true,
        // x-ut-range-start: the site's upload client reads it from HEAD on an upload link.
        exposedHeaders: ["x-request-id", "retry-after", "x-ut-range-start"],
      });
    }),
  );
  app.use(requestRateLimit(services));
}

/**
 * Every client IP gets RATE_LIMIT_PER_MINUTE requests across both mounts. The
 * health probe is exempt so a load balancer never sees an instance as down for being busy.
 */
function requestRateLimit(services: Services): RequestHandler {
  return async (req, _res, next) => {
    if (req.path !== `${API_BASE}/health`) {
      await services.rateLimits.consumeRequest(req.ip ?? req.socket.remoteAddress ?? "unknown");
    }
    next();
  };
}
