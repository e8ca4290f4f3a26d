import { URLPattern } from "urlpattern-polyfill";
import { bearer, buildAdmin, buildOffice, buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Express matches a REST path and calls the handler Sofa made for its operation directly
 * (src/http/rest/rest-api.ts): Sofa's own router (feTS) is not asked to match the same
 * request again through a fetch Request and URL patterns (urlpattern-polyfill, several
 * microseconds a pattern), and Sofa's fetch Response is written back by us.
 */

let app: TestApp;
let member: TestUser;
let officeId: string;

beforeAll(async () => {
  app = await startTestApp();
  const admin = await buildAdmin(app);
  member = await buildUser(app);
  officeId = (await buildOffice(app, admin)).id;
});
afterAll(() => app.close());

async function patternsTriedWhile(request: () => Promise<unknown>): Promise<number> {
  const exec = jest.spyOn(URLPattern.prototype, "exec");
  try {
    await request();
    return exec.mock.calls.length;
  } finally {
    exec.mockRestore();
  }
}

describe("REST paths", () => {
  it("reach Sofa's handler without trying a URL pattern, and answer its JSON as sent", async () => {
    let status = 0;
    let headers: Record<string, string> = {};
    let text = "";
    const tried = await patternsTriedWhile(async () => {
      const response = await app.http().get(`/api/v1/offices/${officeId}`).set(bearer(member));
      ({ status, headers, text } = response);
    });
    expect(tried).toBe(0);
    expect(status).toBe(200);
    expect(headers["content-type"]).toMatch(/^application\/json/);
    expect(Number(headers["content-length"])).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toMatchObject({ code: "OK", data: { id: officeId } });
  });

  it("answer an operation's error with its status and envelope, no pattern tried either", async () => {
    let status = 0;
    let body: unknown;
    const missing = "00000000-0000-4000-8000-000000000000";
    const tried = await patternsTriedWhile(async () => {
      ({ status, body } = await app.http().get(`/api/v1/offices/${missing}`).set(bearer(member)));
    });
    expect(tried).toBe(0);
    expect(status).toBe(404);
    expect(body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });

  it("still read path parameters and the query string of a parameterised path", async () => {
    const response = await app
      .http()
      .get(`/api/v1/offices/${officeId}/holders?limit=5`)
      .set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({ limit: 5 });
  });
});
