import { expressMiddleware } from "@as-integrations/express5";
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type Response,
} from "express";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { Config } from "../config";
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from "../errors/app-errors";
import { isUnexpected, toErrorResponse } from "../errors/error-mapper";
import { createContextBuilder } from "../graphql/context";
import { createGraphqlServer } from "../graphql/graphql-server";
import type { Services } from "../services";
import { favicon, graphiqlAssets, graphiqlPage, swaggerUi } from "./explorers";
import { useRequestShell } from "./request-shell";
import { addOperationsRoutes, serviceRoot } from "./operations";
import { addMemberExportRoute, describeMemberExport } from "./member-export";
import { addReportCsvRoute, describeReportCsv } from "./report-csv";
import { dashboardRoutes } from "./dashboard";
import { describeFileRoutes } from "./file-route-table";
import { addFileRoutes } from "./file-routes";
import { bodyTooLarge } from "../errors/byte-size";
import { jsonBody } from "./json-body";
import { API_BASE, createRestApi } from "./rest/rest-api";

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
    consumePublicRead: (ip) => services.rateLimits.consumePublicRead(ip),
    publicVersion: (sources) => services.changeStamps.version(sources),
  });
  describeMemberExport(rest.openApi);
  describeReportCsv(rest.openApi);
  describeFileRoutes(rest.openApi, config.files.maxBytes);
  // One mount for everything under /api/v1, and the plain routes on it rather than in routers
  // of their own: each router a request passes is entered (its URL rewritten, parsed again on
  // the way in and out) whatever the path, so every extra one is routing work per request.
  const api = express.Router();
  addOperationsRoutes(api, services.health);
  api.use("/docs", swaggerUi(`${API_BASE}/openapi.json`));
  addMemberExportRoute(api, schema, buildContext);
  addReportCsvRoute(api, buildContext);
  addFileRoutes(api, buildContext, {
    maxBytes: config.files.maxBytes,
    bodyLimitBytes: config.bodyLimitBytes,
  });
  api.use(rest.router);
  app.use(API_BASE, api);
  app.get("/", serviceRoot);
  app.get("/favicon.ico", favicon);
  app.use("/admin", dashboardRoutes());

  const graphql = createGraphqlServer({
    schema,
    introspection: config.graphqlIntrospection,
    exposeErrorDetail,
    // "Did you mean …?" spells the schema out to whoever guesses, introspection or not.
    hideSuggestions: config.nodeEnv === "production" || !config.graphqlIntrospection,
    consumePublicReads: (ip, count) => services.rateLimits.consumePublicReads(ip, count),
  });
  await graphql.start();
  app.use("/graphql/assets", graphiqlAssets());
  app.use(
    "/graphql",
    graphiqlPage,
    ...jsonBody(config.bodyLimitBytes, false),
    expressMiddleware(graphql, { context: ({ req, res }) => buildContext(req, res) }),
  );

  app.use((req: Request) => {
    throw new NotFoundError(`No route ${req.method} ${req.path}`);
  });
  app.use(errorResponder(exposeErrorDetail));
  return { app, openApi: rest.openApi, stop: () => graphql.stop() };
}

/** Express-level failures (body reading, unknown paths, argument checks) in the same envelope. */
export function errorResponder(exposeDetail: boolean): ErrorRequestHandler {
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

/** express.json reports its own failures with a `type` (and the limit it enforced). */
function translateExpressError(error: unknown): unknown {
  const { type, limit } = (error ?? {}) as { type?: string; limit?: number };
  if (type === "entity.too.large") return new PayloadTooLargeError(bodyTooLarge(limit ?? 0));
  if (type === "entity.parse.failed")
    return new BadRequestError("The request body is not valid JSON");
  if (type === "charset.unsupported" || type === "encoding.unsupported")
    return new UnsupportedMediaTypeError("The request body must be UTF-8 JSON");
  // A path with a broken percent-escape (`/offices/%zz`): the router cannot decode it.
  if (error instanceof URIError) return new BadRequestError("The path is not validly encoded");
  return error;
}
