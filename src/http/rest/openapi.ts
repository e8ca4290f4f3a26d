import type { GraphQLSchema } from "graphql";
import { accessOf } from "../../graphql/access";
import { CSV_HEADER } from "../../modules/members/member-csv";
import { MEMBER_EXPORT_FILTERS, MEMBER_EXPORT_PATH, MEMBER_EXPORT_ROLES } from "./member-export";
import { API_BASE, fieldOf, REST_ROUTES, type RestRoute } from "./rest-routes";

type Json = Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: "Invalid request (VALIDATION_ERROR with errors[] for field problems, BAD_REQUEST otherwise)",
  401:
    "Missing, invalid, expired or revoked access token; REAUTHENTICATION_REQUIRED where the " +
    "session must have proven the password recently (POST /auth/reauthenticate)",
  403: "The caller's role may not do this",
  404: "No such record",
  409: "Conflicts with the current state",
  413: "Body larger than 1 MiB",
  415: "Body is not JSON",
  429: "Too many requests (see Retry-After)",
  500: "Server failure",
  503: "Database unavailable; retry shortly",
};

/** Errors any operation may answer, whatever its access and arguments. */
const SHARED_ERRORS = [400, 429, 500, 503];

/** How our custom scalars look in JSON, for Sofa's OpenAPI generator. */
export const OPENAPI_SCALARS = {
  UUID: { type: "string", format: "uuid" },
  DateTimeISO: { type: "string", format: "date-time" },
  EmailAddress: { type: "string", format: "email" },
  URL: { type: "string", format: "uri" },
};

/**
 * Sofa (through fets) describes each route's parameters, body and success schema. It knows
 * nothing of our auth, error envelope or 204s; this adds them, so the document stays true
 * to what the server answers.
 */
export function completeOpenApi(generated: Json, schema: GraphQLSchema): Json {
  const doc = structuredClone(generated) as Json & {
    paths: Record<string, Record<string, Json>>;
    components: Json;
  };
  doc.openapi = "3.0.3";
  doc.info = {
    title: "Chaplaincy membership API",
    version: "1.0.0",
    description: "REST v1. Every path runs one operation of the GraphQL schema served at /graphql.",
  };
  doc.servers = [{ url: API_BASE }];
  const components = (doc.components ??= {}) as Json & { schemas?: Json };
  components.securitySchemes = {
    bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    refreshCookie: { type: "apiKey", in: "cookie", name: "refreshToken" },
  };
  components.schemas = { ...components.schemas, ...errorSchemas() };

  for (const route of REST_ROUTES) {
    const openApiPath = route.path.replace(/:(\w+)/g, "{$1}");
    const operation = doc.paths[openApiPath]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI document lacks ${route.method} ${openApiPath}`);
    describeOperation(operation, route);
    markDefaults(operation, route, schema);
  }
  describeMemberExport(doc.paths);
  return doc;
}

function describeOperation(operation: Json, route: RestRoute): void {
  const access = accessOf(fieldOf(route).field);
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  if (route.status === 204) responses["204"] = { description: "Done; no body" };
  else {
    const success = responses[String(route.status)] ?? {};
    success.description ??= "Success";
    responses[String(route.status)] = success;
  }
  const errors = new Set([...SHARED_ERRORS, ...(route.errors ?? [])]);
  if (access !== "public") {
    operation.security = [{ bearerAuth: [] }];
    errors.add(401);
    if (Array.isArray(access)) errors.add(403);
    operation.description =
      `${Array.isArray(access) ? `Roles: ${access.join(", ")}.` : "Any signed-in caller."} ${typeof operation.description === "string" ? operation.description : ""}`.trim();
  } else {
    operation.security = [];
  }
  if (route.refreshCookie === "rotates") operation.security = [{ refreshCookie: [] }];
  if (route.refreshCookie) describeCookie(responses[String(route.status)], route.refreshCookie);
  if (route.path.includes(":")) errors.add(404);
  if (["POST", "PUT", "PATCH"].includes(route.method)) {
    placeBodyArguments(operation, route);
    errors.add(413);
    errors.add(415);
  }
  Object.assign(responses, errorResponses(errors));
  operation.responses = responses;
  operation.operationId = fieldOf(route).field;
}

/** The error envelope (400: with the field problems) under each status, in order. */
function errorResponses(statuses: Iterable<number>): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const status of [...statuses].sort()) {
    const schema = status === 400 ? "ValidationErrorResponse" : "ErrorResponse";
    responses[String(status)] = {
      description: REASONS[status] ?? "Error",
      content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
    };
  }
  return responses;
}

/**
 * GET /members/export.csv is a plain express route beside Sofa's (member-export.ts), so Sofa
 * does not describe it. Its filters are taken from GET /members as completed above (defaults
 * included), so the two cannot drift apart; its gate is the same admin check as the list's.
 */
function describeMemberExport(paths: Record<string, Record<string, Json>>): void {
  const list = paths["/members"]?.get;
  if (!list) throw new Error("OpenAPI document lacks GET /members");
  const parameters = ((list.parameters ?? []) as { name: string }[]).filter((parameter) =>
    MEMBER_EXPORT_FILTERS.includes(parameter.name),
  );
  if (parameters.length !== MEMBER_EXPORT_FILTERS.length) {
    throw new Error(
      `GET /members lacks one of the export's filters ${MEMBER_EXPORT_FILTERS.join(", ")}`,
    );
  }
  const columns = CSV_HEADER.trim().split(",");
  paths[MEMBER_EXPORT_PATH] = {
    get: {
      operationId: "exportMembersCsv",
      description:
        `Roles: ${MEMBER_EXPORT_ROLES.join(", ")}. Every record GET /members selects with the ` +
        "same filters (all pages, newest first) as one CSV download, streamed as it is read; " +
        "each export is audited. Not a GraphQL operation.",
      tags: structuredClone(list.tags ?? ["Members"]),
      security: [{ bearerAuth: [] }],
      parameters: structuredClone(parameters),
      responses: {
        "200": {
          description:
            "CSV (RFC 4180, UTF-8, CRLF after each row): a header row, then one row per record. " +
            `Columns: ${columns.join(", ")}. SSS and TIN numbers are opened. A cell a ` +
            "spreadsheet would run as a formula (starting with =, +, -, @) gets a leading apostrophe.",
          headers: {
            "Content-Disposition": {
              description: 'Always `attachment; filename="members.csv"`',
              schema: { type: "string" },
            },
          },
          content: {
            "text/csv": { schema: { type: "string", format: "binary" }, example: CSV_HEADER },
          },
        },
        ...errorResponses([...SHARED_ERRORS, 401, 403]),
      },
    },
  };
}

