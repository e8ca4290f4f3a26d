import { approvedMemberOf, bearer, type TestUser } from "./factories";
import type { TestApp } from "./test-app";

export const API = "/api/v1";

/** An approved member: their account, record id and a helper for their own calls. */
export async function approvedMember(app: TestApp, admin: TestUser) {
  const member = await approvedMemberOf(app, admin);
  const as = bearer(member.user);
  return {
    ...member,
    get: (path: string) => app.http().get(`${API}${path}`).set(as),
    put: (path: string, body: object) => app.http().put(`${API}${path}`).set(as).send(body),
  };
}

/** An administrator's call. */
export const adminCall = (app: TestApp, admin: TestUser) => ({
  get: (path: string) => app.http().get(`${API}${path}`).set(bearer(admin)),
  patch: (path: string, body: object) =>
    app.http().patch(`${API}${path}`).set(bearer(admin)).send(body),
  post: (path: string, body: object) =>
    app.http().post(`${API}${path}`).set(bearer(admin)).send(body),
  put: (path: string, body: object) =>
    app.http().put(`${API}${path}`).set(bearer(admin)).send(body),
  delete: (path: string) => app.http().delete(`${API}${path}`).set(bearer(admin)),
});
