import type { GraphQLSchema } from "graphql";
import { statusOfCode } from "../../errors/app-errors";
import { accessOf } from "../../graphql/access";
import { markNullable, moveRefSiblings, orderedTags, summaryOf } from "./openapi-details";
import { errorResponses, errorSchemas } from "./openapi-errors";
import { exampleOf } from "./openapi-examples";
import { CSV_HEADER } from "../../modules/members/member-csv";
import { MEMBER_EXPORT_FILTERS, MEMBER_EXPORT_PATH, MEMBER_EXPORT_ROLES } from "./member-export";
import { API_BASE, fieldOf, REST_ROUTES, type RestRoute } from "./rest-routes";

type Json = Record<string, unknown>;

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
    // The refresh cookie is no scheme: it is HttpOnly, so a browser sends it by itself and no
    // page (Swagger UI's Authorize dialog included) can set it.
    bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
  };
  doc.tags = orderedTags();
  // The root types are what Sofa derives the paths from, never a body or an answer.
  const schemas = { ...(components.schemas as Record<string, Json> | undefined) };
  delete schemas.Query;
  delete schemas.Mutation;
  markNullable(schemas, schema);
  components.schemas = { ...schemas, ...errorSchemas() };

  for (const route of REST_ROUTES) {
    const openApiPath = route.path.replace(/:(\w+)/g, "{$1}");
    const operation = doc.paths[openApiPath]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI document lacks ${route.method} ${openApiPath}`);
    describeOperation(operation, route, schema);
    markDefaults(operation, route, schema);
    addBodyExample(operation, schemas, route.example);
  }
  describeMemberExport(doc.paths);
  return moveRefSiblings(doc) as Json;
}

function describeOperation(operation: Json, route: RestRoute, schema: GraphQLSchema): void {
  const { kind, field } = fieldOf(route);
  const access = accessOf(field);
  const root = kind === "Query" ? schema.getQueryType() : schema.getMutationType();
  operation.summary = summaryOf(root?.getFields()[field], field, route.summary);
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
    // An optional bearer (`{}` or the token): a token changes what the call may do.
    operation.security = route.optionalBearer ? [{}, { bearerAuth: [] }] : [];
  }
  if (route.refreshCookie === "rotates") operation.security = [];
  if (route.refreshCookie) describeCookie(responses[String(route.status)], route.refreshCookie);
  if (route.path.includes(":")) errors.add(404);
  if (["POST", "PUT", "PATCH"].includes(route.method)) {
    placeBodyArguments(operation, route);
    errors.add(413);
    errors.add(415);
  }
  for (const code of route.errorCodes ?? []) errors.add(statusOfCode(code));
  Object.assign(responses, errorResponses(errors, route.errorCodes));
  operation.responses = responses;
  operation.operationId = fieldOf(route).field;
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
      summary: "Member records as one CSV download",
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

/** An example body for every body route, so "Try it out" starts from something that works. */
function addBodyExample(
  operation: Json,
  components: Record<string, Json>,
  own: Json | undefined,
): void {
  const media = (operation.requestBody as { content?: Record<string, Json> } | undefined)
    ?.content?.["application/json"];
  if (media) media.example = own ?? exampleOf(media.schema as Json, components);
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
