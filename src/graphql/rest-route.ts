import type { GraphQLField, GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";
import { accessOf } from "./access";
import type { StampedSource } from "../db/change-stamps";
import type { ErrorCode } from "../errors/app-errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The REST groups, in the order OpenAPI lists them (sign in first), with what each holds. */
export const REST_TAGS = {
  Auth: "Register, sign in and out, the access token and the refreshToken cookie, email verification, password reset and MFA.",
  Users:
    "The caller's own account and, for administrators, every account; data exports of an account.",
  Members: "Membership applications and their review by administrators.",
  "Public profiles":
    "A member's public page: what it shows, the owner's edits (banner, church, education, certificates, public records) and its followers.",
  "Office titles": "The hierarchy of chaplain office titles, from Chief Chaplain to barangay.",
  "Office holders": "Who holds which office title, since when, until when.",
  "Branch services": "The branches of service an applicant may choose (public lists).",
  Onboarding:
    "After approval: requirements, courses, payment, the oath, and the administrators' review of them.",
  Interviews:
    "Interviewers and their slots, members' online interview bookings and their outcomes.",
  Credentials: "The member's ID card, certificate and QR code, rendered by the service.",
  Membership:
    "The membership year the oath starts: its renewal, the administrators' verification, revocation of credentials.",
  Settings: "The organisation's identity printed on every credential and mail.",
  Events: "The organisation's events: public pages, members' details, administration.",
  News: "News posts and blogs: published ones on the public pages, all for administrators.",
  Audit: "The log of administrative acts, for administrators, and each account's own activity.",
  Files:
    "Uploaded documents and images: their records here; their bytes over POST /files, GET /files/{id} (signed links) and GET /files/public/{id}.",
  Reports:
    "Counts for the office (members, onboarding, payments, interviews), each one aggregation; also as CSV (`?format=csv` or `Accept: text/csv`). Administrators only.",
  Webhooks:
    "Endpoints told of each change the public pages show (Standard Webhooks signatures), and their delivery logs. Administrators only.",
} as const;

export type RestTag = keyof typeof REST_TAGS;

/**
 * A file's id as POST /files answers it (a UUID v7), for the examples of inputs that name a
 * file: upload first, then send the id the upload answered (requests.http shows the order).
 */
export const EXAMPLE_FILE_ID = "0194f3a2-6c1e-7b45-9a0d-3e5f7a9b1c2d";

/** What an operation's REST path says beyond its method and path. */
export interface RestOptions {
  tag: RestTag;
  /** Success status (default 200); 204 answers with no body. */
  status?: 200 | 201 | 204;
  /** Error statuses beyond those every route shares and those implied by auth and ids. */
  errors?: number[];
  /** Codes beyond each status's usual one (401 UNAUTHENTICATED…), each with its example. */
  errorCodes?: ErrorCode[];
  /** Arguments a body route reads from the query string (`POST /auth/reset-password?token=`). */
  queryArguments?: string[];
  /** Top-level response fields left out when null ("no accessToken" rather than `null`). */
  omitWhenNull?: string[];
  /** OpenAPI summary; without it, the first sentence of the field's description. */
  summary?: string;
  /** The request body's example in OpenAPI, where the one made from the schema would not do. */
  example?: Record<string, unknown>;
  /** A public route where a bearer token, when sent, lets the caller do more (register). */
  optionalBearer?: boolean;
  /** What the route does with the refreshToken cookie (documented in OpenAPI). */
  refreshCookie?: "sets" | "rotates" | "clears";
  /**
   * A public read whose answer is the same for every caller, so shared caches may keep it:
   * `Cache-Control: public, max-age=60`, an ETag, 304 on a matching `If-None-Match`, and the
   * per-IP public-read rate limit. Only a public GET may say so. With `sources`, the
   * collections the answer is made of, the ETag is their change stamps (src/db/change-stamps.ts)
   * and a 304 is answered without running the read; `true` alone hashes the finished answer.
   */
  publicCache?: true | PublicCacheSources;
  /**
   * Further paths of the same operation (the organisation's client names some otherwise): each
   * runs this field with the same arguments, access, audit and answer; only the path differs.
   */
  aliases?: RestAlias[];
}

/** The collections a public read's answer is made of: any write to one changes its ETag. */
export interface PublicCacheSources {
  sources: StampedSource[];
}

/** Another method and path of one operation; its path parameters are the operation's own. */
export interface RestAlias {
  method: HttpMethod;
  path: string;
}

/** One REST path of /api/v1 and the root field it runs. */
export interface RestRoute extends RestOptions {
  operation: `${"Query" | "Mutation"}.${string}`;
  field: GraphQLField<unknown, unknown>;
  method: HttpMethod;
  /** Express/Sofa syntax relative to /api/v1, `:name` for path parameters. */
  path: string;
  status: 200 | 201 | 204;
  /** On an alias's route: the operation's own method and path, which it runs. */
  aliasOf?: RestAlias;
}

type RestExtension = Pick<RestRoute, "method" | "path"> & RestOptions;

/** The operation's REST method and path under /api/v1 (`:name` for path parameters). */
export function Rest(method: HttpMethod, path: string, options: RestOptions): MethodDecorator {
  const rest: RestExtension = { method, path, ...options };
  return Extensions({ rest });
}

/**
 * Every root field's REST route, read off the built schema: a field without `@Rest` stops the
 * service from starting, so each REST path is exactly one operation and every operation has one,
 * plus its aliases (two routes on one method and path stop it too). Ordered by group, then path,
 * literal segments before parameters (`/users/current` is matched before `/users/:userId`).
 */
export function restRoutes(schema: GraphQLSchema): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const rest = field.extensions.rest as RestExtension | undefined;
      const operation = `${root!.name as "Query" | "Mutation"}.${field.name}` as const;
      if (!rest) throw new Error(`${operation} has no REST route (@Rest on its resolver)`);
      // A cached answer is served to whoever asks next: it must not depend on the caller.
      const cachedNotPublic = (method: HttpMethod) =>
        method !== "GET" || accessOf(field) !== "public" || rest.optionalBearer;
      if (
        rest.publicCache &&
        [rest, ...(rest.aliases ?? [])].some((r) => cachedNotPublic(r.method))
      )
        throw new Error(`${operation}: publicCache is for public GET routes only`);
      const { aliases = [], ...own } = rest;
      const route: RestRoute = { ...own, operation, field, status: rest.status ?? 200 };
      routes.push(route);
      for (const alias of aliases) {
        routes.push({ ...route, ...alias, aliasOf: { method: route.method, path: route.path } });
      }
    }
  }
  const tags = Object.keys(REST_TAGS);
  const key = (route: RestRoute) =>
    `${tags.indexOf(route.tag)}${route.path.replace(/\/(:?)/g, (_all, param) => (param ? "/1" : "/0"))} ${route.method}`;
  routes.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const seen = new Map<string, string>();
  for (const { method, path, operation } of routes) {
    const twin = seen.get(`${method} ${path}`);
    if (twin) throw new Error(`${operation} and ${twin} both claim ${method} ${path}`);
    seen.set(`${method} ${path}`, operation);
  }
  return routes;
}
