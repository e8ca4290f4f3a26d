// Raw GraphQL text, not tests/graphql/operations: malformed documents and wrongly typed variables are its subject.
/*
 * Bad input (OWASP API8 security misconfiguration, API3 mass assignment): every operation of
 * the OpenAPI document is called as an ADMIN (so auth never short-circuits) with generated
 * wrong types, missing and unknown fields, huge and odd unicode strings, query operators
 * ({"$gt": ""}, {"$where": ...}), arrays where scalars belong, invalid ids and bad query
 * parameters; /graphql gets malformed documents and wrongly typed variables. Whatever comes in,
 * the answer is a documented status below 500, a refusal is the error envelope without
 * internals, and a refused request changes nothing in the database and sends no mail.
 *
 * The inputs come from fast-check with a fixed seed (in the describe names): a failure
 * reproduces on every run and prints the shrunk request that broke it; FUZZ_SEED=<n> runs
 * another sequence. Known server bugs found this way are `it.failing` with the request.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import {
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  getNamedType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from "graphql";
import type { Response } from "supertest";
import { restRoutes, type RestRoute } from "../../src/graphql/rest-route";
import { buildAppSchema, buildAppSchemaSync } from "../../src/graphql/schema";
import { MEMBER_EXPORT_PATH } from "../../src/http/member-export";
import { API_BASE } from "../../src/http/rest/rest-api";
import {
  applyAs,
  bearer,
  buildAdmin,
  buildBranchService,
  type TestUser,
} from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";
import { FILE_ROUTES } from "../../src/http/file-route-table";

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);
/** Generated requests per operation; operations that end their caller's account get fewer. */
const RUNS = 20;
const SELF_ENDING_RUNS = 5;
const GRAPHQL_RUNS = 120;
const ONE_MIB = 1024 * 1024;

jest.setTimeout(120_000);

/** Each property its own sequence, all of them following from SEED. */
const seedFor = (name: string) =>
  [...name].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, SEED);

/* ---------------------------------------------------------------- the OpenAPI document -- */

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, unknown>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * How a bad call to an operation can be made and what may follow:
 * - read: GET; may answer 2xx, must never change anything;
 * - write: a body method or a DELETE of a path id; every call is invalid, by its body (a
 *   field of the wrong type, or no JSON object) or by its ids (none real), so it must be
 *   refused with a 4xx;
 * - self-ending: no input to get wrong (logout, delete my account): every call succeeds,
 *   so each run gets an account of its own.
 */
type Kind = "read" | "write" | "self-ending";

interface Target {
  method: Method;
  /** OpenAPI form, `{name}` for path parameters, relative to /api/v1. */
  path: string;
  pathParams: string[];
  queryParams: Parameter[];
  body?: Schema;
  kind: Kind;
  documented: Set<number>;
}

let doc: OpenApiDocument;

function resolve(schema: Schema | undefined): Schema {
  if (!schema?.$ref) return schema ?? {};
  const name = schema.$ref.replace("#/components/schemas/", "");
  return resolve(doc.components.schemas[name]);
}

const isBodyMethod = (method: Method) => ["post", "put", "patch"].includes(method);

