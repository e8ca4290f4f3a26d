import { print } from "graphql";
import jwt from "jsonwebtoken";
import { CurrentUserDocument, LogoutDocument, RefreshTokenDocument } from "../graphql/generated";
import {
  bearer,
  buildUser,
  login,
  loginBootstrapAdmin,
  refreshCookieOf,
  TEST_PASSWORD,
  type TestUser,
} from "../support/factories";
import { BOOTSTRAP_ADMIN, PRODUCTION_ENV, startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

const AUTH = "/api/v1/auth";
const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;

let app: TestApp;

// Reuse detection at its plainest, without the two-tabs grace window (refresh-grace.test.ts).
beforeAll(async () => {
  app = await startTestApp({ REFRESH_REUSE_GRACE_SECONDS: "0" });
});
afterAll(() => app?.close());

interface SignedIn {
  token: string;
  refreshCookie: string;
}

const sessionIdOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;
const sessionOf = (token: string) => rawDb(app).sessions.findById(sessionIdOf(token)).lean();
const setCookiesOf = (header: string[] | string | undefined): string[] =>
  Array.isArray(header) ? header : header ? [header] : [];
const refreshSetCookie = (header: string[] | string | undefined): string => {
  const found = setCookiesOf(header).find((cookie) => cookie.startsWith("refreshToken="));
  if (!found) throw new Error(`no refreshToken Set-Cookie in ${JSON.stringify(header)}`);
  return found;
};
const attributesOf = (setCookie: string): string[] =>
  setCookie
    .split(";")
    .slice(1)
    .map((part) => part.trim());
const expiresOf = (setCookie: string): number => {
  const attribute = attributesOf(setCookie).find((part) => /^expires=/i.test(part));
  if (!attribute) throw new Error(`no Expires in ${setCookie}`);
  return new Date(attribute.slice("expires=".length)).getTime();
};

const refresh = (cookie?: string) => {
  const request = app.http().get(`${AUTH}/refresh-token`);
  if (cookie !== undefined) request.set("cookie", cookie);
  return request;
};
const currentUser = (token: string) =>
  app.http().get("/api/v1/users/current").set(bearer({ token }));

/** The token is refused on REST (401 UNAUTHENTICATED) and on /graphql (UNAUTHENTICATED). */
async function expectTokenRefused(token: string): Promise<void> {
  const rest = await currentUser(token);
  expect(rest.status).toBe(401);
  expect(rest.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  const graphql = await app.graphql(CurrentUserDocument, {}, token);
  expect(graphql.data?.currentUser ?? null).toBeNull();
  expect(graphql.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
}

async function expectTokenAccepted(token: string, user: { id: string }): Promise<void> {
  const rest = await currentUser(token);
  expect(rest.status).toBe(200);
  expect(rest.body.user.id).toBe(user.id);
}

async function expectRefreshRefused(cookie: string): Promise<void> {
  const response = await refresh(cookie);
  expect(response.status).toBe(401);
  expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
  expect(response.body).not.toHaveProperty("accessToken");
  expect(setCookiesOf(response.headers["set-cookie"])).not.toContainEqual(
    expect.stringMatching(/^refreshToken=[^;]+/),
  );
}

/** A refresh through REST that must succeed; returns the new pair. */
async function rotate(cookie: string): Promise<SignedIn> {
  const response = await refresh(cookie);
  expect(response.status).toBe(200);
  return {
    token: response.body.accessToken as string,
    refreshCookie: refreshCookieOf(response.headers["set-cookie"]),
  };
}

const signIn = (user: TestUser): Promise<SignedIn> => login(app, user.email, user.password);

describe("sessions: POST /auth/login", () => {
  it("records a session with the body's userAgent, the client ip and fresh timestamps", async () => {
    const user = await buildUser(app);
    const before = Date.now();
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .set("user-agent", "header-agent/1.0")
      .send({ email: user.email, password: TEST_PASSWORD, userAgent: "Body Agent/2.0" });
    expect(response.status).toBe(200);
    const cookie = refreshCookieOf(response.headers["set-cookie"]);
    const session = await sessionOf(response.body.accessToken);
    expect(session).not.toBeNull();
    expect(session).toMatchObject({
      userId: user.id,
      userAgent: "Body Agent/2.0",
      revokedAt: null,
    });
    expect(["127.0.0.1", "::ffff:127.0.0.1"]).toContain(session!.ip);
    expect(session!.createdAt).toBeInstanceOf(Date);
    expect(session!.lastUsedAt).toBeInstanceOf(Date);
    expect(session!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(session!.lastUsedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const cookieValue = decodeURIComponent(cookie.slice("refreshToken=".length));
    expect(cookieValue.length).toBeGreaterThan(20);
    expect(session!.refreshTokenHash).toEqual(expect.any(String));
    expect(session!.refreshTokenHash).not.toBe(cookieValue);
    expect(JSON.stringify(session)).not.toContain(cookieValue);
    // The secret part after the session id must not be stored either.
    const secretPart = cookieValue.split(".").slice(1).join(".");
    expect(secretPart.length).toBeGreaterThan(10);
    expect(JSON.stringify(session)).not.toContain(secretPart);
  });

  it("stores the User-Agent header when the body has no userAgent", async () => {
    const user = await buildUser(app);
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .set("user-agent", "HeaderOnly/3.1 (test)")
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    const session = await sessionOf(response.body.accessToken);
    expect(session).toMatchObject({ userId: user.id, userAgent: "HeaderOnly/3.1 (test)" });
  });

  it("gives each login its own session, named by the access token's sid", async () => {
    const user = await buildUser(app);
    const first = await signIn(user);
    const second = await signIn(user);
    expect(sessionIdOf(first.token)).not.toBe(sessionIdOf(second.token));
    expect(await sessionOf(first.token)).toMatchObject({ userId: user.id });
    expect(await sessionOf(second.token)).toMatchObject({ userId: user.id });
  });
});

describe("the refreshToken cookie", () => {
  it("is HttpOnly, SameSite=Strict, Path=/api/v1/auth, expires in 7 days and is not Secure in test", async () => {
    const user = await buildUser(app);
    const response = await app
      .http()
      .post(`${AUTH}/login`)
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    const setCookie = refreshSetCookie(response.headers["set-cookie"]);
    const attributes = attributesOf(setCookie).map((part) => part.toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=strict");
    expect(attributes).toContain("path=/api/v1/auth");
    expect(attributes).not.toContain("secure");
    expect(Math.abs(expiresOf(setCookie) - (Date.now() + SEVEN_DAYS_MS))).toBeLessThan(60_000);
  });

  it("is marked Secure when NODE_ENV=production", async () => {
    const production = await startTestApp(PRODUCTION_ENV);
    try {
      const response = await production
        .http()
        .post(`${AUTH}/login`)
        .send({ email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password });
      expect(response.status).toBe(200);
      const setCookie = refreshSetCookie(response.headers["set-cookie"]);
      const attributes = attributesOf(setCookie).map((part) => part.toLowerCase());
      expect(attributes).toContain("secure");
      expect(attributes).toContain("httponly");
      expect(attributes).toContain("samesite=strict");
      expect(attributes).toContain("path=/api/v1/auth");
    } finally {
      await production.close();
    }
  });
});

describe("GET /auth/refresh-token", () => {
  it("answers {code, message, accessToken} with a new cookie; the new token works for the same session", async () => {
    const user = await buildUser(app);
    const signedIn = await signIn(user);
    const countSessions = () => rawDb(app).sessions.countDocuments({ userId: user.id });
    const sessionsBefore = await countSessions();
    const response = await refresh(signedIn.refreshCookie);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      accessToken: expect.any(String),
    });
    const newCookie = refreshCookieOf(response.headers["set-cookie"]);
    expect(newCookie).not.toBe(signedIn.refreshCookie);
    const setCookie = refreshSetCookie(response.headers["set-cookie"]);
    expect(attributesOf(setCookie).map((part) => part.toLowerCase())).toEqual(
      expect.arrayContaining(["httponly", "samesite=strict", "path=/api/v1/auth"]),
    );

    const accessToken = response.body.accessToken as string;
    expect(accessToken).not.toBe(signedIn.token);
    expect(sessionIdOf(accessToken)).toBe(sessionIdOf(signedIn.token));
    await expectTokenAccepted(accessToken, user);

    // The new cookie is the live one and rotates in turn.
    const again = await rotate(newCookie);
    expect(sessionIdOf(again.token)).toBe(sessionIdOf(signedIn.token));
    // Rotation renews the session; it does not open new ones.
    expect(await countSessions()).toBe(sessionsBefore);
  });

  it("refuses a request without the cookie with 401 UNAUTHENTICATED", async () => {
    const response = await refresh();
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
    expect(response.body).not.toHaveProperty("accessToken");
  });

  it("refuses an empty or garbage cookie with 401 UNAUTHENTICATED", async () => {
    await expectRefreshRefused("refreshToken=");
    await expectRefreshRefused("refreshToken=garbage");
    await expectRefreshRefused("refreshToken=not-a-session.c29tZXRoaW5nLXJhbmRvbS1sb29raW5n");
  });

  it("refuses a made-up secret for a real session id, and that session keeps working", async () => {
    const user = await buildUser(app);
    const signedIn = await signIn(user);
    const sessionId = sessionIdOf(signedIn.token);
    await expectRefreshRefused(`refreshToken=${sessionId}.${"A".repeat(43)}`);
    expect(await sessionOf(signedIn.token)).toMatchObject({ revokedAt: null });
    await expectTokenAccepted(signedIn.token, user);
    await rotate(signedIn.refreshCookie);
  });
});

describe("refresh token rotation and reuse detection", () => {
  it("ends the whole session when a rotated-out token comes back; other sessions are unaffected", async () => {
    const user = await buildUser(app);
    const other = await signIn(user);
    const a = await signIn(user);
    const b = await rotate(a.refreshCookie);

    // A was swapped for B: presenting A again is reuse.
    await expectRefreshRefused(a.refreshCookie);
    // From then on the session is over: B is refused too ...
    await expectRefreshRefused(b.refreshCookie);
    // ... and so are its access tokens, the login's and the refreshed one, on REST and /graphql.
    await expectTokenRefused(a.token);
    await expectTokenRefused(b.token);

    const session = await sessionOf(a.token);
    expect(session!.revokedAt).toBeInstanceOf(Date);
    expect(session!.revokedReason).toMatch(/reuse/i);

    // The user's other session lives on.
    expect(await sessionOf(other.token)).toMatchObject({ revokedAt: null, revokedReason: null });
    await expectTokenAccepted(other.token, user);
    const graphql = await app.graphql(CurrentUserDocument, {}, other.token);
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data!.currentUser.user.id).toBe(user.id);
    const rotatedOther = await rotate(other.refreshCookie);
    await expectTokenAccepted(rotatedOther.token, user);
  });
});

describe("DELETE /auth/logout", () => {
  it("answers 200 {code, message}, clears the cookie and ends only this session", async () => {
    const user = await buildUser(app);
    const other = await signIn(user);
    const current = await signIn(user);

    const response = await app.http().delete(`${AUTH}/logout`).set(bearer(current));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: "OK", message: expect.any(String) });
    const cleared = refreshSetCookie(response.headers["set-cookie"]);
    expect(cleared).toMatch(/^refreshToken=;/);
    expect(expiresOf(cleared)).toBeLessThanOrEqual(Date.now());
    expect(attributesOf(cleared).map((part) => part.toLowerCase())).toContain("path=/api/v1/auth");

    await expectTokenRefused(current.token);
    await expectRefreshRefused(current.refreshCookie);
    const session = await sessionOf(current.token);
    expect(session!.revokedAt).toBeInstanceOf(Date);
    expect(session!.revokedReason).toMatch(/logout/i);

    await expectTokenAccepted(other.token, user);
    await rotate(other.refreshCookie);
  });

  it("refuses a logout without a token (401 UNAUTHENTICATED) and ends no session", async () => {
    const user = await buildUser(app);
    const current = await signIn(user);
    const liveSessions = () =>
      rawDb(app).sessions.countDocuments({ userId: user.id, revokedAt: null });
    const sessionsBefore = await liveSessions();
    const response = await app.http().delete(`${AUTH}/logout`);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED", message: expect.any(String) });
    expect(await liveSessions()).toBe(sessionsBefore);
    await expectTokenAccepted(current.token, user);
  });

  it("refuses a second logout with the same, now ended, token (401)", async () => {
    const user = await buildUser(app);
    const current = await signIn(user);
    const first = await app.http().delete(`${AUTH}/logout`).set(bearer(current));
    expect(first.status).toBe(200);
    const second = await app.http().delete(`${AUTH}/logout`).set(bearer(current));
    expect(second.status).toBe(401);
    expect(second.body).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("ends the session through the GraphQL logout mutation too", async () => {
    const user = await buildUser(app);
    const other = await signIn(user);
    const current = await signIn(user);

    const result = await app.graphql(LogoutDocument, {}, current.token);
    expect(result.errors).toBeUndefined();
    expect(result.data!.logout).toEqual({ code: "OK", message: expect.any(String) });

    await expectTokenRefused(current.token);
    await expectRefreshRefused(current.refreshCookie);
    expect((await sessionOf(current.token))!.revokedAt).toBeInstanceOf(Date);
    await expectTokenAccepted(other.token, user);

    const anonymous = await app.graphql(LogoutDocument, {});
    expect(anonymous.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("GraphQL refreshToken mutation", () => {
  const refreshViaGraphql = (cookie?: string) => {
    const request = app.http().post("/graphql").set("content-type", "application/json");
    if (cookie !== undefined) request.set("cookie", cookie);
    return request.send({ query: print(RefreshTokenDocument) });
  };

  it("rotates the cookie read from the Cookie header and sets the new one", async () => {
    const user = await buildUser(app);
    const signedIn = await signIn(user);
    const response = await refreshViaGraphql(signedIn.refreshCookie);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.refreshToken).toEqual({
      code: "OK",
      message: expect.any(String),
      accessToken: expect.any(String),
    });
    const accessToken = response.body.data.refreshToken.accessToken as string;
    expect(sessionIdOf(accessToken)).toBe(sessionIdOf(signedIn.token));
    await expectTokenAccepted(accessToken, user);

    const setCookie = refreshSetCookie(response.headers["set-cookie"]);
    expect(attributesOf(setCookie).map((part) => part.toLowerCase())).toEqual(
      expect.arrayContaining(["httponly", "samesite=strict", "path=/api/v1/auth"]),
    );
    const newCookie = refreshCookieOf(response.headers["set-cookie"]);
    expect(newCookie).not.toBe(signedIn.refreshCookie);

    // The new cookie works on REST; the old one is now a reused token that ends the session.
    const viaRest = await rotate(newCookie);
    await expectRefreshRefused(signedIn.refreshCookie);
    await expectTokenRefused(viaRest.token);
    expect((await sessionOf(signedIn.token))!.revokedReason).toMatch(/reuse/i);
  });

  it("answers UNAUTHENTICATED without a cookie or with a garbage one", async () => {
    for (const cookie of [undefined, "refreshToken=garbage"]) {
      const response = await refreshViaGraphql(cookie);
      expect(response.status).toBe(200);
      expect(response.body.data?.refreshToken ?? null).toBeNull();
      expect(response.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
      expect(setCookiesOf(response.headers["set-cookie"])).not.toContainEqual(
        expect.stringMatching(/^refreshToken=[^;]+/),
      );
    }
  });
});

describe("a user deleted by an administrator", () => {
  it("loses every token: access token and refresh cookie get 401", async () => {
    const user = await buildUser(app);
    const signedIn = await signIn(user);
    await expectTokenAccepted(signedIn.token, user);

    const admin = await loginBootstrapAdmin(app);
    const deleted = await app.http().delete(`/api/v1/users/${user.id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");

    await expectTokenRefused(signedIn.token);
    await expectTokenRefused(user.token);
    await expectRefreshRefused(signedIn.refreshCookie);
    expect(await rawDb(app).users.exists({ _id: user.id })).toBeNull();
  });
});
