import { SAMPLE_APPLICATION } from "../../modules/members/sample-application";

type Json = Record<string, unknown>;

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
  middleName: "Reyes",
  noticeVersion: "2026-01",
  startDate: "2026-01-15T00:00:00.000Z",
  endDate: "2027-01-15T00:00:00.000Z",
  maxSlots: 1,
  content: "Sunday service at the camp chapel",
};

const BY_FORMAT: Record<string, unknown> = {
  email: "maria.santos@example.org",
  uuid: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b",
  "date-time": "2026-01-15T00:00:00.000Z",
  uri: "https://example.org",
};

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
  const resolved = resolve(schema, components);
  if (name in BY_NAME) return BY_NAME[name];
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  if (typeof resolved.format === "string" && resolved.format in BY_FORMAT)
    return BY_FORMAT[resolved.format];
  switch (resolved.type) {
    case "string":
      return "text";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    case "array": {
      const item = exampleOf(resolved.items as Json, components, name, depth + 1);
      return item === undefined ? [] : [item];
    }
    default:
      return objectExample(resolved, components, depth);
  }
}

function objectExample(schema: Json, components: Record<string, Json>, depth: number): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = (schema.required ?? []) as string[];
  const names = required.length > 0 ? required : Object.keys(properties);
  const example: Json = {};
  for (const name of names) {
    if (name === "id") continue;
    const value = exampleOf(properties[name], components, name, depth + 1);
    if (value !== undefined) example[name] = value;
  }
  return example;
}

function resolve(schema: Json, components: Record<string, Json>): Json {
  const ref =
    (schema.$ref as string | undefined) ??
    ((schema.allOf as Json[] | undefined)?.[0]?.$ref as string | undefined);
  if (!ref) return schema;
  return components[ref.replace("#/components/schemas/", "")] ?? {};
}