function targetOf(method: Method, path: string): Target {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`The OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === "path").map((p) => p.name);
  const body = resolve(operation.requestBody?.content?.["application/json"]?.schema);
  let kind: Kind = "write";
  if (method === "get") kind = "read";
  else if (!isBodyMethod(method) && pathParams.length === 0) kind = "self-ending";
  return {
    method,
    path,
    pathParams,
    queryParams: parameters.filter((p) => p.in === "query"),
    body: operation.requestBody ? body : undefined,
    kind,
    documented: new Set(Object.keys(operation.responses).map(Number)),
  };
}

const openApiPathOf = (route: Pick<RestRoute, "path">) => route.path.replace(/:(\w+)/g, "{$1}");

/** Documented routes mounted beside Sofa's (plain express, no GraphQL operation), fuzzed too. */
const PLAIN_ROUTES: Pick<RestRoute, "method" | "path">[] = [
  { method: "GET", path: MEMBER_EXPORT_PATH },
];
const REST_ROUTES = restRoutes(buildAppSchemaSync());
const FUZZED_ROUTES: Pick<RestRoute, "method" | "path">[] = [...REST_ROUTES, ...PLAIN_ROUTES];

/**
 * Reads that append an audit entry when they answer (issues 8 and 35): every CSV export, an
 * administrator's export of one person's data, and an administrator's reads of accounts and
 * member records, the interview schedule and the interviewer records, and the onboarding's
 * lists of members, documents and payments, and the renewals waiting for verification.
 */
const AUDITED_READS = new Set([
  `get ${MEMBER_EXPORT_PATH}`,
  "get /users/{userId}/export",
  "get /users",
  "get /users/{userId}",
  "get /members",
  "get /members/pending",
  "get /members/{id}",
  "get /interviews",
  "get /interviewers/all",
  "get /onboarding",
  "get /requirements/pending",
  "get /payments",
  "get /renewals",
]);

/* ----------------------------------------------------------------------- arbitraries -- */

const OPERATOR_OBJECTS: Record<string, unknown>[] = [
  { $gt: "" },
  { $where: "sleep(1000)" },
  { $ne: null },
  { $regex: ".*" },
  { $in: ["ADMIN", "MEMBER"] },
  { $exists: true },
  { $expr: { $eq: [1, 1] } },
  { $or: [{ role: "ADMIN" }] },
];
const operatorObject = fc.constantFrom(...OPERATOR_OBJECTS);

const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "null",
  "undefined",
  "$where",
  '{"$gt": ""}',
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "..\\..\\windows",
  "%00",
  "\u202Eevil\u202C",
  "مرحبا بالعالم",
  "שלום",
  "👩‍👩‍👧‍👦🙏🏽🇵🇭",
  "Z̴̡̛͔a̸̢̛l̵̨̛g̷̢̛o̶̡̕",
  "\uFEFF",
  "\uD800",
  "𝕏𝕐ℤ",
  "${7*7}{{7*7}}",
  "__proto__",
];

/** Up to ~100 KB once encoded: ASCII, two-, four-byte and escaped characters. */
const hugeString = fc
  .tuple(
    fc.constantFrom("x", "é", "😀", "\u0000", "\u202E", "ab "),
    fc.integer({ min: 1_000, max: 25_000 }),
  )
  .map(([unit, count]) => unit.repeat(count));

const shortOddString = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
);

const oddString = fc.oneof(
  { arbitrary: shortOddString, weight: 8 },
  { arbitrary: hugeString, weight: 1 },
);

const oddScalar = fc.oneof(
  oddString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, 2 ** 31, -(2 ** 31) - 1, -1, 0, 0.5),
);

/** Strings no integer or boolean reading accepts (the REST gate reads "5" and "true"). */
const notNumericText = fc.constantFrom("abc", "1e3", "0x10", "", "NaN", "Infinity", "1,000", "١٢٣");

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

/** Ids of the fixtures, by the collection segment that precedes a path parameter. */
const realIds: Record<string, string[]> = {};
const allRealIds = () => Object.values(realIds).flat();

/**
 * A value of the wrong type for `schema`, certain to be refused by the REST gate; undefined
 * when the schema says too little to be sure.
 */
function wrongValue(schema: Schema | undefined): fc.Arbitrary<unknown> | undefined {
  const s = resolve(schema);
  if (s.type === "array") {
    const inner = wrongValue(s.items);
    if (!inner) return undefined;
    return fc.oneof(
      inner.filter((value) => !Array.isArray(value)),
      fc.array(inner, { minLength: 1, maxLength: 3 }),
    );
  }
  if (s.type === "object" || s.properties) {
    return fc.oneof(
      fc.integer(),
      shortOddString,
      fc.boolean(),
      fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
    );
  }
  if (s.enum) {
    const values = s.enum;
    return fc.oneof(
      fc.integer(),
      fc.boolean(),
      operatorObject,
      shortOddString.filter((value) => !values.includes(value)),
      fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 2 }),
    );
  }
  switch (s.type ?? "") {
    case "string": {
      const wrong: fc.Arbitrary<unknown>[] = [
        fc.boolean(),
        operatorObject,
        fc.constant({}),
        fc.array(fc.oneof(shortOddString, operatorObject), { maxLength: 3 }),
      ];
      // Date and id scalars may read numbers; plain strings never do.
      if (!s.format) wrong.push(fc.integer(), finiteDouble);
      return fc.oneof(...wrong);
    }
    case "integer":
    case "number":
      return fc.oneof(
        notNumericText,
        fc.boolean(),
        operatorObject,
        fc.array(fc.integer(), { maxLength: 3 }),
        s.type === "integer"
          ? fc.constantFrom(1.5, -0.5, 2 ** 31, -(2 ** 31) - 1, 1e21, 2 ** 53)
          : fc.constant({}),
      );
    case "boolean":
      return fc.oneof(
        fc.integer(),
        fc.constantFrom("yes", "1", "TRUE", "", "on"),
        operatorObject,
        fc.array(fc.boolean(), { maxLength: 2 }),
      );
    default:
      return undefined;
  }
}

/** A value that looks like it belongs to `schema` (may still be refused: huge, blank, ...). */
function plausibleValue(schema: Schema | undefined, depth: number): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.type === "array") {
    if (depth > 2) return fc.constant([]);
    return fc.array(hostileValue(s.items, depth + 1), { maxLength: 3 });
  }
  if (s.properties) {
    if (depth > 2) return fc.constant({});
    const model = Object.fromEntries(
      Object.entries(s.properties).map(([name, prop]) => [name, hostileValue(prop, depth + 1)]),
    );
    return fc.record(model, { requiredKeys: [] });
  }
  switch (s.format ?? "") {
    case "uuid":
      return fc.oneof(fc.constantFrom(...allRealIds()), fc.uuid());
    case "date-time":
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    default:
      break;
  }
  switch (s.type ?? "") {
    case "string":
      return oddString;
    case "integer":
    case "number":
      return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2 ** 31 - 1, 10_000, 10_001));
    case "boolean":
      return fc.boolean();
    default:
      return oddScalar;
  }
}

/** Anything a careless or hostile client might put where `schema` belongs. */
function hostileValue(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: plausibleValue(schema, depth), weight: 3 },
    { arbitrary: wrongValue(schema) ?? oddScalar, weight: 2 },
    { arbitrary: oddScalar, weight: 1 },
    { arbitrary: operatorObject, weight: 1 },
    { arbitrary: fc.array(oddScalar, { maxLength: 3 }), weight: 1 },
  );
}

/** Fields nobody documented: operators, internals and privilege fields. */
const unknownFields = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(
        "$where",
        "$gt",
        "_id",
        "id",
        "role",
        "passwordHash",
        "isEmailVerified",
        "__proto__",
        "constructor",
        "createdAt",
        "revision",
        "userId",
        "archivedAt",
      ),
      fc.string({ maxLength: 12 }),
    ),
    fc.oneof(oddScalar, operatorObject, fc.constant({ isAdmin: true, role: "ADMIN" })),
  ),
  { maxLength: 4 },
);

interface SentBody {
  contentType: string;
  text: string;
}

const asJson = (text: string): SentBody => ({ contentType: "application/json", text });

const isPlainObject = (value: unknown) =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** JSON that is not an object: arrays, strings, numbers, null. */
const nonObjectBody = fc
  .oneof(
    fc.constantFrom(
      "[]",
      "[1,2]",
      '"text"',
      "42",
      "-1",
      "null",
      "true",
      '[{"$gt": ""}]',
      '"{\\"$where\\": \\"sleep(1000)\\"}"',
    ),
    fc.json({ maxDepth: 2 }).filter((text) => !isPlainObject(JSON.parse(text))),
  )
  .map(asJson);

/** Bodies that are not JSON at all, or not labelled as JSON. */
const notJsonBody = fc.oneof(
  fc
    .constantFrom('{"a":', "{'a': 1}", "{a:1}", "\u0000", "undefined", "NaN", '{"a":1}}', "[")
    .map(asJson),
  fc
    .tuple(
      fc.constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
        "multipart/form-data; boundary=x",
      ),
      fc.constantFrom("a=1&b=2", "<a>1</a>", "hello", '{"status":"APPROVED"}'),
    )
    .map(([contentType, text]) => ({ contentType, text })),
);

const underOneMib = (body: SentBody) => Buffer.byteLength(body.text) < ONE_MIB - 1024;

/** Documented fields maybe left out, maybe hostile, plus unknown fields (may be valid). */
function hostileObject(schema: Schema | undefined): fc.Arbitrary<[string, unknown][]> {
  const properties = Object.entries(resolve(schema).properties ?? {});
  const model = Object.fromEntries(properties.map(([name, prop]) => [name, hostileValue(prop)]));
  return fc
    .tuple(unknownFields, fc.record(model, { requiredKeys: [] }))
    .map(([extra, values]) => [...extra, ...Object.entries(values)]);
}

// fromEntries keeps "__proto__" as a plain field, as JSON.parse on the server will.
const objectBody = (entries: [string, unknown][]) =>
  asJson(JSON.stringify(Object.fromEntries(entries)));

/**
 * A body invalid in at least one documented field (the rest hostile or left out, plus
 * unknown fields, one field forced to a wrong type), or no JSON object at all.
 */
function invalidBody(schema: Schema | undefined): fc.Arbitrary<SentBody> {
  const properties = Object.entries(resolve(schema).properties ?? {});
  const forceable = properties.filter(([, prop]) => wrongValue(prop) !== undefined);
  if (forceable.length === 0) return fc.oneof(nonObjectBody, notJsonBody);
  const forced = fc
    .constantFrom(...forceable)
    .chain(([name, prop]) => wrongValue(prop)!.map((value): [string, unknown] => [name, value]));
  const invalidObject = fc
    .tuple(hostileObject(schema), forced)
    .map(([entries, wrong]) => objectBody([...entries, wrong]))
    .filter(underOneMib);
  return fc.oneof(
    { arbitrary: invalidObject, weight: 6 },
    { arbitrary: nonObjectBody, weight: 1 },
    { arbitrary: notJsonBody, weight: 1 },
  );
}

/** Any body: invalid, hostile but maybe valid, or empty. */
function anyBody(schema: Schema | undefined): fc.Arbitrary<SentBody> {
  return fc.oneof(
    invalidBody(schema),
    hostileObject(schema).map(objectBody).filter(underOneMib),
    fc.constant(asJson("")),
  );
}

/** Lone surrogates cannot be percent-encoded; a client would send U+FFFD. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
const encode = (text: string) => encodeURIComponent(wellFormed(text));

/** A path parameter: real ids (where allowed), unknown UUIDs, and everything that is no id. */
function pathValue(realForParam: string[]): fc.Arbitrary<string> {
  const encoded = fc
    .oneof(
      { arbitrary: fc.uuid(), weight: 2 },
      {
        arbitrary: fc.constantFrom(
          "not-a-uuid",
          "0",
          "-1",
          "null",
          "undefined",
          "../",
          "../../etc/passwd",
          '{"$gt": ""}',
          "[$ne]",
          "' OR 1=1 --",
          "01890a5d-ac96-774b-bcce-b302099a805",
          "01890A5D-AC96-774B-BCCE-B302099A8057",
          "01890a5d-ac96-774b-bcce-b302099a8057 ",
          "\u0000",
          "%",
          "💥",
          "\u202E",
        ),
        weight: 3,
      },
      { arbitrary: shortOddString, weight: 2 },
      { arbitrary: fc.integer({ min: 1_000, max: 4_000 }).map((n) => "a".repeat(n)), weight: 1 },
    )
    // "." and ".." are dot segments: the URL would name another path, not this operation.
    .filter((value) => value !== "" && value !== "." && value !== "..")
    .map(encode);
  // Raw percent-encoding, as a client that encodes by hand would send it. Malformed
  // sequences ("%", "%zz") answer 500 today: see MALFORMED_PERCENT_ENCODING below.
  const raw = fc.constantFrom("%00", "%2e%2e%2f", "a%2Fb", "%20", "%F0%9F%92%A5");
  const options = [
    { arbitrary: encoded, weight: 6 },
    { arbitrary: raw, weight: 1 },
  ];
  if (realForParam.length > 0)
    options.push({ arbitrary: fc.constantFrom(...realForParam), weight: 3 });
  return fc.oneof(...options);
}

const queryValue = fc.oneof(
  fc.constantFrom(
    "abc",
    "-1",
    "0",
    "1.5",
    "99999999999999999999",
    "1e309",
    "-2147483649",
    "NaN",
    "true",
    "null",
    "",
    "asc",
    "DESC",
    "level",
    "$where",
  ),
  shortOddString,
  fc.integer({ min: 500, max: 2_000 }).map((n) => "q".repeat(n)),
);

/** One `name=value` part of a query string, or an array, object or operator reading of it. */
function queryPart(name: string): fc.Arbitrary<string> {
  const key = encode(name);
  return fc.oneof(
    queryValue.map((value) => `${key}=${encode(value)}`),
    fc
      .array(queryValue, { minLength: 2, maxLength: 3 })
      .map((values) => values.map((value) => `${key}=${encode(value)}`).join("&")),
    fc
      .tuple(fc.constantFrom("$gt", "$ne", "$where", "$regex", "$in", "0", "__proto__"), queryValue)
      .map(([operator, value]) => `${key}[${operator}]=${encode(value)}`),
    fc.constant(`${key}[]=1&${key}[]=2`),
    fc.constant(`${key}[a][b][c][d][e][f]=1`),
    fc.constant(key),
    fc.constantFrom("%", "%zz", "%E0%A4%A").map((raw) => `${key}=${raw}`),
  );
}

function queryArbitrary(params: Parameter[]): fc.Arbitrary<string> {
  const names = [...params.map((p) => p.name), "unknown", "$where", "__proto__", "filter[role]"];
  return fc
    .array(
      fc.constantFrom(...names).chain((name) => queryPart(name)),
      { maxLength: 5 },
    )
    .map((parts) => parts.join("&"))
    .filter((query) => query.length < 8_000);
}

interface RestCall {
  path: string;
  query: string;
  body?: SentBody;
}

function realIdsFor(target: Target, param: string): string[] {
  const segments = target.path.split("/");
  const collection = segments[segments.indexOf(`{${param}}`) - 1];
  return realIds[collection] ?? allRealIds();
}

function callOf(
  target: Target,
  paths: fc.Arbitrary<string[]>,
  body: fc.Arbitrary<SentBody | undefined>,
): fc.Arbitrary<RestCall> {
  return fc.tuple(paths, queryArbitrary(target.queryParams), body).map(([values, query, sent]) => {
    let index = 0;
    const path = target.path.replace(/\{\w+\}/g, () => values[index++]);
    return { path, query, body: sent };
  });
}

/**
 * Reads get any ids and query. A write is always invalid: by its body (with real or other
 * ids) or by its ids (none real, with any body), so none of them may succeed.
 */
function callArbitrary(target: Target): fc.Arbitrary<RestCall> {
  const ids = (real: boolean) =>
    fc.tuple(...target.pathParams.map((p) => pathValue(real ? realIdsFor(target, p) : [])));
  const noBody = fc.constant(undefined);
  if (target.kind !== "write") return callOf(target, ids(true), noBody);
  const byIds = callOf(
    target,
    ids(false),
    isBodyMethod(target.method) ? anyBody(target.body) : noBody,
  );
  if (!isBodyMethod(target.method)) return byIds;
  const byBody = callOf(target, ids(true), invalidBody(target.body));
  return target.pathParams.length > 0 ? fc.oneof(byBody, byIds) : byBody;
}

/* --------------------------------------------------------------------------- checks -- */

const STACK_TRACE = /\n\s+at |\bat .+\.(ts|js):\d+|node_modules/;
const PASSWORD_HASH = /\$2[aby]\$\d\d\$/;

const cut = (text: string | undefined, max = 300) =>
  text === undefined ? "" : text.length > max ? `${text.slice(0, max)}… (${text.length})` : text;

function describeCall(method: string, url: string, body: SentBody | undefined, response: Response) {
  const sent = body ? ` [${body.contentType}] ${cut(body.text)}` : "";
  return `${method.toUpperCase()} ${cut(url)}${sent} → ${response.status} ${cut(response.text)}`;
}

/** Violations of the error contract in one response, as text (empty: none). */
function envelopeProblems(response: Response, documented: Set<number>): string[] {
  const problems: string[] = [];
  const text = response.text ?? "";
  if (response.status >= 500) problems.push("a server error");
  if (!documented.has(response.status)) problems.push(`undocumented status ${response.status}`);
  if (STACK_TRACE.test(text)) problems.push("a stack trace");
  if (PASSWORD_HASH.test(text)) problems.push("a password hash");
  if (response.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("a refusal that is not JSON");
    }
    const envelope = body as { code?: unknown; message?: unknown; errors?: unknown } | undefined;
    if (typeof envelope?.code !== "string" || typeof envelope.message !== "string") {
      problems.push("a refusal without string code and message");
    } else if (envelope.code === "VALIDATION_ERROR") {
      const errors = envelope.errors as { path?: unknown; message?: unknown }[] | undefined;
      const wellFormedErrors =
        Array.isArray(errors) &&
        errors.length > 0 &&
        errors.every((e) => typeof e.path === "string" && typeof e.message === "string");
      if (!wellFormedErrors) problems.push("a VALIDATION_ERROR without errors[{path, message}]");
    }
  }
  return problems;
}

/* ---------------------------------------------------------------- database snapshots -- */

type Snapshot = Map<string, string>;

/** A digest per collection of the test database, every document in _id order. */
async function snapshot(): Promise<Snapshot> {
  const db = app.connection.db!;
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  const digests: Snapshot = new Map();
  for (const { name } of collections.sort((a, b) => a.name.localeCompare(b.name))) {
    // The job scheduler's own bookkeeping (when each recurring job last looked) moves with time.
    if (name.startsWith("system.") || name === "jobs") continue;
    const documents = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    // Every authenticated request may note when its session was last used (at most once a
    // minute, see session.service.ts): bookkeeping, not a change a refusal should prevent.
    if (name === "sessions") for (const session of documents) delete session.lastUsedAt;
    digests.set(name, createHash("sha256").update(JSON.stringify(documents)).digest("hex"));
  }
  return digests;
}

/**
 * A snapshot is the slow part of the run, so a property's requests are checked together where
 * they can be: one snapshot before all its runs and one after (`changingNothing`). Only when
 * those differ does it run again with a snapshot around each request, which names the request
 * that changed something and lets fast-check shrink it. Outside `changingNothing`, and for calls
 * that end their caller's account (accepted, they change the database), each request is
 * checked by itself.
 */
let together = false;
/** The database as the last request left it, checking one by one: the next one's "before". */
let baseline: Snapshot | undefined;
beforeEach(() => {
  baseline = undefined;
});

async function beforeRequest(): Promise<Snapshot | undefined> {
  if (together) return undefined;
  return baseline ?? (await snapshot());
}

/** The collections changed since `before`; none while requests are checked together. */
async function changedSince(before: Snapshot | undefined): Promise<string[]> {
  if (!before) return [];
  baseline = await snapshot();
  return changedCollections(before, baseline);
}

/** Audited reads answered while checking together: each appends one audit entry. */
let auditedAnswers = 0;
const auditEntries = () => app.connection.db!.collection("audit_logs").estimatedDocumentCount();

async function changingNothing(property: () => Promise<void>): Promise<void> {
  const [before, entriesBefore] = [await snapshot(), await auditEntries()];
  [together, auditedAnswers] = [true, 0];
  try {
    await property();
  } finally {
    together = false;
  }
  const added = (await auditEntries()) - entriesBefore;
  const changed = changedCollections(before, await snapshot()).filter(
    (name) => !(name === "audit_logs" && added === auditedAnswers),
  );
  if (changed.length === 0) return;
  baseline = undefined;
  await property();
  throw new Error(`changed ${changed.join(", ")}, though no request did when each was checked`);
}

function changedCollections(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}

/* ------------------------------------------------------------------------- fixtures -- */

let app: TestApp;
let admin: TestUser;
let schema: GraphQLSchema;

function expectCreated(response: Response, what: string): { id: string } {
  if (response.status !== 201) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as { id: string };
}

beforeAll(async () => {
  const started = await startScenario({ users: { member: { name: "Fuzz Holder" } } });
  ({ app, admin } = started);
  schema = await buildAppSchema();
  const { member } = started;
  const record = await applyAs(app, member);
  const mailsBefore = app.mail.messages.length;
  const approval = await app
    .http()
    .patch(`${API_BASE}/members/${record.id}/status`)
    .set(bearer(admin))
    .send({ status: "APPROVED" });
  expect(approval.status).toBe(200);
  // The decision mail goes out after the answer; let it land before any "no mail" check.
  await app.mail.waitFor(member.email, { subject: /approved/, after: mailsBefore });
  const branch = await buildBranchService(app, admin, {
    sections: [{ title: "Duties", type: "list", items: [{ content: "Pray" }] }],
  });
  const office = expectCreated(
    await app
      .http()
      .post(`${API_BASE}/offices/create`)
      .set(bearer(admin))
      .send({
        name: "City Chaplain of Fuzzville",
        level: "CITY_CHAPLAIN",
        maxSlots: 2,
        sections: [{ title: "Scope", type: "richtext", items: [{ content: "The city" }] }],
      }),
    "create office",
  );
  const holder = expectCreated(
    await app
      .http()
      .post(`${API_BASE}/offices/${office.id}/holders`)
      .set(bearer(admin))
      .send({ memberId: record.id, startDate: "2024-01-01T00:00:00.000Z" }),
    "appoint",
  );
  realIds.users = [member.id, admin.id];
  realIds.members = [record.id];
  realIds.offices = [office.id];
  realIds.holders = [holder.id];
  realIds["branch-service"] = [branch.id];
  realIds.sections = [branch.sections[0].id];

  const response = await app.http().get(`${API_BASE}/openapi.json`);
  expect(response.status).toBe(200);
  doc = response.body as OpenApiDocument;
});
afterAll(() => app?.close());

/* ------------------------------------------------------------------------------ REST -- */

async function runRestCall(target: Target, call: RestCall, caller: TestUser): Promise<void> {
  const url = `${API_BASE}${call.path}${call.query ? `?${call.query}` : ""}`;
  const before = await beforeRequest();
  const mailsBefore = app.mail.messages.length;
  const request = app.http()[target.method](url).set(bearer(caller));
  const response = call.body
    ? await request.set("content-type", call.body.contentType).send(call.body.text)
    : await request;
  const problems = envelopeProblems(response, target.documented);
  const refused = response.status >= 400;
  if (target.kind === "write" && !refused) problems.push("an invalid write that was accepted");
  const audited = !refused && AUDITED_READS.has(`${target.method} ${target.path}`);
  if (audited && together) auditedAnswers += 1;
  const changed = (await changedSince(before)).filter(
    (name) => !(audited && name === "audit_logs"),
  );
  if ((target.kind === "read" || refused) && changed.length > 0)
    problems.push(`changed ${changed.join(", ")}`);
  if (refused && app.mail.messages.length !== mailsBefore) problems.push("sent mail");
  if (problems.length > 0) {
    throw new Error(
      `${problems.join("; ")}\n${describeCall(target.method, url, call.body, response)}`,
    );
  }
}

describe(`every REST operation of the OpenAPI document, fed bad input (seed ${SEED})`, () => {
  it("fuzzes exactly the operations the OpenAPI document lists, the byte routes aside", () => {
    // The byte routes take multipart bodies and raw bytes: tests/files/bad-uploads.test.ts
    // feeds them their own bad input (renamed executables, truncated bodies, two files...).
    const byteRoutes = new Set(
      Object.values(FILE_ROUTES).map(
        (route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`,
      ),
    );
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .filter((operation) => !byteRoutes.has(operation));
    expect(byteRoutes.size).toBe(9);
    const fuzzed = FUZZED_ROUTES.map((route) => `${route.method} ${openApiPathOf(route)}`);
    expect([...fuzzed].sort()).toEqual([...documented].sort());
  });

  it.each(
    FUZZED_ROUTES.map((route) => [`${route.method} ${openApiPathOf(route)}`, route] as const),
  )(
    "%s answers a documented status below 500, refuses in the envelope and changes nothing",
    async (name, route) => {
      const target = targetOf(route.method.toLowerCase() as Method, openApiPathOf(route));
      const selfEnding = target.kind === "self-ending";
      const check = selfEnding ? (run: () => Promise<void>) => run() : changingNothing;
      await check(() =>
        fc.assert(
          fc.asyncProperty(callArbitrary(target), async (call) => {
            // Each run of a call that ends its caller's account or session gets a fresh account.
            let caller = admin;
            if (selfEnding) {
              caller = await buildAdmin(app);
              baseline = undefined;
            }
            await runRestCall(target, call, caller);
          }),
          { seed: seedFor(name), numRuns: selfEnding ? SELF_ENDING_RUNS : RUNS },
        ),
      );
    },
  );
});