const COOKIE_EFFECT = {
  sets: "Sets the refreshToken cookie (HttpOnly, SameSite=Strict, Path=/api/v1/auth) when the response carries an accessToken",
  rotates: "Replaces the refreshToken cookie; the presented one stops working",
  clears: "Clears the refreshToken cookie",
};

function describeCookie(success: Json, effect: keyof typeof COOKIE_EFFECT): void {
  success.headers = {
    "Set-Cookie": { description: COOKIE_EFFECT[effect], schema: { type: "string" } },
  };
}

/**
 * An argument with a default (page, limit, sortBy…) may be left out. Sofa marks every
 * non-null argument required, and in GraphQL an argument with a default is non-null.
 */
function markDefaults(operation: Json, route: RestRoute, schema: GraphQLSchema): void {
  const { kind, field } = fieldOf(route);
  const root = kind === "Query" ? schema.getQueryType() : schema.getMutationType();
  const defaults = new Map(
    (root?.getFields()[field]?.args ?? [])
      .filter((arg) => arg.defaultValue !== undefined)
      .map((arg) => [arg.name, arg.defaultValue]),
  );
  const parameters = (operation.parameters ?? []) as {
    name: string;
    required?: boolean;
    schema?: Json;
  }[];
  for (const parameter of parameters) {
    if (!defaults.has(parameter.name)) continue;
    parameter.required = false;
    parameter.schema = { ...parameter.schema, default: defaults.get(parameter.name) };
  }
  const body = bodySchemaOf(operation);
  if (body?.required) body.required = body.required.filter((name) => !defaults.has(name));
}

function bodySchemaOf(operation: Json): { properties?: Json; required?: string[] } | undefined {
  const body = operation.requestBody as
    | { content?: Record<string, { schema?: { properties?: Json; required?: string[] } }> }
    | undefined;
  return body?.content?.["application/json"]?.schema;
}

/**
 * Sofa documents a body route's arguments twice, in the body and as query parameters; the
 * server reads them from the body only, except the route's declared query arguments.
 */
function placeBodyArguments(operation: Json, route: RestRoute): void {
  const inQuery = route.queryArguments ?? [];
  const parameters = (operation.parameters ?? []) as { name: string; in: string }[];
  operation.parameters = parameters.filter(
    (parameter) => parameter.in === "path" || inQuery.includes(parameter.name),
  );
  // Path parameters are not read from the body either.
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const schema = bodySchemaOf(operation);
  for (const name of [...inQuery, ...inPath]) {
    if (schema?.properties) delete schema.properties[name];
    if (schema?.required) schema.required = schema.required.filter((field) => field !== name);
  }
  if (schema && Object.keys(schema.properties ?? {}).length === 0) delete operation.requestBody;
}

function errorSchemas(): Json {
  return {
    ErrorResponse: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", example: "NOT_FOUND" },
        message: { type: "string" },
        error: { description: "Debug detail, outside production only" },
      },
    },
    ValidationErrorResponse: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", example: "VALIDATION_ERROR" },
        message: { type: "string" },
        errors: {
          type: "array",
          items: {
            type: "object",
            required: ["path", "message"],
            properties: {
              path: { type: "string", example: "sections.1.type" },
              message: { type: "string" },
            },
          },
        },
      },
    },
  };
}
