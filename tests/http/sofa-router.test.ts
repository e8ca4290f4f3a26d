import { URLPattern } from "urlpattern-polyfill";
import { bearer, buildAdmin, buildOffice, buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Sofa's router (feTS) finds a REST path's operation by trying URL patterns in turn, through
 * urlpattern-polyfill at several microseconds a pattern (patches/fets+*.patch): patterns whose
 * plain start the path lacks are skipped, and the others see only the pathname.
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

async function patternsTriedFor(path: string): Promise<unknown[]> {
  const exec = jest.spyOn(URLPattern.prototype, "exec");
  try {
    const response = await app.http().get(path).set(bearer(member));
    expect(response.status).toBe(200);
    return exec.mock.calls.map(([input]) => input);
  } finally {
    exec.mockRestore();
  }
}

describe("Sofa's router", () => {
  it("tries only the patterns under the path's own resource, with the pathname alone", async () => {
    const tried = await patternsTriedFor(`/api/v1/offices/${officeId}`);
    // "/offices/:id/holders" shares the start "/api/v1/offices"; nothing of other resources.
    expect(tried.length).toBeGreaterThanOrEqual(1);
    expect(tried.length).toBeLessThanOrEqual(2);
    for (const input of tried) expect(input).toEqual({ pathname: `/api/v1/offices/${officeId}` });
  });

  it("still reads path parameters and the query string of a parameterised path", async () => {
    const response = await app
      .http()
      .get(`/api/v1/offices/${officeId}/holders?limit=5`)
      .set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({ limit: 5 });
  });
});
