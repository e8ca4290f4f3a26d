import { parse, validate } from "graphql";
import { buildAppSchema } from "../../src/graphql/schema";
import { depthLimit, MAX_QUERY_DEPTH } from "../../src/graphql/query-limits";
import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ CORS_ORIGINS: "https://members.example.org" });
});
afterAll(() => app.close());

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
      { length: 30 },
      (_, i) => `a${i}: branchServices(limit: 100) { data { id title } }`,
    ).join("\n");
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: `{ ${aliases} }` });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/complexity/i);
  });

  it("refuses batched requests", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .send([{ query: "{ branchServices { code } }" }, { query: "{ branchServices { code } }" }]);
    expect(response.status).toBe(400);
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
