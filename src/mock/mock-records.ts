import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLObjectType,
} from "graphql";
import { publicProfileUrl } from "../modules/members/public-url";
import { personaOf, type Persona } from "./persona";
import { SHAPES } from "./mock-shapes";
import { scalarValue } from "./mock-values";
import { seeded, type Random } from "./random";

/** The seed of `npm run mock`: the same made-up world on every start. */
export const MOCK_SEED = "chaplaincy";
/** How many records every mocked list holds, so paging has pages to turn. */
export const MOCK_TOTAL = 23;
/**
 * Where the mocked public member page lives: the web client's default address (DEFAULT_APP_URL in
 * src/config.ts).
 */
const MOCK_APP_URL = "http://localhost:3000";

/** Items in a nested list (sections, references, history): a short realistic list. */
const NESTED_LIST_LENGTH = 2;
/** Past this depth a nullable object is null and a list empty: the schema has no cycles deeper. */
const MAX_DEPTH = 5;

export interface RecordOptions {
  seed: string;
  /** The record's number in its list (enums cycle through their values with it). */
  index: number;
  /** What makes the record itself: its id when the caller named one, else its index. */
  key: string;
  /** The person the record is about; nested objects share it, list items get their own. */
  persona?: Persona;
}

/**
 * The index-th person of the mocked world: the member, the user and the office holder of the
 * same number are one person, so a name met in one answer is the same person in every other.
 */
export function personaAt(seed: string, index: number): Persona {
  return personaOf(seeded(seed, "person", index));
}

/**
 * Every field of an object type, made up from a generator seeded by the record's type and key:
 * the same record (same type, same key) comes out the same whatever asked for it first.
 */
export function recordOf(
  type: GraphQLObjectType,
  options: RecordOptions,
  depth = 0,
): Record<string, unknown> {
  const random = seeded(options.seed, type.name, options.key);
  const persona = options.persona ?? personaAt(options.seed, options.index);
  const record: Record<string, unknown> = {};
  for (const field of Object.values(type.getFields())) {
    record[field.name] = fieldValue(type, field, { ...options, persona }, random, depth);
  }
  // Made independently, the two dates could come out in the wrong order.
  if (typeof record.createdAt === "string" && typeof record.updatedAt === "string")
    if (record.updatedAt < record.createdAt) record.updatedAt = record.createdAt;
  if (typeof record.publicUrl === "string" && typeof record.uniqueId === "string")
    record.publicUrl = publicProfileUrl(MOCK_APP_URL, record.uniqueId);
  SHAPES[type.name]?.(record, { index: options.index, persona });
  return record;
}

function fieldValue(
  parent: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  options: RecordOptions & { persona: Persona },
  random: Random,
  depth: number,
): unknown {
  const nullable = getNullableType(field.type);
  const named = getNamedType(field.type);
  if (isListType(nullable)) {
    if (!isObjectType(named) || depth >= MAX_DEPTH) return [];
    return Array.from({ length: NESTED_LIST_LENGTH }, (_, i) =>
      recordOf(
        named,
        { seed: options.seed, index: options.index + i, key: `${options.key}/${field.name}/${i}` },
        depth + 1,
      ),
    );
  }
  if (isObjectType(named)) {
    if (depth >= MAX_DEPTH) return isNonNullType(field.type) ? {} : null;
    return recordOf(named, { ...options, key: `${options.key}/${field.name}` }, depth + 1);
  }
  if (isEnumType(named)) return enumValue(named, field.name, options);
  const value = scalarValue(named.name, {
    seed: options.seed,
    typeName: parent.name,
    fieldName: field.name,
    persona: options.persona,
    random,
    index: options.index,
  });
  return value === null && isNonNullType(field.type)
    ? scalarValue(named.name, {
        seed: options.seed,
        typeName: "",
        fieldName: "",
        persona: options.persona,
        random,
        index: options.index,
      })
    : value;
}

/** Enums cycle with the record's number, so a page shows every value (a person's gender excepted). */
function enumValue(
  type: GraphQLEnumType,
  fieldName: string,
  options: RecordOptions & { persona: Persona },
): string {
  const values = type.getValues().map((value) => value.value as string);
  const cycled = values[options.index % values.length];
  if (fieldName === "gender" && values.includes(options.persona.gender) && options.index % 3 !== 2)
    return options.persona.gender;
  return cycled;
}
