/**
 * The closed set of errors a service may throw. Each carries the stable `code` clients
 * switch on and the HTTP status REST answers with; src/errors/error-mapper.ts is the
 * only place that turns them into responses.
 */
export type ErrorCode =
  | "BAD_REQUEST"
  | "VALIDATION_ERROR"
  | "INVALID_TOKEN"
  | "UNAUTHENTICATED"
  | "INVALID_CREDENTIALS"
  | "FORBIDDEN"
  | "EMAIL_NOT_VERIFIED"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

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

interface AppErrorClass {
  new (message: string): AppError;
}

interface DefaultedAppErrorClass {
  new (message?: string): AppError;
}

/**
 * The base of each error class below: its code, its status and, where there is one, the
 * message used when the thrower gives none (without one, a message is required).
 */
function appError(code: ErrorCode, status: number): AppErrorClass;
function appError(code: ErrorCode, status: number, fallback: string): DefaultedAppErrorClass;
function appError(code: ErrorCode, status: number, fallback?: string): DefaultedAppErrorClass {
  return class extends AppError {
    constructor(message = fallback) {
      super(code, status, message);
    }
  };
}

export class BadRequestError extends appError("BAD_REQUEST", 400) {}
export class InvalidTokenError extends appError("INVALID_TOKEN", 400) {}
export class UnauthenticatedError extends appError(
  "UNAUTHENTICATED",
  401,
  "Authentication is required",
) {}
export class InvalidCredentialsError extends appError(
  "INVALID_CREDENTIALS",
  401,
  "Invalid email or password",
) {}
export class ForbiddenError extends appError("FORBIDDEN", 403, "You are not allowed to do this") {}
export class EmailNotVerifiedError extends appError(
  "EMAIL_NOT_VERIFIED",
  403,
  "Verify your email address first",
) {}
export class NotFoundError extends appError("NOT_FOUND", 404) {}
export class ConflictError extends appError("CONFLICT", 409) {}
export class PayloadTooLargeError extends appError("PAYLOAD_TOO_LARGE", 413) {}
export class UnsupportedMediaTypeError extends appError("UNSUPPORTED_MEDIA_TYPE", 415) {}
export class ServiceUnavailableError extends appError(
  "SERVICE_UNAVAILABLE",
  503,
  "The service is temporarily unavailable, try again shortly",
) {}

/** The field paths of the request that failed its checks. */
export class ValidationError extends appError("VALIDATION_ERROR", 400) {
  constructor(
    readonly errors: FieldError[],
    message = "The request has invalid fields",
  ) {
    super(message);
  }

  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }], message);
  }
}

/** With the Retry-After header. */
export class TooManyRequestsError extends appError("TOO_MANY_REQUESTS", 429) {
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}
