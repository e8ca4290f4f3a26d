/*
 * What the public page tests share: members made through the public API, uploads through
 * POST /files, and the calls of the owner edits and the public page.
 */
import { approvedMemberOf, bearer, type TestUser } from "./factories";
import type { TestApp } from "./test-app";
import { PDF, PNG, upload } from "./file-samples";

export interface Uploaded {
  id: string;
  fileUrl: string;
}

/** A file `user` uploaded with POST /files: a PNG unless `pdf`. */
export async function uploaded(
  app: TestApp,
  user: TestUser,
  purpose: string,
  pdf = false,
): Promise<Uploaded> {
  const response = await upload(app, user, pdf ? PDF : PNG, {
    purpose,
    filename: pdf ? "certificate.pdf" : "picture.png",
    contentType: pdf ? "application/pdf" : "image/png",
  });
  if (response.status !== 201) {
    throw new Error(`upload: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as Uploaded;
}

/** An APPROVED member with a uniqueId, signed in. */
export async function approvedMember(app: TestApp, admin: TestUser, application = {}) {
  const member = await approvedMemberOf(app, admin, application);
  const mine = await app.http().get("/api/v1/members/me").set(bearer(member.user));
  return { ...member, uniqueId: mine.body.data[0].uniqueId as string };
}

/** The member's choice of what the page shows (all six choices; those left out are off). */
export async function choose(app: TestApp, user: TestUser, choice: Record<string, boolean>) {
  const response = await app
    .http()
    .put("/api/v1/members/current/public-profile")
    .set(bearer(user))
    .send(choice);
  if (response.status !== 200) throw new Error(`choose: ${response.status}`);
}

export const publicPage = (app: TestApp, key: string) =>
  app.http().get(`/api/v1/members/public/${encodeURIComponent(key)}`);

/** A request of `user` to the API: `send(method, path, body)`. */
export function as(app: TestApp, user: TestUser) {
  return (method: "get" | "post" | "put" | "delete", path: string, body?: object) => {
    const request = app.http()[method](`/api/v1${path}`).set(bearer(user));
    return body === undefined ? request : request.send(body);
  };
}

/** The status of a public file read: 200 while a public page shows it, else 404. */
export async function publicFileStatus(app: TestApp, fileId: string): Promise<number> {
  return (await app.http().get(`/api/v1/files/public/${fileId}`)).status;
}
