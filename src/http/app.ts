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
import { BadRequestError, NotFoundError, PayloadTooLargeError } from "../errors/app-errors";
import { isUnexpected, toErrorResponse } from "../errors/error-mapper";
import { createContextBuilder } from "../graphql/context";
import { createGraphqlServer } from "../graphql/graphql-server";
import type { Services } from "../services";
import { graphiqlAssets, graphiqlPage, swaggerUi } from "./explorers";
import { requireJsonContentType } from "./json-body";
import { useRequestShell } from "./request-shell";
import { operationsRoutes, serviceRoot } from "./operations";
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
  // is parsed again on the way in and out, so every extra mount is routing work per request.
  const api = express.Router();
  api.use(operationsRoutes(services.connection));
  api.use("/docs", swaggerUi(`${API_BASE}/openapi.json`));
  api.use(memberExportRoute(schema, buildContext));
  api.use(rest.router);
  app.use(API_BASE, api);
  app.get("/", serviceRoot);

  const graphql = createGraphqlServer({
    schema,
    introspection: config.graphqlIntrospection,
    exposeErrorDetail,
    // "Did you mean …?" spells the schema out to whoever guesses, introspection or not.
    hideSuggestions: config.nodeEnv === "production" || !config.graphqlIntrospection,
  });
  await graphql.start();
  app.use("/graphql/assets", graphiqlAssets());
  app.use(
    "/graphql",
    graphiqlPage,
    requireJsonContentType,
    express.json({ limit: config.bodyLimitBytes }),
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
