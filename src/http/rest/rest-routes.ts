import type { ErrorCode } from "../../errors/app-errors";
import { AUTH_ROUTES } from "./auth-routes";
import { RECORD_ROUTES } from "./record-routes";

export const API_BASE = "/api/v1";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One REST path of /api/v1 and the GraphQL root field it runs. */
export interface RestRoute {
  /** `Query.field` or `Mutation.field` */
  operation: `${"Query" | "Mutation"}.${string}`;
  method: HttpMethod;
  /** Express/Sofa syntax relative to /api/v1, `:name` for path parameters. */
  path: string;
  /** Success status; 204 answers with no body. */
  status: 200 | 201 | 204;
  tag: string;
  /** Error statuses beyond those every route shares (400, 429, 500, 503) and those implied by auth and ids. */
  errors?: number[];
  /** Arguments a body route reads from the query string (`POST /auth/reset-password?token=`). */
  queryArguments?: string[];
  /** Top-level response fields left out when null ("no accessToken" rather than `null`). */
  omitWhenNull?: string[];
  /** OpenAPI summary; without it, the first sentence of the GraphQL field's description. */
  summary?: string;
  /** Codes beyond each status's usual one (401 UNAUTHENTICATED…), each with its example. */
  errorCodes?: ErrorCode[];
  /** The request body's example in OpenAPI, where the one made from the schema would not do. */
  example?: Record<string, unknown>;
  /** A public route where a bearer token, when sent, lets the caller do more (register). */
  optionalBearer?: boolean;
  /** What the route does with the refreshToken cookie (documented in OpenAPI). */
  refreshCookie?: "sets" | "rotates" | "clears";
}

/**
 * The documented v1 paths, in the order they are mounted and documented (Auth first). Every
 * Query and Mutation field must appear here (a test checks), so each REST route is exactly one
 * GraphQL operation and nothing is mounted by accident. The rows are in auth-routes.ts and
 * record-routes.ts.
 */
export const REST_ROUTES: RestRoute[] = [...AUTH_ROUTES, ...RECORD_ROUTES];

export function fieldOf(route: RestRoute): { kind: "Query" | "Mutation"; field: string } {
  const [kind, field] = route.operation.split(".") as ["Query" | "Mutation", string];
  return { kind, field };
}
