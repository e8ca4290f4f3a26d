import { randomBytes } from "node:crypto";
import { SAMPLE_APPLICATION } from "../../src/modules/members/sample-application";
import { Role } from "../../src/modules/users/role";
import { verificationCodeIn } from "./mailbox";
import { BOOTSTRAP_ADMIN, type TestApp } from "./test-app";

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

export const TEST_PASSWORD = "Secret#123";

export const bearer = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

export function uniqueEmail(label = "user"): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.org`;
}

/** POST /auth/login; fails the test on anything but a signed-in 200. */
export async function login(
  app: TestApp,
  email: string,
  password: string,
): Promise<{ token: string; refreshCookie: string; body: Record<string, unknown> }> {
  const response = await app.http().post("/api/v1/auth/login").send({ email, password });
  if (response.status !== 200 || !response.body.accessToken) {
    throw new Error(`login ${email}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return {
    token: response.body.accessToken as string,
    refreshCookie: refreshCookieOf(response.headers["set-cookie"]),
    body: response.body as Record<string, unknown>,
  };
}

/** The `refreshToken=...` pair of a response's Set-Cookie headers. */
export function refreshCookieOf(setCookie: string[] | string | undefined): string {
  const headers = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = headers.find((header) => header.startsWith("refreshToken="));
  if (!cookie) throw new Error(`no refreshToken cookie in ${JSON.stringify(headers)}`);
  return cookie.split(";")[0];
}

/** Reads the newest verification code mailed to the address and submits it. */
export async function verifyEmailOf(app: TestApp, email: string, after = 0): Promise<void> {
  const mail = await app.mail.waitFor(email, { subject: /verification code/i, after });
  const response = await app
    .http()
    .post("/api/v1/auth/verify-email")
    .send({ code: verificationCodeIn(mail) });
  if (response.status !== 200) {
    throw new Error(`verify ${email}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

/**
 * An account made the way clients make them: self-registration for a MEMBER, an
 * administrator's registration for other roles; the email verified with the mailed code
 * unless `verified: false`; signed in.
 */
export async function buildUser(
  app: TestApp,
  overrides: { role?: Role; name?: string; verified?: boolean; email?: string } = {},
): Promise<TestUser> {
  const role = overrides.role ?? Role.MEMBER;
  const email = overrides.email ?? uniqueEmail(role.toLowerCase());
  const name = overrides.name ?? "Test User";
  const request = app.http().post("/api/v1/auth/register");
  if (role !== Role.MEMBER) request.set(bearer(await loginBootstrapAdmin(app)));
  const mailsBefore = app.mail.messages.length;
  const response = await request.send({ name, email, password: TEST_PASSWORD, role });
  if (response.status !== 200) {
    throw new Error(`register ${email}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  if (overrides.verified !== false) await verifyEmailOf(app, email, mailsBefore);
  const signedIn = await login(app, email, TEST_PASSWORD);
  const id = (response.body as { user: { id: string } }).user.id;
  return { id, name, email, password: TEST_PASSWORD, role, token: signedIn.token };
}

export const buildAdmin = (app: TestApp) => buildUser(app, { role: Role.ADMIN });

/** A fresh session of the bootstrap administrator. */
export async function loginBootstrapAdmin(app: TestApp): Promise<{ token: string }> {
  return login(app, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
}

let counter = 0;
/** A distinct name for a record a factory creates. */
const uniqueLabel = (label: string) => {
  counter += 1;
  return `${label} ${counter} ${randomBytes(3).toString("hex")}`;
};

/** POSTs `body` to an admin's create path and answers the created record (201 or throws). */
async function createAs<T>(app: TestApp, admin: TestUser, path: string, body: object): Promise<T> {
  const response = await app.http().post(`/api/v1${path}`).set(bearer(admin)).send(body);
  if (response.status !== 201)
    throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { data: T }).data;
}

/** A branch of service created through POST /branch-service/create. */
export const buildBranchService = (
  app: TestApp,
  admin: TestUser,
  overrides: Record<string, unknown> = {},
) =>
  createAs<{ id: string; title: string; sections: { id: string }[] }>(
    app,
    admin,
    "/branch-service/create",
    { title: uniqueLabel("Branch"), description: "Serves the faithful", ...overrides },
  );

/** An office title created through POST /offices/create. */
export const buildOffice = (
  app: TestApp,
  admin: TestUser,
  overrides: Record<string, unknown> = {},
) =>
  createAs<{ id: string; name: string }>(app, admin, "/offices/create", {
    name: uniqueLabel("Office"),
    level: "CITY_CHAPLAIN",
    ...overrides,
  });

/** The fields an application must have (SAMPLE_APPLICATION), filled in plausibly. */
export function minimalApplication(overrides: Record<string, unknown> = {}) {
  return { ...SAMPLE_APPLICATION, ...overrides };
}

/** An application submitted through POST /members/apply by `user`; returns the record. */
export async function applyAs(
  app: TestApp,
  user: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; status: string } & Record<string, unknown>> {
  const response = await app
    .http()
    .post("/api/v1/members/apply")
    .set(bearer(user))
    .send(minimalApplication(overrides));
  if (response.status !== 201) {
    throw new Error(`apply: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return (response.body as { data: { id: string; status: string } }).data;
}

/**
 * A fresh account whose application `reviewer` approved through PATCH /members/{id}/status;
 * `name` is the record's "first last".
 */
export async function approvedMemberOf(
  app: TestApp,
  reviewer: { token: string },
  application: Record<string, unknown> = {},
): Promise<{ user: TestUser; id: string; name: string }> {
  const user = await buildUser(app, { name: "Applicant" });
  const record = await applyAs(app, user, application);
  const response = await app
    .http()
    .patch(`/api/v1/members/${record.id}/status`)
    .set(bearer(reviewer))
    .send({ status: "APPROVED" });
  if (response.status !== 200) {
    throw new Error(`approve: ${response.status} ${JSON.stringify(response.body)}`);
  }
  const { firstName, lastName } = minimalApplication(application);
  return { user, id: record.id, name: `${String(firstName)} ${String(lastName)}` };
}
