// Past the usual size on purpose: the REST edge is one path (gate, arguments, public-read
// revalidation, Sofa, answer) that a reader follows top to bottom in one file.
import express, { type Request, type RequestHandler, type Response } from "express";
import {
  coerceInputValue,
  getNullableType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLSchema,
} from "graphql";
import qs from "qs";
import { useSofa } from "sofa-api";
import { NotFoundError, ValidationError, type FieldError } from "../../errors/app-errors";
import { toErrorResponse } from "../../errors/error-mapper";
import { assertFieldAccess } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { restRoutes, type RestRoute } from "../../graphql/rest-route";
import { jsonBody } from "../json-body";
import { completeOpenApi, openApiFrame } from "../openapi/openapi";
import { CompiledOperations } from "../../graphql/compiled-operations";
import { SharedReads, type SharedAnswer } from "./shared-reads";
import type { StampedSource } from "../../db/change-stamps";
import {
  matchesIfNoneMatch,
  publicReadLimit,
  sendNotModified,
  sendPublicRead,
  versionEtag,
} from "./public-cache";

export const API_BASE = "/api/v1";

type BuildContext = (req: Request, res: Response) => Promise<RequestContext>;

export interface RestApiOptions {
  schema: GraphQLSchema;
  buildContext: BuildContext;
  exposeErrorDetail: boolean;
  bodyLimitBytes: number;
  /** Takes one request of the caller's IP from the public-read bucket (RateLimits). */
  consumePublicRead: (ip: string) => Promise<void>;
  /** The version of the named collections as of the service's now (ChangeStamps.version). */
  publicVersion: (sources: readonly StampedSource[]) => Promise<string>;
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
    return globalThis.Response.json(body, { status, headers }) as ReturnType<typeof errorHandler>;
  };
  const sofa = useSofa({
    basePath: API_BASE,
    schema: options.schema,
    routes: Object.fromEntries(
      routes
        .filter((route) => !route.aliasOf)
        .map(({ operation, method, path, status, tag }) => [
          operation,
          { method, path, responseStatus: status, tags: [tag] },
        ]),
    ),
    context: ({ req, res }: { req: Request; res: Response }) => options.buildContext(req, res),
    execute: executeChecked,
    // How each scalar looks in JSON: graphql-scalars says so on the scalar (`jsonSchema`).
    customScalars: Object.fromEntries(
      Object.values(options.schema.getTypeMap()).flatMap((type) =>
        isScalarType(type) && type.extensions.jsonSchema
          ? [[type.name, type.extensions.jsonSchema]]
          : [],
      ),
    ),
    errorHandler,
    openAPI: openApiFrame(),
    swaggerUI: { endpoint: false as unknown as string },
  });
  const sharedReads = new SharedReads();
  // Sofa is handed the route's path and method alone: the gate has read the body, the query and
  // the parameters and checked them, so Sofa's own reading of the query would be thrown away;
  // the node request travels in the server context for the context builder.
  const sofaRun = async (req: Request, res: Response) => {
    const url = `http://api${req.originalUrl.split("?", 1)[0]}`;
    const response = await sofa.fetch(url, { method: req.method }, { req, res });
    // Its router finds every path of ours; should one ever slip past it, a 404 and not a 500.
    if (!response) throw new NotFoundError(`No route ${req.method} ${req.originalUrl}`);
    return response;
  };
  const runSofa =
    (publicCache: boolean): RequestHandler =>
    async (req, res) => {
      const etag = (res.locals as { versionEtag?: string }).versionEtag;
      if (publicCache && etag) {
        // A public answer is the same for every caller: readers of one version share a run.
        const answer = await sharedReads.answer(etag, async () => {
          const response = await sofaRun(req, res);
          return {
            status: response.status,
            headers: response.headers,
            body: await response.text(),
          };
        });
        if (answer.status === 200) sendPublicRead(req, res, answer.headers, answer.body, etag);
        else sendAnswer(answer, res);
        return;
      }
      const response = await sofaRun(req, res);
      if (publicCache && response.status === 200) {
        sendPublicRead(req, res, response.headers, await response.text());
      } else {
        sendAnswer(
          { status: response.status, headers: response.headers, body: await response.text() },
          res,
        );
      }
    };
  const publicRead = publicReadLimit(options.consumePublicRead);

  const router = express.Router();
  // express tries a router's routes one by one until one matches: grouped by their first path
  // segment, a request tries only its group's. Spelled exactly as the route table does (case,
  // trailing slash, the base too), as Sofa's own router matches the path again after ours.
  const groups = new Map<string, express.Router>();
  const groupOf = (path: string) => path.split("/")[1];
  router.use((req, res, next) => {
    const group = req.originalUrl.startsWith(`${API_BASE}/`) && groups.get(groupOf(req.path));
    if (group) group(req, res, next);
    else next();
  });
  for (const route of routes) {
    const gate = restGate(route, options.buildContext);
    const sources = typeof route.publicCache === "object" ? route.publicCache.sources : null;
    const chain = hasBody(route)
      ? [...jsonBody(options.bodyLimitBytes, true), gate]
      : route.publicCache
        ? sources
          ? // A revalidation is answered before the caller is looked at: the answer is everyone's.
            [
              publicRead,
              argumentCheck(route, options.buildContext),
              revalidate(route, sources, options),
              gate,
            ]
          : [publicRead, gate]
        : [gate];
    const sofaRun = runSofa(route.publicCache !== undefined);
    const run = route.aliasOf ? runAs(route.aliasOf.path, sofaRun) : sofaRun;
    let group = groups.get(groupOf(route.path));
    if (!group) {
      group = express.Router({ caseSensitive: true, strict: true });
      groups.set(groupOf(route.path), group);
    }
    group[route.method.toLowerCase() as "get"](route.path, ...chain, run);
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
 * An alias's request handed to Sofa as a request of the operation's own path (its parameters
 * put in place), so Sofa runs that operation; the gate has already read the arguments.
 */
function runAs(path: string, runSofa: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const params = req.params as Record<string, string>;
    const own = path.replace(/:(\w+)/g, (_all, name: string) => encodeURIComponent(params[name]));
    const query = req.originalUrl.includes("?")
      ? req.originalUrl.slice(req.originalUrl.indexOf("?"))
      : "";
    req.url = `${own}${query}`;
    req.originalUrl = `${API_BASE}${own}${query}`;
    return runSofa(req, res, next);
  };
}