/** Percent-encoding no URL decoder accepts: a lone "%", a non-hex escape, cut or overlong UTF-8. */
const MALFORMED_PERCENT_ENCODING = ["%", "%zz", "%E0%A4%A", "%C0%AE"];

describe("path parameters with malformed percent-encoding", () => {
  // Express cannot decode such a parameter (a URIError); this once answered 500.
  it("are refused with 400 in the envelope on every route that takes one", async () => {
    const withParams = REST_ROUTES.filter((route) => route.path.includes(":"));
    const problems: string[] = [];
    for (const route of withParams) {
      for (const raw of MALFORMED_PERCENT_ENCODING) {
        const target = targetOf(route.method.toLowerCase() as Method, openApiPathOf(route));
        const url = `${API_BASE}${target.path.replace(/\{\w+\}/g, raw)}`;
        const request = app.http()[target.method](url).set(bearer(admin));
        const response = isBodyMethod(target.method) ? await request.send({}) : await request;
        const found = envelopeProblems(response, target.documented);
        if (response.status !== 400) found.push(`status ${response.status}`);
        if (found.length > 0) problems.push(`${found.join("; ")}: ${route.method} ${url}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/* --------------------------------------------------------------------------- GraphQL -- */

interface GraphqlRequest {
  method?: "get" | "post";
  /** Sent as the body: objects and arrays as JSON, strings as they are. */
  body?: unknown;
  contentType?: string;
  query?: string;
  headers?: Record<string, string>;
}

async function sendGraphql(request: GraphqlRequest): Promise<Response> {
  const url = `/graphql${request.query ? `?${request.query}` : ""}`;
  const call = app
    .http()
    [request.method ?? "post"](url)
    .set(bearer(admin))
    .set(request.headers ?? {});
  if (request.body === undefined) return call;
  const text = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  return call.set("content-type", request.contentType ?? "application/json").send(text);
}

/** Violations of the /graphql error contract in a response to a bad request. */
function graphqlProblems(response: Response): string[] {
  const problems: string[] = [];
  const text = response.text ?? "";
  if (response.status >= 500) problems.push("a server error");
  if (![200, 400, 405, 413, 415].includes(response.status))
    problems.push(`unexpected status ${response.status}`);
  if (STACK_TRACE.test(text)) problems.push("a stack trace");
  if (PASSWORD_HASH.test(text)) problems.push("a password hash");
  let body: { data?: Record<string, unknown> | null; errors?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push("a body that is not JSON");
  }
  const errors = body?.errors as
    { message?: unknown; extensions?: { code?: unknown; status?: unknown } }[] | undefined;
  if (errors === undefined) {
    // A body /graphql cannot read (not JSON, not an object) never reaches Apollo: it is
    // refused in the REST error envelope, as tests/http/edge.test.ts expects.
    const envelope = body as { code?: unknown; message?: unknown } | undefined;
    if (typeof envelope?.code !== "string" || typeof envelope.message !== "string")
      problems.push("neither errors nor the error envelope");
  } else if (!Array.isArray(errors) || errors.length === 0) {
    problems.push("no errors");
  } else if (
    !errors.every((e) => typeof e.message === "string" && typeof e.extensions?.code === "string")
  ) {
    problems.push("an error without message and extensions.code");
  } else if (
    errors.some(
      (e) => e.extensions?.code === "INTERNAL_SERVER_ERROR" || Number(e.extensions?.status) >= 500,
    )
  ) {
    // Over GraphQL a server failure may come as 200: its error still says so.
    problems.push("a server error inside errors");
  }
  const data = body?.data;
  if (data && Object.values(data).some((value) => value !== null)) problems.push("data");
  return problems;
}

async function expectGraphqlRefusal(request: GraphqlRequest): Promise<Response> {
  const before = await beforeRequest();
  const mailsBefore = app.mail.messages.length;
  const response = await sendGraphql(request);
  const problems = graphqlProblems(response);
  const changed = await changedSince(before);
  if (changed.length > 0) problems.push(`changed ${changed.join(", ")}`);
  if (app.mail.messages.length !== mailsBefore) problems.push("sent mail");
  if (problems.length > 0) {
    const sent = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
    throw new Error(
      `${problems.join("; ")}\n${(request.method ?? "post").toUpperCase()} /graphql?${cut(request.query)} ${cut(sent)} → ${response.status} ${cut(response.text)}`,
    );
  }
  return response;
}

const officeId = () => realIds.offices[0];

/**
 * A selection `depth` levels deep. Introspection is exempt from the depth limit (the explorers'
 * schema query is deeper); its nesting through fields and types is graphql-js's own rule's.
 */
const nested = (depth: number) =>
  `{ offices { data { ${"holders { ".repeat(depth)}id${" }".repeat(depth)} } } }`;
const nestedIntrospection = (depth: number) =>
  `{ __schema { types { ${"fields { type { ".repeat(depth)}name${" } }".repeat(depth)} } } }`;

const MALFORMED: [string, () => GraphqlRequest][] = [
  ["a syntax error", () => ({ body: { query: "{ offices { data { id }" } })],
  ["an unknown field", () => ({ body: { query: "{ doesNotExist }" } })],
  ["an unknown argument", () => ({ body: { query: "{ offices(nope: 1) { code } }" } })],
  [
    "a destructive mutation with a selection that does not validate",
    () => ({ body: { query: `mutation { deleteOffice(id: "${officeId()}") { nope } }` } }),
  ],
  [
    "a variable of the wrong type",
    () => ({
      body: { query: "query ($id: UUID!) { office(id: $id) { code } }", variables: { id: 5 } },
    }),
  ],
  [
    "an operator object as an id variable",
    () => ({
      body: {
        query: "mutation ($id: UUID!) { deleteOffice(id: $id) { code } }",
        variables: { id: { $ne: null } },
      },
    }),
  ],
  [
    "a $where object as a search variable",
    () => ({
      body: {
        query: "query ($s: String) { offices(search: $s) { code } }",
        variables: { s: { $where: "sleep(1000)" } },
      },
    }),
  ],
  [
    "an array where a scalar variable belongs",
    () => ({
      body: {
        query: "mutation ($id: UUID!) { deleteOffice(id: $id) { code } }",
        variables: { id: [officeId(), officeId()] },
      },
    }),
  ],
  [
    "an operator object inlined as an argument",
    () => ({ body: { query: 'mutation { deleteOffice(id: {$gt: ""}) { code } }' } }),
  ],
  [
    "a huge string where a short name belongs",
    () => ({
      body: {
        query: "mutation ($n: String) { createOffice(name: $n, level: CITY_CHAPLAIN) { code } }",
        variables: { n: "😀".repeat(200_000) },
      },
    }),
  ],
  ["a selection nested past the depth limit", () => ({ body: { query: nested(20) } })],
  [
    "an introspection nested through fields and types",
    () => ({ body: { query: nestedIntrospection(5) } }),
  ],
  [
    "more aliases than the limit",
    () => ({
      body: {
        query: `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(" ")} }`,
      },
    }),
  ],
  [
    "a document over the token limit",
    () => ({ body: { query: `{ ${"__typename ".repeat(5_000)} }` } }),
  ],
  [
    "a batch of operations",
    () => ({
      body: [
        { query: "{ offices { code } }" },
        { query: `mutation { deleteOffice(id: "${officeId()}") { code } }` },
      ],
    }),
  ],
  ["malformed JSON", () => ({ body: '{"query": "{ offices { code } }"' })],
  ["a JSON body that is a string", () => ({ body: '"{ offices { code } }"' })],
  ["a JSON body that is null", () => ({ body: "null" })],
  ["an empty JSON object", () => ({ body: {} })],
  ["a query that is not a string", () => ({ body: { query: { $gt: "" } } })],
  [
    "variables that are not an object",
    () => ({ body: { query: "{ offices { code } }", variables: ["a"] } }),
  ],
  [
    "a text/plain body (a cross-site form post)",
    () => ({
      body: `mutation { deleteOffice(id: "${officeId()}") { code } }`,
      contentType: "text/plain",
    }),
  ],
  [
    "a mutation over GET without a preflight header",
    () => ({
      method: "get",
      query: `query=${encode(`mutation { deleteOffice(id: "${officeId()}") { code } }`)}`,
    }),
  ],
  [
    "two operations without an operationName",
    () => ({ body: { query: "query A { offices { code } } query B { offices { code } }" } }),
  ],
  [
    "an operationName that names no operation",
    () => ({ body: { query: "query A { offices { code } }", operationName: "B" } }),
  ],
  [
    "fragments that spread each other",
    () => ({
      body: {
        query:
          "{ offices { ...A } } fragment A on OfficeTitlePage { ...B } fragment B on OfficeTitlePage { ...A }",
      },
    }),
  ],
  [
    "a NUL and a right-to-left override inside the document",
    () => ({ body: { query: "{ offi\u0000ces\u202E { code } }" } }),
  ],
  [
    "a directive with an argument of the wrong type",
    () => ({ body: { query: '{ offices @skip(if: "yes") { code } }' } }),
  ],
];

/*
 * Apollo's own refusals that are not parse or validation failures (a mutation over GET, a
 * subscription the schema lacks) once fell through to the error mapper and came back as a
 * masked 500; they are client errors.
 */
const APOLLO_REFUSALS: [string, () => GraphqlRequest][] = [
  [
    "a mutation over GET",
    () => ({
      method: "get",
      query: `query=${encode(`mutation { deleteOffice(id: "${officeId()}") { code } }`)}`,
      headers: { "apollo-require-preflight": "true" },
    }),
  ],
  ["a subscription", () => ({ body: { query: "subscription { offices { code } }" } })],
];

/** A document with every argument of `field` as a variable of the argument's own type. */
function documentFor(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const declarations = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(", ");
  const passing = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `${kind} Fuzz(${declarations}) { ${field.name}(${passing})${selection} }`;
}

/** A variable value GraphQL's coercion must refuse for `type`. */
function wrongGraphqlValue(type: GraphQLInputType): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return fc.oneof(fc.constant(null), wrongGraphqlValue(type.ofType));
  if (isListType(type)) {
    const inner = wrongGraphqlValue(type.ofType);
    return fc.oneof(
      inner.filter((value) => value !== null && !Array.isArray(value)),
      fc.array(inner, { minLength: 1, maxLength: 2 }),
    );
  }
  if (isInputObjectType(type)) {
    // Unknown fields are an error in a GraphQL variable (REST strips them).
    return fc.oneof(
      fc.integer(),
      shortOddString,
      fc.boolean(),
      operatorObject,
      fc.array(fc.integer(), { minLength: 1, maxLength: 2 }),
    );
  }
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name);
    return fc.oneof(
      fc.integer(),
      fc.boolean(),
      operatorObject,
      shortOddString.filter((value) => !values.includes(value)),
      fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 2 }),
    );
  }
  switch (type.name) {
    case "Int":
      return fc.oneof(shortOddString, fc.boolean(), operatorObject, fc.constantFrom(1.5, 2 ** 31));
    case "Float":
      return fc.oneof(shortOddString, fc.boolean(), operatorObject);
    case "Boolean":
      return fc.oneof(fc.integer(), shortOddString, operatorObject);
    case "String":
      return fc.oneof(fc.integer(), fc.boolean(), operatorObject, fc.array(shortOddString));
    default:
      // ID and the custom scalars (UUID, DateTimeISO, ...) may read numbers and strings.
      return fc.oneof(fc.boolean(), operatorObject, fc.constant([true, {}]));
  }
}

interface RootField {
  kind: "query" | "mutation";
  field: GraphQLField<unknown, unknown>;
}

function rootFieldsWithArguments(): RootField[] {
  const fields: RootField[] = [];
  for (const [kind, type] of [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      if (field.args.length > 0) fields.push({ kind, field });
    }
  }
  return fields;
}

describe(`/graphql, fed bad requests (seed ${SEED})`, () => {
  it.each(MALFORMED)(
    "refuses %s with errors carrying extensions.code, below 500, changing nothing",
    async (_name, request) => {
      await expectGraphqlRefusal(request());
    },
  );

  it.each(APOLLO_REFUSALS)(
    "refuses %s as a client error, not a masked 500",
    async (_name, request) => {
      await expectGraphqlRefusal(request());
    },
  );

  it("refuses a wrongly typed variable of every root field that takes arguments", async () => {
    const roots = rootFieldsWithArguments();
    expect(roots.length).toBeGreaterThan(20);
    const call = fc
      .constantFrom(...roots)
      .chain(({ kind, field }) =>
        fc.tuple(
          fc.constant(documentFor(kind, field)),
          fc.constantFrom(...field.args),
          fc.record(
            Object.fromEntries(
              field.args.map((arg) => [
                arg.name,
                fc.oneof(wrongGraphqlValue(arg.type), oddScalar, operatorObject),
              ]),
            ),
            { requiredKeys: [] },
          ),
        ),
      )
      .chain(([query, forcedArg, others]) =>
        wrongGraphqlValue(forcedArg.type).map((wrong) => ({
          query,
          variables: { ...others, [forcedArg.name]: wrong },
        })),
      )
      .filter((body) => Buffer.byteLength(JSON.stringify(body)) < ONE_MIB - 1024);
    await changingNothing(() =>
      fc.assert(
        fc.asyncProperty(call, async (body) => {
          await expectGraphqlRefusal({ body });
        }),
        { seed: seedFor("graphql variables"), numRuns: GRAPHQL_RUNS },
      ),
    );
  });
});
