import { bearer, buildOffice, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

/**
 * What every path under /api/v1 does whichever operation it runs (src/http/rest/rest-api.ts):
 * Sofa's JSON answered as sent, an operation's error in our envelope, path parameters and the
 * query string read, and nothing off the route table reachable, Sofa's own routes included.
 */

let app: TestApp;
let admin: TestUser;
let member: TestUser;
let officeId: string;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
  officeId = (await buildOffice(app, admin)).id;
});
afterAll(() => app?.close());

describe("REST paths", () => {
  it("answer the operation's JSON with its length", async () => {
    const response = await app.http().get(`/api/v1/offices/${officeId}`).set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.text));
    expect(JSON.parse(response.text)).toMatchObject({ code: "OK", data: { id: officeId } });
  });

  it("check the caller before the arguments: 401 and 403 rather than 400, for bad and good input", async () => {
    const bad = { name: "", level: "NOT_A_LEVEL" };
    const good = { name: `Title ${Date.now()}`, level: "CITY_CHAPLAIN" };
    for (const body of [bad, good]) {
      const anonymous = await app.http().post("/api/v1/offices/create").send(body);
      expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHENTICATED"]);
      const asMember = await app
        .http()
        .post("/api/v1/offices/create")
        .set(bearer(member))
        .send(body);
      expect([asMember.status, asMember.body.code]).toEqual([403, "FORBIDDEN"]);
    }
    const asAdmin = await app.http().post("/api/v1/offices/create").set(bearer(admin)).send(bad);
    expect([asAdmin.status, asAdmin.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const listed = await app.http().get("/api/v1/offices?limit=100").set(bearer(admin));
    expect(listed.body.data.map((office: { name: string }) => office.name)).not.toContain(
      good.name,
    );
  });

  it("answer 404 in the envelope for a path the route table spells otherwise, never a 500", async () => {
    const paths = [
      `/api/v1/Offices/${officeId}`,
      `/api/v1/OFFICES/${officeId}`,
      `/API/v1/offices/${officeId}`,
      `/api/v1/offices/${officeId}/`,
      "/api/v1/offices/",
    ];
    for (const path of paths) {
      const response = await app.http().get(path).set(bearer(member));
      expect({ path, status: response.status, code: response.body.code }).toEqual({
        path,
        status: 404,
        code: "NOT_FOUND",
      });
    }
  });

  it("answer an operation's error with its status and envelope", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const response = await app.http().get(`/api/v1/offices/${missing}`).set(bearer(member));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });

  it("read path parameters and the query string of a parameterised path", async () => {
    const response = await app
      .http()
      .get(`/api/v1/offices/${officeId}/holders?limit=5`)
      .set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({ limit: 5 });
  });

  it("answer 204 with neither body nor content type", async () => {
    const doomed = await buildOffice(app, admin, { name: "Office to delete" });
    const response = await app.http().delete(`/api/v1/offices/${doomed.id}`).set(bearer(admin));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(response.headers["content-type"]).toBeUndefined();
  });

  it.each([
    ["GET", "/api/v1/no-such-path"],
    ["GET", "/api/v1/office"],
    ["POST", "/api/v1/offices"],
    ["POST", "/api/v1/webhook"],
    ["DELETE", "/api/v1/webhook/some-id"],
    ["GET", "/api/v1/openapi.json/extra"],
  ])("answer %s %s, off the route table, 404 in our envelope", async (method, path) => {
    const response = await app
      .http()
      [method.toLowerCase() as "get" | "post" | "delete"](path)
      .set(bearer(admin))
      .send(method === "POST" ? { subscription: "{ __typename }", url: "http://x" } : undefined);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });
});
