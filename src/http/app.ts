import { expressMiddleware } from "@as-integrations/express5";
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import cors from "cors";
import helmet from "helmet";
import { randomUUID } from "node:crypto";
import pinoHttp from "pino-http";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { Config } from "../config";
import { BadRequestError, NotFoundError, PayloadTooLargeError } from "../errors/app-errors";
import { isUnexpected, toErrorResponse } from "../errors/error-mapper";
import { createContextBuilder } from "../graphql/context";
import { createGraphqlServer } from "../graphql/graphql-server";
import type { Services } from "../services";
import { graphiqlAssets, graphiqlPage, swaggerUi } from "./explorers";
import { operationsRoutes } from "./operations";
import { memberExportRoute } from "./rest/member-export";
import { createRestApi } from "./rest/rest-api";
import { API_BASE } from "./rest/rest-routes";

export interface AppParts {
  app: Express;
  openApi: Record<string, unknown>;
  stop: () => Promise<void>;
}

export async function createApp(
  config: Config,
  services: Services,
  schema: GraphQLSchema,
  log: Logger,
): Promise<AppParts> {
  const exposeErrorDetail = config.nodeEnv !== "production";
  const buildContext = createContextBuilder(services, log, {
    secureCookies: config.nodeEnv === "production",
  });
  const app = express();
  useRequestShell(app, config, services, log);

  const rest = createRestApi({
    schema,
    buildContext,
    exposeErrorDetail,
    bodyLimitBytes: config.bodyLimitBytes,
  });
  // One mount for everything under /api/v1: each mount a request passes rewrites its URL, which
  // is parsed again on the way in and out (express's routing alone, in a loop, to GET
  // /offices/{id}: about 6 µs through three mounts, 3.5 µs through one).
  const api = express.Router();
  api.use(operationsRoutes(services.connection));
  api.use("/docs", swaggerUi(`${API_BASE}/openapi.json`));
  api.use(memberExportRoute(schema, buildContext));
  api.use(rest.router);
  app.use(API_BASE, api);

  const graphql = createGraphqlServer({
    schema,
    introspection: config.graphqlIntrospection,
    exposeErrorDetail,
  });
  await graphql.start();
  app.use("/graphql/assets", graphiqlAssets());
  app.use(
    "/graphql",
    graphiqlPage,
    express.json({ limit: config.bodyLimitBytes }),
    expressMiddleware(graphql, { context: ({ req, res }) => buildContext(req, res) }),
  );

  app.use((req: Request) => {
    throw new NotFoundError(`No route ${req.method} ${req.path}`);
  });
  app.use(errorResponder(exposeErrorDetail));
  return { app, openApi: rest.openApi, stop: () => graphql.stop() };
}

/**
 * What every request passes through before its route: request id and log, security
 * headers, CORS and the per-client rate limit. (bench/floor-shell.ts copies it for the
 * benchmark's hand-written floor.)
 */
function useRequestShell(app: Express, config: Config, services: Services, log: Logger): void {
  app.disable("x-powered-by");
  // Express would hash every body it sends for a weak ETag, mostly POST /graphql answers (up
  // to 30 KB for a member page) that no client can revalidate; the REST paths have none.
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy);
  app.use(requestLogging(log));
  app.use(helmet());
  // Browsers may call from the configured origins only; without CORS_ORIGINS, same-origin only.
  app.use(
    cors({
      origin: config.corsOrigins,
      credentials: true,
      exposedHeaders: ["x-request-id", "retry-after"],
    }),
  );
  app.use(requestRateLimit(services));
}

function requestLogging(log: Logger) {
  return pinoHttp({
    logger: log,
    genReqId: (req, res) => {
      const incoming = req.headers["x-request-id"];
      const id =
        typeof incoming === "string" && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.split("?")[0],
      }),
    },
  });
}

/**
 * Contract §4: every client IP gets RATE_LIMIT_PER_MINUTE requests across both mounts. The
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

/** Express-level failures (body reading, unknown paths, argument checks) in the same envelope. */
function errorResponder(exposeDetail: boolean): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, _next) => {
    const translated = translateExpressError(error);
    const mapped = toErrorResponse(translated, { exposeDetail });
    if (isUnexpected(translated)) req.log.error({ err: error }, "unexpected error");
    if (res.headersSent) return;
    res
      .status(mapped.status)
      .set(mapped.headers ?? {})
      .json(mapped.body);
  };
}

/** body-parser (used on /graphql) reports its own failures with a `type`. */
function translateExpressError(error: unknown): unknown {
  const type = (error as { type?: string } | null)?.type;
  if (type === "entity.too.large")
    return new PayloadTooLargeError("The request body exceeds 1 MiB");
  if (type === "entity.parse.failed")
    return new BadRequestError("The request body is not valid JSON");
  // A path with a broken percent-escape (`/offices/%zz`): the router cannot decode it.
  if (error instanceof URIError) return new BadRequestError("The path is not validly encoded");
  return error;
}
