import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("GET /", () => {
  it("sends a browser to the REST explorer", async () => {
    const response = await app.http().get("/").set("accept", "text/html,application/xhtml+xml");
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/api/v1/docs/");
  });

  it("tells an API client where the REST paths, GraphQL and the docs are", async () => {
    const response = await app.http().get("/").set("accept", "application/json");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: "Chaplaincy membership API",
      version: "1.0.0",
      rest: "/api/v1",
      graphql: "/graphql",
      docs: "/api/v1/docs",
      openapi: "/api/v1/openapi.json",
    });
  });
});

describe("Content-Security-Policy", () => {
  const csp = async (target: TestApp) =>
    String((await target.http().get("/api/v1/docs/")).headers["content-security-policy"]);

  it("does not upgrade requests to https when the service is reached over plain HTTP", async () => {
    const policy = await csp(app);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("upgrade-insecure-requests");
  });

  it("upgrades them when PUBLIC_URL is an https address", async () => {
    const tls = await startTestApp({ PUBLIC_URL: "https://members.example.org" });
    try {
      expect(await csp(tls)).toContain("upgrade-insecure-requests");
    } finally {
      await tls.close();
    }
  });
});