/**
 * A public read with sources answers a client's If-None-Match before running the operation:
 * the ETag is made of the operation, its checked arguments and the sources' change stamps,
 * read BEFORE the operation, so a write racing the read can only cost an extra 200 (new data
 * under the old stamps), never a 304 over an answer that changed. After the rate limit and the
 * argument check, so a 304 is counted and a bad argument is still a 400; before the caller's
 * context, which a public answer does not depend on and a 304 need not pay for.
 */
function revalidate(
  route: RestRoute,
  sources: readonly StampedSource[],
  options: Pick<RestApiOptions, "publicVersion">,
): RequestHandler {
  return async (req, res, next) => {
    const { variables } = res.locals as { variables: RawArguments };
    const version = await options.publicVersion(sources);
    const etag = versionEtag(route.operation, variables, version);
    if (matchesIfNoneMatch(req.headers["if-none-match"], etag)) {
      sendNotModified(res, etag);
      return;
    }
    res.locals.versionEtag = etag;
    next();
  };
}

/**
 * The one argument check of a REST request. The caller's access is checked once too: by the
 * schema's authChecker when the operation runs, or here when the arguments fail, so that a
 * caller without the right gets 401/403 and learns nothing of our validation rules.
 */
function restGate(route: RestRoute, buildContext: BuildContext): RequestHandler {
  return async (req, res, next) => {
    const locals = res.locals as { variables?: RawArguments };
    locals.variables ??= await checkedArguments(route, req, res, buildContext);
    const context: RestContext = await buildContext(req, res);
    context[CHECKED_CALL] = { route, variables: locals.variables };
    next();
  };
}

