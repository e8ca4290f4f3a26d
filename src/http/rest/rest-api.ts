import type { IncomingMessage } from "node:http";
import express, { type Request, type RequestHandler, type Response } from "express";
import { execute, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import qs from "qs";
import { useSofa } from "sofa-api";
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from "../../errors/app-errors";
import { toErrorResponse } from "../../errors/error-mapper";
import { assertFieldAccess } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { restRoutes, type RestRoute } from "../../graphql/rest-route";
import { completeOpenApi, OPENAPI_SCALARS } from "./openapi";
import { checkArguments, type RawArguments } from "./rest-arguments";

export const API_BASE = "/api/v1";

export interface RestApiOptions {
  schema: GraphQLSchema;
  buildContext: (req: Request, res: Response) => Promise<RequestContext>;
  exposeErrorDetail: boolean;
  bodyLimitBytes: number;
}

/** What the gate checked for this request, kept on its context for the execute step. */
const CHECKED_CALL = Symbol("restCall");
type RestContext = RequestContext & {
  [CHECKED_CALL]?: { route: RestRoute; variables: RawArguments };
};

/**
 * /api/v1: each root field's `@Rest` route is an express route whose last handler is Sofa's
 * server adapter (`useSofa`), which runs the field's operation. Before Sofa, the route's gate
 * reads and checks the arguments, so that client mistakes answer 4xx with field paths; Sofa's
 * execute step then runs with what the gate checked. A path off the table never reaches Sofa.
 */
export function createRestApi(options: RestApiOptions) {
  const routes = restRoutes(options.schema);
  const errorHandler: NonNullable<Parameters<typeof useSofa>[0]["errorHandler"]> = (errors) => {
    // Sofa reports several errors at once only for variables; the first decides the status.
    const { body, status, headers } = toErrorResponse(errors[0], {
      exposeDetail: options.exposeErrorDetail,
    });
    return Response.json(body, { status, headers }) as ReturnType<typeof errorHandler>;
  };
  const sofa = useSofa({
    basePath: API_BASE,
    schema: options.schema,
    routes: Object.fromEntries(
      routes.map(({ operation, method, path, status, tag }) => [
        operation,
        { method, path, responseStatus: status, tags: [tag] },
      ]),
    ),
    context: ({ req, res }: { req: Request; res: Response }) => options.buildContext(req, res),
    execute: executeChecked,
    customScalars: OPENAPI_SCALARS,
    errorHandler,
    openAPI: { info: { title: "Chaplaincy membership API", version: "1.0.0" } },
    swaggerUI: { endpoint: false as unknown as string },
  });
  const runSofa: RequestHandler = async (req, res) => {
    await send(await sofa.handleNodeRequestAndResponse(req, res, { req, res }), res);
  };

  const router = express.Router();
  for (const route of routes) {
    const gate = restGate(route, options.buildContext);
    const chain = hasBody(route) ? [...jsonBody(options.bodyLimitBytes, true), gate] : [gate];
    router[route.method.toLowerCase() as "get"](route.path, ...chain, runSofa);
  }
  const openApi = completeOpenApi(sofa.openAPIDocument, options.schema, routes);
  router.get("/openapi.json", (_req, res) => {
    res.json(openApi);
  });
  router.use((req) => {
    throw new NotFoundError(`No route ${req.method} ${API_BASE}${req.path}`);
  });
  return { router, openApi };
}

/**
 * A JSON body reader: a body must be labelled `application/json` (charset allowed; a
 * look-alike such as `application/x-evil+json`, or a type a browser sends cross-site without a
 * preflight, is refused 415); its size and syntax are express.json's (413, 400, translated by
 * errorResponder). REST's must be an object; an empty one counts as `{}`.
 */
export function jsonBody(limitBytes: number, objectOnly: boolean): RequestHandler[] {
  const isJson = (req: IncomingMessage) =>
    /^application\/json\s*(;|$)/i.test(req.headers["content-type"]?.trim() ?? "");
  const sent = (req: Request) =>
    req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"]) > 0;
  return [
    (req, _res, next) => {
      if (!sent(req) || isJson(req)) return next();
      next(
        new UnsupportedMediaTypeError(
          "The request body must be JSON (Content-Type: application/json)",
        ),
      );
    },
    express.json({ limit: limitBytes, strict: !objectOnly, type: isJson }),
    (req, _res, next) => {
      if (!objectOnly) return next();
      const body: unknown = req.body ?? {};
      if (body === null || typeof body !== "object" || Array.isArray(body))
        return next(new BadRequestError("The request body must be a JSON object"));
      req.body = body;
      next();
    },
  ];
}

/**
 * The one argument check of a REST request. The caller's access is checked once too: by the
 * schema's authChecker when the operation runs, or here when the arguments fail, so that a
 * caller without the right gets 401/403 and learns nothing of our validation rules.
 */
function restGate(route: RestRoute, buildContext: RestApiOptions["buildContext"]): RequestHandler {
  return async (req, res, next) => {
    const context: RestContext = await buildContext(req, res);
    try {
      const variables = checkArguments(route.field.args, collectArguments(route, req));
      context[CHECKED_CALL] = { route, variables };
    } catch (error) {
      assertFieldAccess(context, route.field);
      throw error;
    }
    next();
  };
}

const hasBody = (route: RestRoute) => ["POST", "PUT", "PATCH"].includes(route.method);

/**
 * Runs the operation with the variables the gate checked rather than Sofa's own reading of
 * the request, which drops explicit nulls (a body could never clear a field). Fields the
 * route marks are left out of the response when null.
 */
async function executeChecked(args: ExecutionArgs): Promise<ExecutionResult> {
  const call = (args.contextValue as RestContext)[CHECKED_CALL];
  // Sofa runs only behind a gate; a call without one is a wiring mistake, not a request's.
  if (!call) throw new Error("Sofa ran an operation the REST gate did not check");
  const result = await execute({ ...args, variableValues: call.variables });
  const payload = result.data?.[call.route.field.name] as Record<string, unknown> | undefined;
  for (const name of call.route.omitWhenNull ?? [])
    if (payload?.[name] === null) delete payload[name];
  return result;
}

/** Path parameters, then the query string, or the JSON body plus the route's query arguments. */
function collectArguments(route: RestRoute, req: Request): RawArguments {
  const params = req.params as Record<string, string>;
  const query = qs.parse(req.originalUrl.split("?").slice(1).join("?"));
  if (!hasBody(route)) return { ...query, ...params };
  const fromQuery = (route.queryArguments ?? []).filter((name) => name in query);
  return {
    ...(req.body as RawArguments),
    ...Object.fromEntries(fromQuery.map((n) => [n, query[n]])),
    ...params,
  };
}

/** Sofa's fetch Response on the node response; a 204 goes out with no body or content type. */
async function send(response: globalThis.Response, res: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => {
    if (response.status !== 204 || !/^content-(type|length)$/i.test(name))
      res.setHeader(name, value);
  });
  res.end(response.status === 204 ? undefined : await response.text());
}
