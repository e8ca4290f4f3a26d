import { addMocksToSchema } from "@graphql-tools/mock";
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isLeafType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { assertFieldAccess } from "../graphql/access";
import type { RequestContext } from "../graphql/context";
import { NotFoundError } from "../errors/app-errors";
import { listRecords, rosterIndexOf, rosterRecord } from "./mock-lists";
import { MOCK_SEED, MOCK_TOTAL, recordOf } from "./mock-records";
import { argumentValidator } from "./mock-validation";
import { scalarValue } from "./mock-values";
import { personaOf } from "./persona";
import { seeded } from "./random";

export { MOCK_TOTAL };
/** A well-formed id the mock answers 404 for, so a client can try its not-found path. */
export const MOCK_MISSING_ID = "00000000-0000-0000-0000-000000000000";

type Args = Record<string, unknown>;

/** Whoever signs in to the mock is an administrator, as any bearer token is (README). */
const SIGN_IN_FIELDS = new Set(["login", "verifyMfa", "currentUser", "updateCurrentUser"]);

/**
 * The application's schema with every root field answered from made-up records: the types,
 * arguments, descriptions and role marks stay the application's own (Sofa's route table and
 * the explorers read them), only what the fields return is mocked.
 */
export function mockSchema(schema: GraphQLSchema, seed = MOCK_SEED): GraphQLSchema {
  const resolvers: Record<string, Record<string, unknown>> = {};
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue;
    resolvers[root.name] = Object.fromEntries(
      Object.values(root.getFields()).map((field) => [field.name, rootResolver(field, seed)]),
    );
  }
  return addMocksToSchema({
    schema,
    // Whatever a resolver leaves out is still made up the same way each time.
    mockGenerationBehavior: "deterministic",
    mocks: fallbackMocks(seed),
    resolvers,
  });
}

function rootResolver(field: GraphQLField<unknown, unknown>, seed: string) {
  const type = getNamedType(field.type) as GraphQLObjectType;
  const created = (field.extensions.rest as { status?: number } | undefined)?.status === 201;
  const validate = argumentValidator(field.name);
  return async (_source: unknown, args: Args, context: RequestContext) => {
    // The same gate as the service's, on /graphql too: a client meets its 401 and 403 here.
    assertFieldAccess(context, field);
    await validate(args);
    if (Object.values(args).includes(MOCK_MISSING_ID))
      throw new NotFoundError("No record with this id");
    // One record per id (or per email, for sign-in), whichever request asks for it.
    const named = [args.id, args.userId, args.email].find((value) => typeof value === "string");
    const key = typeof named === "string" ? named : field.name;
    const answer = recordOf(type, { seed, index: 0, key });
    answer.code = created ? "CREATED" : "OK";
    answer.message = messageOf(field);
    const fields = type.getFields();
    const published = isPublicRead(field) && fields.data && showsPublished(fields.data);
    const shown = published ? { ...args, ...PUBLIC_ONLY } : args;
    if (fields.pagination && fields.data) pageOf(answer, fields.data, shown, seed);
    else if (fields.offset && fields.users) offsetPageOf(answer, fields.users, args, seed);
    // A plain list (lessons of a course): each item says what the arguments asked for.
    if (Array.isArray(answer.data) && !fields.pagination && fields.data) {
      const itemType = getNamedType(fields.data.type) as GraphQLObjectType;
      for (const item of answer.data as Args[]) echoArguments(item, itemType, args);
    }
    for (const name of ["data", "user"]) {
      const record = answer[name];
      if (!record || typeof record !== "object" || Array.isArray(record) || !fields[name]) continue;
      const recordType = getNamedType(fields[name].type) as GraphQLObjectType;
      // The record an id names is the one its list shows, whichever answer names it.
      const index = typeof named === "string" ? rosterIndexOf(recordType, named, seed) : undefined;
      answer[name] = index === undefined ? record : rosterRecord(recordType, index, seed);
      echoArguments(answer[name] as Args, recordType, args);
      if (published) publishedOnly(answer[name] as Args);
    }
    if (SIGN_IN_FIELDS.has(field.name) && answer.user && typeof answer.user === "object")
      (answer.user as Args).role = "ADMIN";
    return answer;
  };
}

