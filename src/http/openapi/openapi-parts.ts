import {
  ERROR_CODES,
  exampleMessageOf,
  statusOfCode,
  type ErrorCode,
} from "../../errors/app-errors";
import { JSON_BODY_LIMIT_BYTES, sizeInWords } from "../../errors/byte-size";
import { EXAMPLE_FILE_ID } from "../../graphql/rest-route";
import { SAMPLE_APPLICATION } from "../../modules/members/sample-application";

export type Json = Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: "Invalid request (VALIDATION_ERROR with errors[] for field problems, BAD_REQUEST otherwise)",
  401:
    "Missing, invalid, expired or revoked access token; REAUTHENTICATION_REQUIRED where the " +
    "session must have proven the password recently (POST /auth/reauthenticate)",
  403: "The caller's role may not do this",
  404: "No such record",
  409: "Conflicts with the current state",
  413: `Body larger than ${sizeInWords(JSON_BODY_LIMIT_BYTES)}`,
  415: "Body is not JSON",
  429: "Too many requests (see Retry-After)",
  500: "Server failure",
  503: "Database unavailable; retry shortly",
};

/** Codes only the routes that name them (`errorCodes`) answer; every other is usual for its status. */
const OWN_CODES: ErrorCode[] = [
  "INVALID_TOKEN",
  "INVALID_CREDENTIALS",
  "REAUTHENTICATION_REQUIRED",
  "EMAIL_NOT_VERIFIED",
];

const FIELD_ERROR = { path: "email", message: "email must be an email" };

/**
 * The error envelope under each status, in order (400: with the field problems), each with
 * an example per code it may carry, so a client sees what to switch on.
 */
export function errorResponses(statuses: Iterable<number>, extra: readonly ErrorCode[] = []) {
  const responses: Record<string, Json> = {};
  for (const status of [...new Set(statuses)].sort()) {
    const codes = ERROR_CODES.filter(
      (code) =>
        statusOfCode(code) === status && (!OWN_CODES.includes(code) || extra.includes(code)),
    );
    const examples = Object.fromEntries(
      codes.map((code) => {
        const errors = code === "VALIDATION_ERROR" ? { errors: [FIELD_ERROR] } : {};
        const value = { code, message: exampleMessageOf(code), ...errors };
        return [code, { summary: code, value }];
      }),
    );
    const schema = `#/components/schemas/${status === 400 ? "Validation" : ""}ErrorResponse`;
    const retryAfter = {
      description: "Seconds to wait before trying again",
      schema: { type: "integer", example: 60 },
    };
    responses[status] = {
      description: REASONS[status] ?? "Error",
      ...(status === 429 ? { headers: { "Retry-After": retryAfter } } : {}),
      content: { "application/json": { schema: { $ref: schema }, examples } },
    };
  }
  return responses;
}

/** The error envelope; 400's also lists the field problems, each by its path as sent. */
export function errorSchemas(): Json {
  const string = { type: "string" };
  const envelope = (example: ErrorCode, more: Json = {}) => ({
    type: "object",
    required: ["code", "message"],
    properties: {
      ...{ code: { ...string, enum: ERROR_CODES, example }, message: string, ...more },
      error: { description: "Debug detail, outside production only" },
    },
  });
  const path = { ...string, example: "sections.1.type" };
  const fieldError = {
    type: "object",
    required: ["path", "message"],
    properties: { path, message: string },
  };
  return {
    ErrorResponse: envelope("NOT_FOUND"),
    ValidationErrorResponse: envelope("VALIDATION_ERROR", {
      errors: { type: "array", items: fieldError },
    }),
  };
}

/**
 * Values a reader recognises and the server accepts, by argument name: what Swagger UI's
 * "Try it out" starts from. A body argument not named here gets a value from its type.
 */
const BY_NAME: Record<string, unknown> = {
  name: "Maria Santos",
  // The bootstrap administrator the README starts `npm start` with: "Try it out" on login
  // signs in as written.
  email: "admin@example.org",
  password: "Admin#Chaplain1",
  confirmPassword: "Admin#Chaplain1",
  currentPassword: "Admin#Chaplain1",
  newPassword: "Chaplain#2027",
  userAgent: "Swagger UI",
  code: "123456",
  mfaToken: "eyJhbGciOiJIUzI1NiJ9.mfa-step.signature",
  avatar: "https://example.org/avatars/maria.png",
  title: "Philippine Army",
  description: "Chaplaincy service to the soldiers of the Philippine Army",
  reason: "Complete and verified application",
  status: "APPROVED",
  ...SAMPLE_APPLICATION,
  // Where an appointment serves: an office's place in the sample application's city.
  department: "Cebu City Police Office",
  cityMunicipality: "Cebu City",
  middleName: "Reyes",
  noticeVersion: "2026-01",
  startDate: "2026-01-15T00:00:00.000Z",
  endDate: "2027-01-15T00:00:00.000Z",
  maxSlots: 1,
  content: "Sunday service at the camp chapel",
  // The authenticator's six digits, under either name the clients use.
  token: "123456",
  place: "Manila Cathedral, Intramuros, Manila",
  officiant: "Bishop Dr. Rodel Manzo",
  prompt: "How would you support a family keeping vigil in a hospital ICU?",
  contentUrl: "https://www.youtube.com/watch?v=chaplaincy101",
  certificateUrl: EXAMPLE_FILE_ID,
  currentPositionRoleOther: "Hospital chaplain",
  elementarySchool: "Lahug Elementary School",
  secondarySchool: "Cebu City National Science High School",
  tertiaryCollegeEntries: ["BS Psychology, University of San Carlos"],
  postGraduateStudiesEntries: ["Master of Divinity, Asian Theological Seminary"],
  outcome: "PASSED",
  reviewStatus: "APPROVED",
  note: "Checked against the original",
};

const BY_FORMAT: Record<string, unknown> = {
  email: "maria.santos@example.org",
  uuid: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b",
  "date-time": "2026-01-15T00:00:00.000Z",
  uri: "https://example.org",
};

const BY_TYPE: Record<string, unknown> = { string: "text", integer: 1, number: 1, boolean: false };

/**
 * An example of a request body from its schema: the required properties (all of them when
 * none is required, as in an update), each from BY_NAME, its format, enum or type.
 */
export function exampleOf(
  schema: Json | undefined,
  components: Record<string, Json>,
  name = "",
  depth = 0,
): unknown {
  if (!schema || depth > 4) return undefined;
  const ref = (schema.$ref ?? (schema.allOf as Json[] | undefined)?.[0]?.$ref) as
    string | undefined;
  const resolved = ref ? (components[ref.split("/").pop()!] ?? {}) : schema;
  if (name in BY_NAME) return BY_NAME[name];
  if (Array.isArray(resolved.enum)) return resolved.enum[0] as unknown;
  const format = resolved.format as string | undefined;
  if (format && format in BY_FORMAT) return BY_FORMAT[format];
  const type = resolved.type as string;
  if (type in BY_TYPE) return BY_TYPE[type];
  if (type === "array") {
    const item = exampleOf(resolved.items as Json, components, name, depth + 1);
    return item === undefined ? [] : [item];
  }
  const properties = (resolved.properties ?? {}) as Record<string, Json>;
  const required = (resolved.required ?? []) as string[];
  const example: Json = {};
  for (const key of required.length > 0 ? required : Object.keys(properties)) {
    const value = key === "id" ? undefined : exampleOf(properties[key], components, key, depth + 1);
    if (value !== undefined) example[key] = value;
  }
  return example;
}
