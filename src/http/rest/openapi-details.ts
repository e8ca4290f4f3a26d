import {
  isInputObjectType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
  type GraphQLType,
} from "graphql";
import { REST_ROUTES } from "./rest-routes";

type Json = Record<string, unknown>;

/**
 * The groups in the order a reader meets them (sign in first). A tag a route names that is
 * not here still gets listed, after these.
 */
const TAGS: { name: string; description: string }[] = [
  {
    name: "Auth",
    description:
      "Register, sign in and out, the access token and the refreshToken cookie, email verification, password reset and MFA.",
  },
  {
    name: "Users",
    description:
      "The caller's own account and, for administrators, every account; data exports of an account.",
  },
  { name: "Members", description: "Membership applications and their review by administrators." },
  {
    name: "Office titles",
    description: "The hierarchy of chaplain office titles, from Chief Chaplain to barangay.",
  },
  { name: "Office holders", description: "Who holds which office title, since when, until when." },
  {
    name: "Branch services",
    description: "The branches of service an applicant may choose (public lists).",
  },
  { name: "Audit", description: "The log of administrative acts, for administrators." },
];

export function orderedTags(): { name: string; description: string }[] {
  const known = new Set(TAGS.map((tag) => tag.name));
  const others = [...new Set(REST_ROUTES.map((route) => route.tag))]
    .filter((name) => !known.has(name))
    .map((name) => ({ name, description: `Operations on ${name.toLowerCase()}.` }));
  return [...TAGS, ...others];
}

/** The route's own summary, else the first sentence of the field's description, else its name. */
export function summaryOf(
  field: GraphQLField<unknown, unknown> | undefined,
  name: string,
  own?: string,
): string {
  if (own) return own;
  const sentence = field?.description
    ?.split(/(?<=\.)\s/)[0]
    ?.replace(/\.$/, "")
    .trim();
  if (sentence) return sentence;
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Sofa leaves a nullable field out of `required` but says nothing of null, which a client
 * generator then types as "absent" only. Fields REST leaves out when null (omitWhenNull) are
 * never null there.
 */
export function markNullable(components: Record<string, Json>, schema: GraphQLSchema): void {
  const omitted = new Set(REST_ROUTES.flatMap((route) => route.omitWhenNull ?? []));
  for (const [name, component] of Object.entries(components)) {
    const type = schema.getType(name);
    if (!isObjectType(type) && !isInputObjectType(type)) continue;
    const properties = (component.properties ?? {}) as Record<string, Json>;
    const fields = Object.values<{ name: string; type: GraphQLType }>(type.getFields());
    for (const { name: fieldName, type: fieldType } of fields) {
      const property = properties[fieldName];
      if (!property || isNonNullType(fieldType)) continue;
      if (isObjectType(type) && omitted.has(fieldName)) continue;
      // `nullable` needs a `type` beside it: the referenced schema's, for a $ref.
      const target = refTarget(property, components);
      const typeOf = target?.type ?? property.type;
      properties[fieldName] = withoutRefSiblings({ ...property, type: typeOf, nullable: true });
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
  const entries = Object.entries(node as Json).map(([key, value]) => [key, moveRefSiblings(value)]);
  return withoutRefSiblings(Object.fromEntries(entries) as Json);
}

function refTarget(property: Json, components: Record<string, Json>): Json | undefined {
  const ref = property.$ref;
  return typeof ref === "string" ? components[ref.replace("#/components/schemas/", "")] : undefined;
}

function withoutRefSiblings(schema: Json): Json {
  if (typeof schema.$ref !== "string") return schema;
  const { $ref, ...rest } = schema;
  const siblings = Object.entries(rest).filter(([, value]) => value !== undefined);
  return siblings.length === 0 ? { $ref } : { allOf: [{ $ref }], ...Object.fromEntries(siblings) };
}