/** A public page's read (no token): it shows published records only, as the service does. */
const isPublicRead = (field: GraphQLField<unknown, unknown>) =>
  field.name.startsWith("public") && !field.args.some((arg) => arg.name === "status");
/** Records with a DRAFT/PUBLISHED status (news posts), which a public read shows published only. */
function showsPublished(field: GraphQLField<unknown, unknown>): boolean {
  const type = getNamedType(field.type);
  const status = isObjectType(type) ? type.getFields().status : undefined;
  const values = status ? getNamedType(status.type) : undefined;
  return isEnumType(values) && values.getValues().some((value) => value.value === "PUBLISHED");
}

/** What a public list filters on (listRecords filters by any argument naming a field). */
const PUBLIC_ONLY = { status: "PUBLISHED" };

/** One record a public read answers by id: published, whatever its roster number. */
function publishedOnly(record: Args): void {
  if (record.status !== "DRAFT") return;
  record.status = "PUBLISHED";
  record.publishedAt = record.updatedAt;
}

/** `{data, pagination}` for the page asked for, out of MOCK_TOTAL records. */
function pageOf(
  answer: Args,
  dataField: GraphQLField<unknown, unknown>,
  args: Args,
  seed: string,
): void {
  const page = Number(args.page ?? 1);
  const limit = Number(args.limit ?? 10);
  const all = listRecords(getNamedType(dataField.type) as GraphQLObjectType, args, seed);
  answer.data = all.slice((page - 1) * limit, page * limit);
  const totalPages = Math.ceil(all.length / limit);
  answer.pagination = {
    currentPage: page,
    totalPages,
    totalCount: all.length,
    limit,
    hasNextPage: page < totalPages,
    hasPreviousPage: page > 1,
  };
}

/** GET /users: offset paging with its own envelope. */
function offsetPageOf(
  answer: Args,
  listField: GraphQLField<unknown, unknown>,
  args: Args,
  seed: string,
): void {
  const limit = Number(args.limit ?? 10);
  const offset = Number(args.offset ?? 0);
  const all = listRecords(getNamedType(listField.type) as GraphQLObjectType, args, seed);
  answer.users = all.slice(offset, offset + limit);
  Object.assign(answer, {
    total: all.length,
    limit,
    offset,
    totalPages: Math.ceil(all.length / limit),
    currentPage: Math.floor(offset / limit) + 1,
    hasMore: offset + limit < all.length,
  });
}

/** What the caller sent (a title, a status, an email) comes back in the record, as it would. */
function echoArguments(record: Args, type: GraphQLObjectType, args: Args): void {
  for (const [name, value] of Object.entries(args)) {
    const field = type.getFields()[name];
    if (!field || value === undefined || !isLeafType(getNullableType(field.type))) continue;
    record[name] = value;
  }
  if (typeof args.id === "string" && type.getFields().id) record.id = args.id;
  if (typeof args.userId === "string" && type.getFields().id) record.id = args.userId;
}

function messageOf(field: GraphQLField<unknown, unknown>): string {
  const sentence = field.description?.split(/(?<=\.)\s/)[0]?.replace(/\.$/, "");
  return sentence ? `${sentence} (mock)` : "OK (mock)";
}

/** For anything a root resolver's record does not reach (never, with the records above). */
function fallbackMocks(seed: string) {
  const random = seeded(seed, "fallback");
  const persona = personaOf(random);
  const value = (scalar: string) => () =>
    scalarValue(scalar, { seed, typeName: "", fieldName: "", persona, random, index: 0 });
  return {
    String: value("String"),
    Int: value("Int"),
    Float: value("Float"),
    Boolean: value("Boolean"),
    ID: () => random.uuid(),
    UUID: () => random.uuid(),
    DateTimeISO: value("DateTimeISO"),
    EmailAddress: value("EmailAddress"),
    URL: value("URL"),
    JSONObject: () => ({}),
  };
}