/** The gate's argument check alone, for a public read that may answer 304 before the rest. */
function argumentCheck(route: RestRoute, buildContext: BuildContext): RequestHandler {
  return async (req, res, next) => {
    res.locals.variables = await checkedArguments(route, req, res, buildContext);
    next();
  };
}

async function checkedArguments(
  route: RestRoute,
  req: Request,
  res: Response,
  buildContext: BuildContext,
): Promise<RawArguments> {
  try {
    return checkArguments(route.field.args, collectArguments(route, req));
  } catch (error) {
    assertFieldAccess(await buildContext(req, res), route.field);
    throw error;
  }
}

const hasBody = (route: RestRoute) => ["POST", "PUT", "PATCH"].includes(route.method);

/**
 * Runs the operation with the variables the gate checked rather than Sofa's own reading of
 * the request, which drops explicit nulls (a body could never clear a field). Fields the
 * route marks are left out of the response when null.
 */
const operations = new CompiledOperations();
async function executeChecked(args: ExecutionArgs): Promise<ExecutionResult> {
  const call = (args.contextValue as RestContext)[CHECKED_CALL];
  // Sofa runs only behind a gate; a call without one is a wiring mistake, not a request's.
  if (!call) throw new Error("Sofa ran an operation the REST gate did not check");
  const result = await operations.execute({ ...args, variableValues: call.variables });
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

/** Sofa's answer on the node response; a 204 goes out with no body or content type. */
function sendAnswer({ status, headers, body }: SharedAnswer, res: Response): void {
  res.status(status);
  headers.forEach((value, name) => {
    if (status !== 204 || !/^content-(type|length)$/i.test(name)) res.setHeader(name, value);
  });
  res.end(status === 204 ? undefined : body);
}

export type RawArguments = Record<string, unknown>;

/**
 * Checks the raw REST inputs of one operation against its GraphQL argument types, the same
 * coercion GraphQL itself applies, so a bad value is reported as a 400 naming its field
 * (Sofa alone turns it into a nameless error or a 500). Returns the operation's variables:
 * unknown fields removed at every level, explicit nulls of optional fields kept (so a body
 * can clear a field; Sofa alone would drop them).
 */
export function checkArguments(args: readonly GraphQLArgument[], raw: RawArguments): RawArguments {
  const problems: FieldError[] = [];
  const clean: RawArguments = {};
  for (const arg of args) {
    const value = raw[arg.name];
    if (value === undefined || value === null) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        problems.push({ path: arg.name, message: `${arg.name} is required` });
      } else if (value === null && !isNonNullType(arg.type)) {
        clean[arg.name] = null;
      }
      continue;
    }
    const stripped = stripUnknownFields(fromQueryString(value, arg.type), arg.type);
    coerceInputValue(stripped, arg.type, (path, _invalid, error) => {
      problems.push(describe([arg.name, ...path], error.message));
    });
    clean[arg.name] = stripped;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return clean;
}

/** Query strings and path parameters arrive as text; read numbers and booleans like GraphQL variables. */
function fromQueryString(value: unknown, type: GraphQLInputType): unknown {
  if (typeof value !== "string") return value;
  const named = getNullableType(type);
  if ((named === GraphQLInt || named === GraphQLFloat) && /^-?\d+(\.\d+)?$/.test(value.trim())) {
    return Number(value);
  }
  if (named === GraphQLBoolean && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** The contract ignores unknown fields instead of refusing them; GraphQL would refuse. */
function stripUnknownFields(value: unknown, type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    return Array.isArray(value)
      ? value.map((item) => stripUnknownFields(item, inner.ofType))
      : value;
  }
  if (
    isInputObjectType(inner) &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  ) {
    const fields = inner.getFields();
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key in fields)
        .map(([key, item]) => [key, stripUnknownFields(item, fields[key].type)]),
    );
  }
  return value;
}

/** GraphQL reports a missing nested field at its parent; the contract wants the field's own path. */
function describe(path: (string | number)[], message: string): FieldError {
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(message);
  if (missing)
    return { path: [...path, missing[1]].join("."), message: `${missing[1]} is required` };
  return { path: path.join("."), message };
}
