import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ CORS_ORIGINS: "https://members.example.org" });
});
afterAll(() => app.close());

describe("/graphql limits", () => {
  it("refuses a document nested deeper than the limit with 400", async () => {
    const deep = `{ branchServices { data { sections { items { content } } } } ${"x".repeat(0)} }`;
    expect((await app.http().post("/graphql").send({ query: deep })).status).toBe(200);
    // Fragments cannot be used to hide depth.
    let fragments = "fragment F0 on SectionItem { content }\n";
    let selection = "...F0";
    for (let level = 1; level <= 12; level += 1) {
      fragments += `fragment F${level} on Query { branchServices { data { id } } }\n`;
      selection = `branchServices { data { sections { items { ${selection} } } } }`;
    }
    const tooDeep = await app
      .http()
      .post("/graphql")
      .send({ query: `{ ${selection} }\n${fragments.split("\n")[0]}` });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors[0].message).toMatch(/depth/i);
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
