import http from "node:http";
import path from "node:path";
import { bearer, buildAdmin, buildOffice, buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Requests must be garbage as soon as they are answered. V8's young-generation collector
 * keeps alive whatever an accessor pair defined per request reaches (V8 allocates the pair
 * in the old generation) and whatever the value of a WeakMap entry reaches: either way a
 * whole request, its sockets' buffers and its GraphQL state are copied and promoted, and
 * wait for a full collection. These checks fail on the code paths that did that (our
 * context builder, Apollo's gateway context, see patches/; feTS's router did too, until REST
 * paths stopped going through it).
 */

let app: TestApp;
let member: TestUser;
let officeId: string;

beforeAll(async () => {
  app = await startTestApp();
  const admin = await buildAdmin(app);
  member = await buildUser(app);
  officeId = (await buildOffice(app, admin, { name: "Retention check office" })).id;
});
afterAll(() => app.close());

/** Reads through both mounts: static and parameterised REST paths, a query string, /graphql. */
async function readThroughEveryMount(): Promise<void> {
  const list = await app.http().get("/api/v1/offices?limit=5&page=1").set(bearer(member));
  expect(list.status).toBe(200);
  const one = await app.http().get(`/api/v1/offices/${officeId}`).set(bearer(member));
  expect(one.status).toBe(200);
  expect(one.body.data.id).toBe(officeId);
  const graphql = await app
    .http()
    .post("/graphql")
    .set(bearer(member))
    .send({
      query: "query ($id: UUID!) { office(id: $id) { data { id name } } }",
      variables: { id: officeId },
    });
  expect(graphql.status).toBe(200);
  expect(graphql.body.data.office.data).toEqual({ id: officeId, name: "Retention check office" });
}

type Descriptor = PropertyDescriptor | undefined;
const isAccessor = (descriptor: Descriptor) =>
  typeof descriptor?.get === "function" || typeof descriptor?.set === "function";

describe("a request's objects", () => {
  it("get no accessor properties defined on them while the request runs", async () => {
    const one = jest.spyOn(Object, "defineProperty");
    const many = jest.spyOn(Object, "defineProperties");
    let defined: (readonly [string, PropertyDescriptor])[];
    try {
      await readThroughEveryMount();
      // Read before mockRestore, which forgets the calls.
      defined = [
        ...one.mock.calls.map(([, key, descriptor]) => [String(key), descriptor] as const),
        ...many.mock.calls.flatMap(([, descriptors]) => Object.entries(descriptors)),
      ];
    } finally {
      one.mockRestore();
      many.mockRestore();
    }
    expect(defined.filter(([, descriptor]) => isAccessor(descriptor)).map(([key]) => key)).toEqual(
      [],
    );
  });

  it("are not kept as WeakMap keys", async () => {
    const set = jest.spyOn(WeakMap.prototype, "set");
    let keys: WeakKey[];
    try {
      await readThroughEveryMount();
      keys = set.mock.calls.map(([key]) => key);
    } finally {
      set.mockRestore();
    }
    const requestKeys = keys.filter(
      (key) => key instanceof http.IncomingMessage || key instanceof http.ServerResponse,
    );
    expect(requestKeys.map((key) => key.constructor.name)).toEqual([]);
  });
});

describe("Apollo's gateway request context", () => {
  // Internal to @apollo/server (not in its exports): it builds the object our executor receives.
  const apolloDist = path.dirname(require.resolve("@apollo/server"));
  const { makeGatewayGraphQLRequestContext } = jest.requireActual<{
    makeGatewayGraphQLRequestContext: (...args: unknown[]) => {
      response: { http: { status?: number } };
    };
  }>(path.join(apolloDist, "utils", "makeGatewayGraphQLRequestContext.js"));

  it("reads and writes the response status without an accessor of its own", () => {
    const head = { status: undefined as number | undefined, headers: new Map<string, string>() };
    const context = makeGatewayGraphQLRequestContext(
      { request: {}, response: { http: head } },
      { logger: console, cache: undefined },
      { includeStacktraceInErrorResponses: false },
    );
    const http = context.response.http;
    expect(isAccessor(Object.getOwnPropertyDescriptor(http, "status"))).toBe(false);
    http.status = 418;
    expect(head.status).toBe(418);
    head.status = 202;
    expect(http.status).toBe(202);
  });
});
