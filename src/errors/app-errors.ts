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
  | "REAUTHENTICATION_REQUIRED"
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
  abstract readonly code: ErrorCode;
  abstract readonly status: number;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
}

export class BadRequestError extends AppError {
  readonly code = "BAD_REQUEST";
  readonly status = 400;
}

export class ValidationError extends AppError {
  readonly code = "VALIDATION_ERROR";
  readonly status = 400;
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

export class InvalidTokenError extends AppError {
  readonly code = "INVALID_TOKEN";
  readonly status = 400;
}

export class UnauthenticatedError extends AppError {
  readonly code = "UNAUTHENTICATED";
  readonly status = 401;
  constructor(message = "Authentication is required") {
    super(message);
  }
}

export class InvalidCredentialsError extends AppError {
  readonly code = "INVALID_CREDENTIALS";
  readonly status = 401;
  constructor(message = "Invalid email or password") {
    super(message);
  }
}

/** The session is live but did not prove the password recently enough for what it asks. */
export class ReauthenticationRequiredError extends AppError {
  readonly code = "REAUTHENTICATION_REQUIRED";
  readonly status = 401;
  constructor(message = "Confirm your password first: POST /auth/reauthenticate, then try again") {
    super(message);
  }
}

export class ForbiddenError extends AppError {
  readonly code = "FORBIDDEN";
  readonly status = 403;
  constructor(message = "You are not allowed to do this") {
    super(message);
  }
}

export class EmailNotVerifiedError extends AppError {
  readonly code = "EMAIL_NOT_VERIFIED";
  readonly status = 403;
  constructor(message = "Verify your email address first") {
    super(message);
  }
}

export class NotFoundError extends AppError {
  readonly code = "NOT_FOUND";
  readonly status = 404;
}

export class ConflictError extends AppError {
  readonly code = "CONFLICT";
  readonly status = 409;
}

export class PayloadTooLargeError extends AppError {
  readonly code = "PAYLOAD_TOO_LARGE";
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends AppError {
  readonly code = "UNSUPPORTED_MEDIA_TYPE";
  readonly status = 415;
}

export class TooManyRequestsError extends AppError {
  readonly code = "TOO_MANY_REQUESTS";
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}

export class ServiceUnavailableError extends AppError {
  readonly code = "SERVICE_UNAVAILABLE";
  readonly status = 503;
  constructor(message = "The service is temporarily unavailable, try again shortly") {
    super(message);
  }
}
