import {
  isInputObjectType,
  isNonNullType,
  isObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from "graphql";
import { statusOfCode } from "../../errors/app-errors";
import { accessOf } from "../../graphql/access";
import { REST_TAGS, type RestRoute } from "../../graphql/rest-route";
import { PUBLIC_CACHE_CONTROL } from "../rest/public-cache";
import { errorResponses, errorSchemas, exampleOf, type Json } from "./openapi-parts";

/** Errors any operation may answer, whatever its access and arguments. */
export const SHARED_ERRORS = [400, 429, 500, 503];

const COOKIE_EFFECT = {
  sets: "Sets the refreshToken cookie (HttpOnly, SameSite=Strict, Path=/api/v1/auth) when the response carries an accessToken",
  rotates: "Replaces the refreshToken cookie; the presented one stops working",
  clears: "Clears the refreshToken cookie",
};

type Operation = Json & { parameters?: (Json & { name: string; in: string })[] };

/** The document's frame, handed to Sofa, which adds each route's path and the schema's types. */
export function openApiFrame() {
  return {
    openapi: "3.0.3",
    info: {
      title: "Chaplaincy membership API",
      version: "1.0.0",
      description:
        "REST v1. Every path runs one operation of the GraphQL schema served at /graphql.",
    },
    tags: Object.entries(REST_TAGS).map(([name, description]) => ({ name, description })),
    components: {
      schemas: errorSchemas(),
      securitySchemes: {
        // The refresh cookie is no scheme: it is HttpOnly, so a browser sends it by itself and
        // no page (Swagger UI's Authorize dialog included) can set it.
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
}

/**
 * Sofa describes each route's parameters, body and success schema. It knows nothing of our
 * auth, error envelope or 204s; this adds them from each route's `@Rest`, `@Authorized` and
 * arguments, so the document stays true to what the server answers.
 */
export function completeOpenApi(generated: Json, schema: GraphQLSchema, routes: RestRoute[]) {
  const doc = structuredClone(generated) as Json & { paths: Record<string, Record<string, Json>> };
  const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
  // The root types are what Sofa derives the paths from, never a body or an answer.
  delete schemas.Query;
  delete schemas.Mutation;
  markNullable(schemas, schema, new Set(routes.flatMap((route) => route.omitWhenNull ?? [])));
  const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
  for (const route of routes) {
    if (route.aliasOf) continue;
    const path = openApiPath(route.path);
    const operation = doc.paths[path]?.[route.method.toLowerCase()] as Operation | undefined;
    if (!operation) throw new Error(`OpenAPI document lacks ${route.method} ${path}`);
    describe(operation, route);
    const body = bodyOf(operation);
    if (body) body.example = route.example ?? exampleOf(body.schema as Json, schemas);
  }
  // An alias is documented as its operation, under its own path and a name of its own.
  for (const route of routes) {
    if (!route.aliasOf) continue;
    const own = doc.paths[openApiPath(route.aliasOf.path)][route.aliasOf.method.toLowerCase()];
    const alias = structuredClone(own) as Operation;
    alias.operationId = `${route.field.name}_${route.method.toLowerCase()}${route.path.replace(/\W+/g, "_")}`;
    alias.description =
      `Another path of \`${route.aliasOf.method} ${route.aliasOf.path}\`. ${(alias.description as string | undefined) ?? ""}`.trim();
    (doc.paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = alias;
  }
  return moveRefSiblings(doc) as Json;
}

function describe(operation: Operation, route: RestRoute): void {
  operation.operationId = route.field.name;
  // The route's own summary, else the first sentence of the field's description.
  const sentence = route.field.description?.split(/(?<=\.)\s/)[0]?.replace(/\.$/, "");
  operation.summary = route.summary ?? sentence ?? route.field.name;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  if (route.status === 204) responses[204] = { description: "Done; no body" };
  const success = (responses[route.status] ??= {});
  success.description ??= "Success";
  const errors = new Set([...SHARED_ERRORS, ...(route.errors ?? [])]);
  const access = accessOf(route.field);
  if (access !== "public") {
    operation.security = [{ bearerAuth: [] }];
    errors.add(401);
    if (Array.isArray(access)) errors.add(403);
    const who = Array.isArray(access) ? `Roles: ${access.join(", ")}.` : "Any signed-in caller.";
    operation.description = `${who} ${(operation.description as string | undefined) ?? ""}`.trim();
  } else {
    // An optional bearer (`{}` or the token): a token changes what the call may do.
    operation.security = route.optionalBearer ? [{}, { bearerAuth: [] }] : [];
  }
  if (route.refreshCookie === "rotates") operation.security = [];
  if (route.refreshCookie) {
    const description = COOKIE_EFFECT[route.refreshCookie];
    success.headers = { "Set-Cookie": { description, schema: { type: "string" } } };
  }
  if (route.publicCache)
    describePublicCache(operation, responses, success, route.publicCache !== true);
  if (route.path.includes(":")) errors.add(404);
  if (["POST", "PUT", "PATCH"].includes(route.method)) {
    placeBodyArguments(operation, route);
    errors.add(413).add(415);
  }
  for (const code of route.errorCodes ?? []) errors.add(statusOfCode(code));
  operation.responses = { ...responses, ...errorResponses(errors, route.errorCodes) };
  markDefaults(operation, route);
}

/** A public cached read: its caching headers, `If-None-Match` and the 304 (src/http/rest/public-cache.ts). */
function describePublicCache(
  operation: Operation,
  responses: Record<string, Json>,
  success: Json,
  sourced: boolean,
): void {
  const etag = sourced
    ? "Weak validator naming the answer's version (the change stamps of what it is made of)"
    : "Strong validator of the answer's bytes";
  success.headers = {
    ...(success.headers as Json | undefined),
    "Cache-Control": { description: PUBLIC_CACHE_CONTROL, schema: { type: "string" } },
    ETag: { description: etag, schema: { type: "string" } },
  };
  operation.parameters = [
    ...(operation.parameters ?? []),
    {
      name: "If-None-Match",
      in: "header",
      required: false,
      description: "An ETag of an earlier answer; 304 with no body while it is still current",
      schema: { type: "string" },
    },
  ];
  responses[304] = { description: "Not modified: the ETag sent is still current; no body" };
  operation.description = [
    operation.description,
    "Public and cacheable for 60 s; rate limited per IP (RATE_LIMIT_PUBLIC_READS_PER_MINUTE).",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * An argument with a default (page, limit, sortBy…) may be left out. Sofa marks every
 * non-null argument required, and in GraphQL an argument with a default is non-null.
 */
function markDefaults(operation: Operation, route: RestRoute): void {
  const defaults = new Map(
    route.field.args.filter((arg) => arg.defaultValue !== undefined).map((arg) => [arg.name, arg]),
  );
  for (const parameter of operation.parameters ?? []) {
    const arg = defaults.get(parameter.name);
    if (!arg) continue;
    parameter.required = false;
    parameter.schema = { ...(parameter.schema as Json), default: arg.defaultValue };
  }
  const body = bodyOf(operation)?.schema as { required?: string[] } | undefined;
  if (body?.required) body.required = body.required.filter((name) => !defaults.has(name));
}

/**
 * Sofa documents a body route's arguments twice, in the body and as query parameters; the
 * server reads them from the body only, except the route's query arguments and path parameters.
 */
function placeBodyArguments(operation: Operation, route: RestRoute): void {
  const inQuery = route.queryArguments ?? [];
  operation.parameters = (operation.parameters ?? []).filter(
    (parameter) => parameter.in === "path" || inQuery.includes(parameter.name),
  );
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const schema = bodyOf(operation)?.schema as { properties?: Json; required?: string[] };
  if (!schema) return;
  for (const name of [...inQuery, ...inPath]) {
    delete schema.properties?.[name];
    schema.required = schema.required?.filter((field) => field !== name);
  }
  if (Object.keys(schema.properties ?? {}).length === 0) delete operation.requestBody;
}

function bodyOf(operation: Operation): Json | undefined {
  const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
  return body?.content?.["application/json"];
}

/**
 * Sofa leaves a nullable field out of `required` but says nothing of null, which a client
 * generator then types as "absent" only. Fields REST leaves out when null are never null there.
 */
function markNullable(
  components: Record<string, Json>,
  schema: GraphQLSchema,
  omitted: Set<string>,
) {
  for (const [name, component] of Object.entries(components)) {
    const type = schema.getType(name);
    if (!isObjectType(type) && !isInputObjectType(type)) continue;
    const properties = (component.properties ?? {}) as Record<string, Json>;
    const fields = Object.values<{ name: string; type: GraphQLType }>(type.getFields());
    for (const field of fields) {
      const property = properties[field.name];
      if (!property || isNonNullType(field.type)) continue;
      if (isObjectType(type) && omitted.has(field.name)) continue;
      // `nullable` needs a `type` beside it: the referenced schema's, for a $ref.
      const ref = typeof property.$ref === "string" ? property.$ref.split("/").pop()! : "";
      const typeOf = components[ref]?.type ?? property.type;
      properties[field.name] = withoutRefSiblings({ ...property, type: typeOf, nullable: true });
    }
  }
}

/**
 * OpenAPI 3.0 ignores everything beside a `$ref` (a description, a default, `nullable`):
 * such a schema becomes `allOf: [{$ref}]` with the rest beside it, everywhere in the document.
 */
export function moveRefSiblings(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(moveRefSiblings);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node).map(([key, value]) => [key, moveRefSiblings(value)]);
  return withoutRefSiblings(Object.fromEntries(entries) as Json);
}

function withoutRefSiblings(schema: Json): Json {
  if (typeof schema.$ref !== "string") return schema;
  const { $ref, ...rest } = schema;
  const siblings = Object.entries(rest).filter(([, value]) => value !== undefined);
  return siblings.length === 0 ? { $ref } : { allOf: [{ $ref }], ...Object.fromEntries(siblings) };
}
