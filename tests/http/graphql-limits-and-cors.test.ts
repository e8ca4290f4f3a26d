// Raw GraphQL text, not tests/graphql/operations: documents built to hit the depth, alias and token limits are its subject.
import { getIntrospectionQuery, parse, validate } from "graphql";
import { buildAppSchema } from "../../src/graphql/schema";
import {
  depthLimit,
  MAX_ALIASES,
  MAX_DIRECTIVES,
  MAX_QUERY_DEPTH,
  MAX_TOKENS,
} from "../../src/graphql/query-limits";
import { PRODUCTION_ENV, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ CORS_ORIGINS: "https://members.example.org" });
});
afterAll(() => app?.close());

describe("/graphql limits", () => {
  it("the depth rule counts fields through fragments and refuses documents past the limit", async () => {
    const schema = await buildAppSchema();
    const fiveDeep = "{ branchServices { data { sections { items { content } } } } }";
    const viaFragments = `{ branchServices { ...Page } }
      fragment Page on BranchServicePage { data { ...Branch } }
      fragment Branch on BranchService { sections { items { content } } }`;
    for (const query of [fiveDeep, viaFragments]) {
      expect(validate(schema, parse(query), [depthLimit(5)])).toEqual([]);
      const errors = validate(schema, parse(query), [depthLimit(4)]);
      expect(errors.map((e) => e.message)).toEqual(["Query depth 5 exceeds the limit of 4"]);
    }
  });

  it("lets the deepest document the schema allows through on /graphql (the limit is above it)", async () => {
    const deepest = "{ branchServices { data { sections { items { content } } } } }";
    expect((await app.http().post("/graphql").send({ query: deepest })).status).toBe(200);
    expect(MAX_QUERY_DEPTH).toBeGreaterThanOrEqual(5);
  });

  it("refuses a document whose estimated cost is over the limit", async () => {
    const aliases = Array.from(
      { length: MAX_ALIASES },
      (_, i) =>
        `a${i}: branchServices(limit: 100) { data { id title description memberId createdAt updatedAt sections { id title type items { content } } } }`,
    ).join("\n");
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: `{ ${aliases} }` });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/complexity/i);
  });

  it("estimates the cost of one document again for each page size and @include it is sent with", async () => {
    // Costs are kept per document: the same text must still be judged by its variables.
    const aliases = Array.from(
      { length: MAX_ALIASES },
      (_, i) =>
        `a${i}: branchServices(limit: $n) @include(if: $on) { data { id title description sections { id title type items { content } } } }`,
    ).join("\n");
    const query = `query Pages($n: Int, $on: Boolean!) { ${aliases} }`;
    const send = (variables: { n: number; on: boolean }) =>
      app.http().post("/graphql").send({ query, variables, operationName: "Pages" });
    const verdicts: number[] = [];
    for (const variables of [
      { n: 1, on: true },
      { n: 100, on: true },
      { n: 1, on: true },
      { n: 100, on: false },
      { n: 100, on: true },
    ]) {
      verdicts.push((await send(variables)).status);
    }
    expect(verdicts).toEqual([200, 400, 200, 200, 400]);
    const refused = await send({ n: 100, on: true });
    expect(refused.body.errors[0].message).toMatch(/complexity \d+ exceeds the limit of 5000/i);
  });

  it("refuses more than 15 aliases and lets 15 through", async () => {
    const document = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `a${i}: branchServices { code }`).join(" ")} }`;
    const allowed = await app
      .http()
      .post("/graphql")
      .send({ query: document(MAX_ALIASES) });
    expect(allowed.status).toBe(200);
    const refused = await app
      .http()
      .post("/graphql")
      .send({ query: document(MAX_ALIASES + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toBe("The document has 16 aliases; the limit is 15");
  });

  it("refuses more than 50 directives", async () => {
    const fields = Array.from({ length: MAX_DIRECTIVES + 1 }, () => "code @include(if: true)");
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: `{ branchServices { ${fields.join(" ")} } }` });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/51 directives; the limit is 50/);
  });

  it("refuses a document of more than 2 000 tokens before parsing it all", async () => {
    const padding = Array.from({ length: MAX_TOKENS }, () => "code").join(" ");
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: `{ branchServices { ${padding} } }` });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/more th\w+ 2000 tokens/);
  });

  it("refuses a fragment graph that expands exponentially at once, while the health check keeps answering", async () => {
    const levels = 20;
    // Each fragment spreads the next three times: 3^20 copies of the last one once expanded.
    const fragments = Array.from(
      { length: levels },
      (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} ...F${i + 1} }`,
    );
    const query = [
      "{ ...F0 }",
      ...fragments,
      `fragment F${levels} on Query { branchServices { code } }`,
    ].join("\n");
    let answered = false;
    const refused = app
      .http()
      .post("/graphql")
      .send({ query })
      .then((response) => {
        answered = true;
        return response;
      });
    const healthTimes: number[] = [];
    do {
      const sentAt = performance.now();
      const health = await app.http().get("/api/v1/health");
      expect(health.status).toBe(200);
      healthTimes.push(performance.now() - sentAt);
    } while (!answered);
    const response = await refused;
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/expands to \d+ field selections/);
    expect(Math.max(...healthTimes)).toBeLessThan(200);
  });

  it("measures each fragment once, so depth and aliases behind repeated spreads still count", async () => {
    const schema = await buildAppSchema();
    const deep = `{ ...A ...A ...A }
      fragment A on Query { branchServices { ...B ...B } }
      fragment B on BranchServicePage { data { sections { items { content } } } }`;
    expect(validate(schema, parse(deep), [depthLimit(5)])).toEqual([]);
    expect(validate(schema, parse(deep), [depthLimit(4)]).map((e) => e.message)).toEqual([
      "Query depth 5 exceeds the limit of 4",
    ]);
    // Eight aliases in one fragment spread twice are sixteen aliases in the operation.
    const aliased = Array.from({ length: 8 }, (_, i) => `a${i}: branchServices { code }`);
    const twice = `{ ...Aliased ...Aliased } fragment Aliased on Query { ${aliased.join(" ")} }`;
    const response = await app.http().post("/graphql").send({ query: twice });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toBe("The document has 16 aliases; the limit is 15");
  });

  it("refuses batched requests", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .send([{ query: "{ branchServices { code } }" }, { query: "{ branchServices { code } }" }]);
    expect(response.status).toBe(400);
  });
});

