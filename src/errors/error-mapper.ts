import { GraphQLError } from "graphql";
import {
  AppError,
  BadRequestError,
  ServiceUnavailableError,
  ValidationError,
  type FieldError,
} from "./app-errors";

export interface ErrorBody {
  code: string;
  message: string;
  errors?: FieldError[];
  /** Debug detail, outside production only. */
  error?: unknown;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

export interface ErrorMappingOptions {
  exposeDetail: boolean;
  /**
   * Leave GraphQL's "Did you mean …?" out of every message, field errors included: it spells
   * out enum values and field names to whoever guesses. By default wherever detail is hidden
   * (production).
   */
  hideSuggestions?: boolean;
}

/**
 * The one place where any thrown thing becomes `{code, message}` and a status, for REST
 * (Sofa and plain express routes) and /graphql alike. Unknown errors are masked (their
 * text may hold internals); whoever holds the request's logger logs them (isUnexpected).
 */
export function toErrorResponse(error: unknown, options: ErrorMappingOptions): ErrorResponse {
  const known = recognise(error);
  if (known) {
    const hide = options.hideSuggestions ?? !options.exposeDetail;
    const text = (message: string) => (hide ? withoutSuggestion(message) : message);
    const body: ErrorBody = { code: known.code, message: text(known.message) };
    if (known instanceof ValidationError)
      body.errors = known.errors.map((problem) => ({ ...problem, message: text(problem.message) }));
    return { status: known.status, body, headers: known.headers };
  }
  const body: ErrorBody = {
    code: "INTERNAL_SERVER_ERROR",
    message: "Something went wrong on our side",
  };
  if (options.exposeDetail && error instanceof Error)
    body.error = { name: error.name, message: error.message };
  return { status: 500, body };
}

/** A message without graphql-js's suggestion (`… enum. Did you mean the enum value "X"?`). */
export function withoutSuggestion(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, "");
}

/** Our own errors, wherever GraphQL wrapped them, plus the client and database failures we can name. */
export function recognise(error: unknown, outermost = true): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError) {
    if (error.originalError && error.originalError !== error) {
      const inner = recognise(error.originalError, false);
      if (inner) return inner;
    }
    const known = fromGraphQLRequestError(error);
    if (known || !outermost) return known;
    // Raised by GraphQL itself before any resolver ran (e.g. a subscription the schema lacks).
    if (!error.originalError && !error.path) return new BadRequestError(error.message);
    return undefined;
  }
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  return undefined;
}

/**
 * GraphQL's own complaints about a request (bad variables, unknown fields) are client
 * errors. Variable coercion errors name the variable and, for nested input, the path
 * inside it: `Variable "$sections" got invalid value …; … at "sections[1].type"`.
 */
function fromGraphQLRequestError(error: GraphQLError): AppError | undefined {
  const variable = /^Variable "\$(\w+)"/.exec(error.message);
  if (variable) {
    const at = /at "([^"]+)"/.exec(error.message);
    const path = toContractPath(at ? at[1] : variable[1]);
    const reason = error.message.replace(/^Variable "\$\w+" (got invalid value .*?; )?/, "");
    return ValidationError.field(path, sentence(reason));
  }
  if (error.extensions?.code === "GRAPHQL_VALIDATION_FAILED") {
    return ValidationError.field("", error.message);
  }
  // Apollo's refusals of a request (no query, a mutation over GET, CSRF, batching) carry a 4xx.
  const status = error.extensions?.http?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new BadRequestError(error.message);
  }
  return undefined;
}

/** `sections[1].type` (GraphQL's notation) → `sections.1.type` (the contract's). */
export function toContractPath(graphqlPath: string): string {
  return graphqlPath.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
}

function sentence(text: string): string {
  return text.replace(/\s*at "[^"]+"\.?$/, "").trim();
}

function isDatabaseUnavailable(error: unknown): boolean {
  // Not `instanceof Error`: errors raised by Node's own sockets may come from another realm.
  if (typeof error !== "object" || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (typeof name !== "string" || typeof message !== "string") return false;
  return (
    /^Mongo(ose)?(ServerSelection|Network|NetworkTimeout|NotConnected|TopologyClosed|PoolCleared)Error$/.test(
      name,
    ) ||
    /buffering timed out|Client must be connected|connection .* closed|context canceled/i.test(
      message,
    ) ||
    isBrokenConnection(error)
  );
}

/**
 * A write on a pooled connection the engine has just closed: the driver can pass the socket's
 * raw EPIPE/ECONNRESET on instead of a MongoNetworkError. Requests only ever talk
 * to the database (mail and Redis never fail a request), so a broken socket is the database.
 */
function isBrokenConnection(error: object): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EPIPE" || code === "ECONNRESET";
}

/** True for errors nobody planned for: these are logged in full and answered with a 500. */
export function isUnexpected(error: unknown): boolean {
  return recognise(error) === undefined;
}
