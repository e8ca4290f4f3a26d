import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { parse } from "graphql";
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";

/** A GraphQL document of the onboarding tests (kept beside them, not in the shared codegen set). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely, as JSON
export function gql<R = Record<string, any>>(source: string) {
  return parse(source) as TypedDocumentNode<R, Record<string, unknown>>;
}

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
