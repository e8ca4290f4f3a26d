import http from "node:http";
import { OfficesDocument } from "../graphql/generated";
import { buildUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/**
 * Counts prototype switches of node requests and responses while `work` runs. express 5
 * switches both on every request unless node already built them with the app's prototypes
 * (src/http/node-server.ts); each switch gives the object a map of its own in V8.
 */
async function prototypeSwitchesDuring(work: () => Promise<unknown>): Promise<number> {
  const original = Object.setPrototypeOf;
  let switches = 0;
  const spy = jest.spyOn(Object, "setPrototypeOf").mockImplementation((target, prototype) => {
    const isNodeMessage =
      target instanceof http.IncomingMessage || target instanceof http.ServerResponse;
    if (isNodeMessage && Object.getPrototypeOf(target) !== prototype) switches += 1;
    return original(target, prototype);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return switches;
}

describe("node's requests and responses", () => {
  it("arrive with express's prototypes, so no request or response is switched", async () => {
    const user = await buildUser(app);
    const switches = await prototypeSwitchesDuring(async () => {
      const rest = await app
        .http()
        .get("/api/v1/offices")
        .set("authorization", `Bearer ${user.token}`);
      expect(rest.status).toBe(200);
      const graphql = await app.graphql(OfficesDocument, {}, user.token);
      expect(graphql.status).toBe(200);
      expect(graphql.data?.offices.pagination.totalCount).toEqual(expect.any(Number));
      const missing = await app.http().get("/api/v1/no-such-path");
      expect(missing.status).toBe(404);
    });
    expect(switches).toBe(0);
  });

  it("still answer through express's helpers, with the request shell's headers", async () => {
    const response = await app.http().get("/api/v1/").set("x-request-id", "edge-check-1");
    expect(response.status).toBe(200);
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body.graphql).toBe("/graphql");
  });
});
