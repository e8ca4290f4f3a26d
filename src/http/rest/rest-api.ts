import express, { type Request, type Response } from "express";
import {
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import qs from "qs";
import { useSofa } from "sofa-api";
import { Response as FetchResponse } from "fets";
import { accessOf, assertAccess } from "../../graphql/access";
import type { CompiledExecution } from "../../graphql/compiled-execution";
import type { RequestContext } from "../../graphql/context";
import { NotFoundError } from "../../errors/app-errors";
import { toErrorResponse } from "../../errors/error-mapper";
import { readJsonBody } from "../json-body";
import { completeOpenApi, OPENAPI_SCALARS } from "./openapi";
import { checkArguments, type RawArguments } from "./rest-arguments";
import { API_BASE, fieldOf, REST_ROUTES, type RestRoute } from "./rest-routes";

export interface RestApiOptions {
  schema: GraphQLSchema;
  execution: CompiledExecution;
  buildContext: (req: Request, res: Response) => Promise<RequestContext>;
  exposeErrorDetail: boolean;
  bodyLimitBytes: number;
}

/**
 * /api/v1: every documented path runs its GraphQL operation through Sofa: express matches the
 * path and calls the handler Sofa made for that operation. Before it, each request is read and
 * checked here (body size, JSON, argument types) so that client mistakes answer 4xx with field
 * paths; anything off the route table never reaches Sofa (whose router would otherwise also
 * serve its /webhook routes).
 */
export function createRestApi(options: RestApiOptions): {
  router: express.Router;
  openApi: Record<string, unknown>;
} {
  // What the gate checked for each request, for the execute step below.
  const checkedCalls = new WeakMap<object, CheckedCall>();
  const sofa = useSofa({
    basePath: API_BASE,
    schema: options.schema,
    routes: Object.fromEntries(
      REST_ROUTES.map((route) => [
        route.operation,
        {
          method: route.method,
          path: route.path,
          responseStatus: route.status as 200,
          tags: [route.tag],
        },
      ]),
    ),
    context: ({ req, res }: { req: Request; res: Response }) => options.buildContext(req, res),
    execute: (args: ExecutionArgs) =>
      executeChecked(options.execution, args, checkedCalls.get(args.contextValue as object)),
    customScalars: OPENAPI_SCALARS,
    errorHandler: (errors) => {
      // Sofa reports several errors at once only for variables; the first decides the status.
      const mapped = toErrorResponse(errors[0], { exposeDetail: options.exposeErrorDetail });
      return FetchResponse.json(mapped.body, {
        status: mapped.status as 400,
        headers: mapped.headers,
      });
    },
    openAPI: { info: { title: "Chaplaincy membership API", version: "1.0.0" } },
    swaggerUI: { endpoint: false as unknown as string },
  });

  const handlers = sofaHandlers(sofa);
  const router = express.Router();
  for (const route of REST_ROUTES) {
    const field = operationField(options.schema, route);
    const access = accessOf(field.name);
    const sofaHandler = handlers.get(routeKey(route));
    if (!sofaHandler) throw new Error(`Sofa made no handler for ${route.method} ${route.path}`);
    const handler = async (req: Request, res: Response) => {
      const context = await options.buildContext(req, res);
      // The role gate first: a caller without the right gets 401/403, not our validation rules.
      if (access !== "public") assertAccess(context, access === "signed-in" ? [] : access);
      const raw = collectArguments(route, req);
      const clean = checkArguments(field.args, raw);
      checkedCalls.set(context, { route, variables: clean });
      await sendFetchResponse(await sofaHandler(EMPTY_REQUEST, { req, res }), res);
    };
    const chain = isBodyMethod(route) ? [readJsonBody(options.bodyLimitBytes), handler] : [handler];
    router[route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](
      route.path,
      ...chain,
    );
  }
  const openApi = completeOpenApi(sofa.openAPIDocument, options.schema);
  router.get("/openapi.json", (_req, res) => {
    res.json(openApi);
  });
  router.use((req) => {
    throw new NotFoundError(`No route ${req.method} ${API_BASE}${req.path}`);
  });
  return { router, openApi };
}

function operationField(schema: GraphQLSchema, route: RestRoute): GraphQLField<unknown, unknown> {
  const { kind, field } = fieldOf(route);
  const type = kind === "Query" ? schema.getQueryType() : schema.getMutationType();
  const found = type?.getFields()[field];
  if (!found)
    throw new Error(`REST route ${route.method} ${route.path} names unknown ${route.operation}`);
  return found;
}

function isBodyMethod(route: RestRoute): boolean {
  return route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
}

interface CheckedCall {
  route: RestRoute;
  variables: RawArguments;
}

/**
 * Runs the operation with the variables the gate checked rather than Sofa's own reading of
 * the request, which drops explicit nulls (a body could never clear a field). Fields the
 * route marks are left out of the response when null.
 */
async function executeChecked(
  execution: CompiledExecution,
  args: ExecutionArgs,
  call: CheckedCall | undefined,
): Promise<ExecutionResult> {
  const result = await execution.execute(call ? { ...args, variableValues: call.variables } : args);
  const omit = call?.route.omitWhenNull;
  if (!omit || !result.data) return result;
  const { field } = fieldOf(call.route);
  const payload = result.data[field] as Record<string, unknown> | null;
  if (payload) for (const name of omit) if (payload[name] === null) delete payload[name];
  return result;
}

/**
 * Path parameters, then the query string (GET/DELETE) or the JSON body (POST/PUT/PATCH) plus
 * the route's declared query arguments.
 */
function collectArguments(route: RestRoute, req: Request): RawArguments {
  const params = req.params as Record<string, string>;
  const query = qs.parse(queryString(req.originalUrl));
  if (!isBodyMethod(route)) return { ...query, ...params };
  const fromQuery = Object.fromEntries(
    (route.queryArguments ?? []).filter((name) => name in query).map((name) => [name, query[name]]),
  );
  return { ...(req.body as RawArguments), ...fromQuery, ...params };
}

function queryString(url: string): string {
  const index = url.indexOf("?");
  return index === -1 ? "" : url.slice(index + 1);
}

type SofaHandler = (
  request: typeof EMPTY_REQUEST,
  serverContext: { req: Request; res: Response },
) => Promise<globalThis.Response>;

/**
 * What Sofa's handler of a route reads of its request: the body, the query string and the path
 * parameters, from which it builds the operation's variables. Those are replaced by the ones
 * the gate checked (executeChecked), so it is handed nothing to read.
 */
const EMPTY_REQUEST = Object.freeze({ body: null, url: "", params: Object.freeze({}) });

/**
 * The handler Sofa made for each route (its GraphQL operation, executed with the context and
 * answered as JSON or through errorHandler), by "METHOD /path". Express has matched the route
 * already: Sofa's own router would only match it again, through a fetch Request built from
 * the node request, URL patterns and a fetch Response written back (docs/decisions.md,
 * "Sofa's handlers called from express").
 */
function sofaHandlers(sofa: unknown): Map<string, SofaHandler> {
  const routes = (sofa as { __routes: { method: string; path: string; handler: SofaHandler }[] })
    .__routes;
  return new Map(routes.map((route) => [routeKey(route), route.handler]));
}

/** Our routes and Sofa's share their method and path: "GET /offices/:id". */
const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** Status, headers and body of Sofa's fetch Response, on the node response. */
async function sendFetchResponse(response: globalThis.Response, res: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => {
    // A 204 carries no body, so no content type or length either.
    if (response.status === 204 && /^content-(type|length)$/i.test(name)) return;
    res.setHeader(name, value);
  });
  if (response.status === 204) res.end();
  else res.end(await response.text());
}
