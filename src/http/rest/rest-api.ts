import express, { type Request, type RequestHandler, type Response } from "express";
import {
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import qs from "qs";
import { useSofa } from "sofa-api";
import { Response as FetchResponse } from "fets";
import { accessOf, assertAccess } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { NotFoundError } from "../../errors/app-errors";
import { toErrorResponse } from "../../errors/error-mapper";
import { readJsonBody } from "../json-body";
import { completeOpenApi, OPENAPI_SCALARS } from "./openapi";
import { checkArguments, type RawArguments } from "./rest-arguments";
import { API_BASE, fieldOf, REST_ROUTES, type RestRoute } from "./rest-routes";

export interface RestApiOptions {
  schema: GraphQLSchema;
  buildContext: (req: Request, res: Response) => Promise<RequestContext>;
  exposeErrorDetail: boolean;
  bodyLimitBytes: number;
}

/** What the gate checked for this request, kept on its context for the execute step. */
const CHECKED_CALL = Symbol("restCall");

interface CheckedCall {
  route: RestRoute;
  variables: RawArguments;
}

type RestContext = RequestContext & { [CHECKED_CALL]?: CheckedCall };

/**
 * /api/v1: each path of the route table is an express route whose last handler is Sofa's
 * server adapter (`useSofa`), which runs the path's GraphQL operation.
 * Before Sofa, the route's gate reads and checks the request (body size and JSON, the
 * arguments' types) so that client mistakes answer 4xx with field paths;
 * Sofa's execute step then runs with the arguments the gate checked. A path off the table
 * never reaches Sofa (whose router would also serve /webhook routes).
 */
export function createRestApi(options: RestApiOptions): {
  router: express.Router;
  openApi: Record<string, unknown>;
} {
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
    // The same context the gate built (buildContext makes one per request).
    context: ({ req, res }: { req: Request; res: Response }) => options.buildContext(req, res),
    execute: executeChecked,
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
  // Sofa's server adapter answers the node request with a fetch Response, which is written
  // back here: a 204 must go out without the JSON content type Sofa gives every answer.
  const runSofa: RequestHandler = async (req, res) => {
    await sendFetchResponse(await sofa.handleNodeRequestAndResponse(req, res, { req, res }), res);
  };

  const router = express.Router();
  for (const route of REST_ROUTES) {
    const gate = restGate(route, operationField(options.schema, route), options.buildContext);
    const chain = isBodyMethod(route)
      ? [readJsonBody(options.bodyLimitBytes), gate, runSofa]
      : [gate, runSofa];
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

/**
 * The one argument check of a REST request. The caller's access is checked once too: by the
 * schema's authChecker when the operation runs, or here when the arguments fail, so that a
 * caller without the right gets 401/403 and learns nothing of our validation rules.
 */
function restGate(
  route: RestRoute,
  field: GraphQLField<unknown, unknown>,
  buildContext: RestApiOptions["buildContext"],
): RequestHandler {
  const access = accessOf(field.name);
  return async (req, res, next) => {
    const context: RestContext = await buildContext(req, res);
    let variables: RawArguments;
    try {
      variables = checkArguments(field.args, collectArguments(route, req));
    } catch (error) {
      if (access !== "public") assertAccess(context, access === "signed-in" ? [] : access);
      throw error;
    }
    context[CHECKED_CALL] = { route, variables };
    next();
  };
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
  const omit = call.route.omitWhenNull;
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