describe("introspection (the explorers' and Code Generator's schema query)", () => {
  const fullIntrospection = getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
  });

  it("answers graphql-js's getIntrospectionQuery, deeper than the depth limit", async () => {
    const response = await app.http().post("/graphql").send({ query: fullIntrospection });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const types = (response.body.data.__schema.types as { name: string }[]).map((t) => t.name);
    expect(types).toEqual(expect.arrayContaining(["Query", "Mutation", "BranchServicePage"]));
  });

  it("leaves __schema and __type out of the depth count, and counts every other field", async () => {
    const schema = await buildAppSchema();
    const deepIntrospection = `{ __type(name: "Query") { fields { type { ofType { ofType { name } } } } } }`;
    expect(validate(schema, parse(deepIntrospection), [depthLimit(4)])).toEqual([]);
    const mixed = `{ __schema { queryType { name } } branchServices { data { sections { items { content } } } } }`;
    const errors = validate(schema, parse(mixed), [depthLimit(4)]);
    expect(errors.map((e) => e.message)).toEqual(["Query depth 5 exceeds the limit of 4"]);
  });

  it("still refuses introspection nested through fields and types (graphql-js's own rule)", async () => {
    const cyclic = `{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }`;
    const response = await app.http().post("/graphql").send({ query: cyclic });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/introspection/i);
  });

  it("still costs the data fields sent beside an introspection field", async () => {
    const aliases = Array.from(
      { length: MAX_ALIASES },
      (_, i) =>
        `a${i}: branchServices(limit: 100) { data { id title description memberId createdAt updatedAt sections { id title type items { content } } } }`,
    ).join("\n");
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: `{ __schema { queryType { name } } ${aliases} }` });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/complexity/i);
  });

  it('gives no "Did you mean" hint in production, even with introspection on', async () => {
    const production = await startTestApp({ ...PRODUCTION_ENV, GRAPHQL_INTROSPECTION: "true" });
    try {
      const misspelt = ["{ branchServicez { code } }", "{ members(status: APPROVEDD) { total } }"];
      for (const query of misspelt) {
        const response = await production.http().post("/graphql").send({ query });
        expect(response.status).toBe(400);
        expect(response.body.errors[0].message).not.toMatch(/did you mean/i);
      }
      const misspeltVariable = await production
        .http()
        .post("/graphql")
        .send({
          query: "query ($s: MemberStatus) { members(status: $s) { total } }",
          variables: { s: "APPROVEDD" },
        });
      expect(misspeltVariable.status).toBe(400);
      expect(misspeltVariable.body.errors[0].message).not.toMatch(/did you mean/i);
    } finally {
      await production.close();
    }
  });

  it("is off in production unless GRAPHQL_INTROSPECTION=true", async () => {
    const production = await startTestApp(PRODUCTION_ENV);
    try {
      const refused = await production.http().post("/graphql").send({ query: fullIntrospection });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].message).toMatch(/introspection/i);
    } finally {
      await production.close();
    }
  });
});

describe("CORS", () => {
  it("allows the configured origin and no other", async () => {
    const allowed = await app
      .http()
      .options("/api/v1/branch-service")
      .set("origin", "https://members.example.org")
      .set("access-control-request-method", "GET");
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://members.example.org");
    const other = await app
      .http()
      .get("/api/v1/branch-service")
      .set("origin", "https://evil.example.com");
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
