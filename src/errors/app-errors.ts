/**
 * The closed set of errors a service may throw. Each carries the stable `code` clients
 * switch on and the HTTP status REST answers with; src/errors/error-mapper.ts is the
 * only place that turns them into responses.
 */

import { bodyTooLarge, JSON_BODY_LIMIT_BYTES } from "./byte-size";

/**
 * Every code, its status and either the message used when none is given or, where each throw
 * words its own, an example of one (for the API documentation).
 */
const ERRORS = {
  VALIDATION_ERROR: { status: 400, example: "The request has invalid fields" },
  BAD_REQUEST: { status: 400, example: "The request body is not valid JSON" },
  INVALID_TOKEN: { status: 400, example: "The token or code is invalid or has expired" },
  UNAUTHENTICATED: { status: 401, fallback: "Authentication is required" },
  INVALID_CREDENTIALS: { status: 401, fallback: "Invalid email or password" },
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    fallback: "Confirm your password first: POST /auth/reauthenticate, then try again",
  },
  FORBIDDEN: { status: 403, fallback: "You are not allowed to do this" },
  EMAIL_NOT_VERIFIED: { status: 403, fallback: "Verify your email address first" },
  NOT_FOUND: { status: 404, example: "No record with this id" },
  CONFLICT: { status: 409, example: "This conflicts with the record's current state" },
  PAYLOAD_TOO_LARGE: { status: 413, example: bodyTooLarge(JSON_BODY_LIMIT_BYTES) },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, example: "The request body must be JSON" },
  TOO_MANY_REQUESTS: { status: 429, example: "Too many requests; try again later" },
  INTERNAL_SERVER_ERROR: { status: 500, example: "Something went wrong" },
  SERVICE_UNAVAILABLE: {
    status: 503,
    fallback: "The service is temporarily unavailable, try again shortly",
  },
} as const satisfies Record<string, { status: number; fallback?: string; example?: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The HTTP status a code answers with (REST, and `extensions.status` on GraphQL). */
export const statusOfCode = (code: ErrorCode): number => ERRORS[code].status;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** A message as the service words it for this code, for the documented examples. */
export function exampleMessageOf(code: ErrorCode): string {
  const row: { fallback?: string; example?: string } = ERRORS[code];
  return row.fallback ?? row.example ?? code;
}

export interface FieldError {
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message?: string,
  ) {
    super(message);
  }
}

/** A class of the table's code: its message may be left out where the table has a fallback. */
type AppErrorClass<C extends ErrorCode> = (typeof ERRORS)[C] extends { fallback: string }
  ? new (message?: string) => AppError
  : new (message: string) => AppError;

/** The base of each error class below, from its row of ERRORS. */
function appError<C extends ErrorCode>(code: C): AppErrorClass<C> {
  const row: { status: number; fallback?: string } = ERRORS[code];
  return class extends AppError {
    constructor(message = row.fallback) {
      super(code, row.status, message);
    }
  };
}

export class BadRequestError extends appError("BAD_REQUEST") {}
export class InvalidTokenError extends appError("INVALID_TOKEN") {}
export class UnauthenticatedError extends appError("UNAUTHENTICATED") {}
export class InvalidCredentialsError extends appError("INVALID_CREDENTIALS") {}
/** The session is live but did not prove the password recently enough for what it asks. */
export class ReauthenticationRequiredError extends appError("REAUTHENTICATION_REQUIRED") {}
export class ForbiddenError extends appError("FORBIDDEN") {}
export class EmailNotVerifiedError extends appError("EMAIL_NOT_VERIFIED") {}
export class NotFoundError extends appError("NOT_FOUND") {}
export class ConflictError extends appError("CONFLICT") {}
export class PayloadTooLargeError extends appError("PAYLOAD_TOO_LARGE") {}
export class UnsupportedMediaTypeError extends appError("UNSUPPORTED_MEDIA_TYPE") {}
export class ServiceUnavailableError extends appError("SERVICE_UNAVAILABLE") {}

/**
 * The field paths of the request that failed its checks. With one problem its text is the
 * message (clients show `message`); with several, a summary that points at `errors`.
 */
export class ValidationError extends appError("VALIDATION_ERROR") {
  constructor(
    readonly errors: FieldError[],
    message = errors.length === 1 ? errors[0].message : "The request has invalid fields",
  ) {
    super(message);
  }

  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }]);
  }
}

/** With the Retry-After header. */
export class TooManyRequestsError extends appError("TOO_MANY_REQUESTS") {
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}
