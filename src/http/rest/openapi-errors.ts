import { statusOfCode, type ErrorCode } from "../../errors/app-errors";

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

/** Each code with a message as the service words it, for the documented examples. */
const CODES: Record<ErrorCode, { message: string; errors?: Json[] }> = {
  VALIDATION_ERROR: {
    message: "The request has invalid fields",
    errors: [{ path: "email", message: "email must be an email" }],
  },
  BAD_REQUEST: { message: "The request body is not valid JSON" },
  INVALID_TOKEN: { message: "The token or code is invalid or has expired" },
  UNAUTHENTICATED: { message: "Authentication is required" },
  INVALID_CREDENTIALS: { message: "Invalid email or password" },
  REAUTHENTICATION_REQUIRED: {
    message: "Confirm your password first: POST /auth/reauthenticate, then try again",
  },
  FORBIDDEN: { message: "You are not allowed to do this" },
  EMAIL_NOT_VERIFIED: { message: "Verify your email address first" },
  NOT_FOUND: { message: "No record with this id" },
  CONFLICT: { message: "This conflicts with the record's current state" },
  PAYLOAD_TOO_LARGE: { message: "The request body exceeds 1 MiB" },
  UNSUPPORTED_MEDIA_TYPE: { message: "The request body must be JSON" },
  TOO_MANY_REQUESTS: { message: "Too many requests; try again later" },
  INTERNAL_SERVER_ERROR: { message: "Something went wrong" },
  SERVICE_UNAVAILABLE: {
    message: "The service is temporarily unavailable, try again shortly",
  },
};

/** The code every route answering a status may give; a route adds its own (RestRoute.errorCodes). */
const USUAL_CODES: Partial<Record<number, ErrorCode[]>> = {
  400: ["VALIDATION_ERROR", "BAD_REQUEST"],
  401: ["UNAUTHENTICATED"],
  403: ["FORBIDDEN"],
  404: ["NOT_FOUND"],
  409: ["CONFLICT"],
  413: ["PAYLOAD_TOO_LARGE"],
  415: ["UNSUPPORTED_MEDIA_TYPE"],
  429: ["TOO_MANY_REQUESTS"],
  500: ["INTERNAL_SERVER_ERROR"],
  503: ["SERVICE_UNAVAILABLE"],
};

/**
 * The error envelope under each status, in order (400: with the field problems), each with
 * an example per code it may carry, so a client sees what to switch on.
 */
export function errorResponses(
  statuses: Iterable<number>,
  extraCodes: readonly ErrorCode[] = [],
): Record<string, Json> {
  const responses: Record<string, Json> = {};
  for (const status of [...new Set(statuses)].sort()) {
    const schema = status === 400 ? "ValidationErrorResponse" : "ErrorResponse";
    const codes = [
      ...(USUAL_CODES[status] ?? []),
      ...extraCodes.filter((code) => statusOfCode(code) === status),
    ];
    const examples = Object.fromEntries(
      [...new Set(codes)].map((code) => {
        const { message, errors } = CODES[code];
        return [code, { summary: code, value: { code, message, ...(errors ? { errors } : {}) } }];
      }),
    );
    responses[String(status)] = {
      description: REASONS[status] ?? "Error",
      ...(status === 429
        ? {
            headers: {
              "Retry-After": {
                description: "Seconds to wait before trying again",
                schema: { type: "integer", example: 60 },
              },
            },
          }
        : {}),
      content: {
        "application/json": { schema: { $ref: `#/components/schemas/${schema}` }, examples },
      },
    };
  }
  return responses;
}

export function errorSchemas(): Json {
  return {
    ErrorResponse: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: Object.keys(CODES), example: "NOT_FOUND" },
        message: { type: "string" },
        error: { description: "Debug detail, outside production only" },
      },
    },
    ValidationErrorResponse: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: Object.keys(CODES), example: "VALIDATION_ERROR" },
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
        error: { description: "Debug detail, outside production only" },
      },
    },
  };
}
