/**
 * Raw REST inputs (path, query string, JSON body) checked against an operation's GraphQL
 * argument types: the REST gate's one argument check, also used by the plain routes that take
 * an operation's arguments (the CSV export).
 */
import {
  coerceInputValue,
  getNullableType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
} from "graphql";
import { ValidationError, type FieldError } from "../errors/app-errors";

export type RawArguments = Record<string, unknown>;

/**
 * Checks the raw REST inputs of one operation against its GraphQL argument types, the same
 * coercion GraphQL itself applies, so a bad value is reported as a 400 naming its field
 * (Sofa alone turns it into a nameless error or a 500). Returns the operation's variables:
 * unknown fields removed at every level, explicit nulls of optional fields kept (so a body
 * can clear a field; Sofa alone would drop them).
 */
export function checkArguments(args: readonly GraphQLArgument[], raw: RawArguments): RawArguments {
  const problems: FieldError[] = [];
  const clean: RawArguments = {};
  for (const arg of args) {
    const value = raw[arg.name];
    if (value === undefined || value === null) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) {
        problems.push({ path: arg.name, message: `${arg.name} is required` });
      } else if (value === null && !isNonNullType(arg.type)) {
        clean[arg.name] = null;
      }
      continue;
    }
    const stripped = stripUnknownFields(fromQueryString(value, arg.type), arg.type);
    coerceInputValue(stripped, arg.type, (path, _invalid, error) => {
      problems.push(describe([arg.name, ...path], error.message));
    });
    clean[arg.name] = stripped;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return clean;
}

/** Query strings and path parameters arrive as text; read numbers and booleans like GraphQL variables. */
function fromQueryString(value: unknown, type: GraphQLInputType): unknown {
  if (typeof value !== "string") return value;
  const named = getNullableType(type);
  if ((named === GraphQLInt || named === GraphQLFloat) && /^-?\d+(\.\d+)?$/.test(value.trim())) {
    return Number(value);
  }
  if (named === GraphQLBoolean && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** The contract ignores unknown fields instead of refusing them; GraphQL would refuse. */
function stripUnknownFields(value: unknown, type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    return Array.isArray(value)
      ? value.map((item) => stripUnknownFields(item, inner.ofType))
      : value;
  }
  if (
    isInputObjectType(inner) &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  ) {
    const fields = inner.getFields();
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key in fields)
        .map(([key, item]) => [key, stripUnknownFields(item, fields[key].type)]),
    );
  }
  return value;
}

/** GraphQL reports a missing nested field at its parent; the contract wants the field's own path. */
function describe(path: (string | number)[], message: string): FieldError {
  const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(message);
  if (missing)
    return { path: [...path, missing[1]].join("."), message: `${missing[1]} is required` };
  return { path: path.join("."), message };
}
