import { print } from "graphql";
import jwt from "jsonwebtoken";
import { RefreshTokenDocument } from "../graphql/generated";
import { bearer, buildUser, login, refreshCookieOf } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

/*
 * Issue 33 point 5: two tabs of one browser refresh with the same cookie at once. The second
 * use of the token just rotated out, within REFRESH_REUSE_GRACE_SECONDS, answers the same new
 * access token and cookie; after the window it is theft and ends the session. The window is
 * the default one; the test moves the app's clock past it rather than waiting.
 */
const AUTH = "/api/v1/auth";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const refresh = (cookie: string) => app.http().get(`${AUTH}/refresh-token`).set("cookie", cookie);
const currentUserStatus = async (token: string) =>
  (await app.http().get("/api/v1/users/current").set(bearer({ token }))).status;
const sessionOf = (token: string) =>
  rawDb(app)
    .sessions.findById((jwt.decode(token) as { sid: string }).sid)
    .lean();

describe("two refreshes with one cookie inside the grace window", () => {
  it("both succeed with the same access token and cookie, and the session lives on", async () => {
    const user = await buildUser(app);
    const tab = await login(app, user.email, user.password);

    const [first, second] = await Promise.all([
      refresh(tab.refreshCookie),
      refresh(tab.refreshCookie),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const cookie = refreshCookieOf(first.headers["set-cookie"]);
    expect(refreshCookieOf(second.headers["set-cookie"])).toBe(cookie);
    expect(cookie).not.toBe(tab.refreshCookie);
    expect(second.body.accessToken).toBe(first.body.accessToken);
    expect(jwt.decode(first.body.accessToken as string)).toMatchObject({
      sid: (jwt.decode(tab.token) as { sid: string }).sid,
    });

    expect(await currentUserStatus(first.body.accessToken as string)).toBe(200);
    expect(await currentUserStatus(tab.token)).toBe(200);
    // The shared new cookie goes on rotating.
    const next = await refresh(cookie);
    expect(next.status).toBe(200);
    expect(await currentUserStatus(next.body.accessToken as string)).toBe(200);
  });

  it("a second refresh one after the other, still inside the window, gets the same answer", async () => {
    const user = await buildUser(app);
    const tab = await login(app, user.email, user.password);
    const first = await refresh(tab.refreshCookie);
    const second = await refresh(tab.refreshCookie);
    expect(second.status).toBe(200);
    expect(refreshCookieOf(second.headers["set-cookie"])).toBe(
      refreshCookieOf(first.headers["set-cookie"]),
    );
    expect(second.body.accessToken).toBe(first.body.accessToken);
  });

  it("only the token just rotated out: an older one is theft even inside the window", async () => {
    const user = await buildUser(app);
    const tab = await login(app, user.email, user.password);
    const first = await refresh(tab.refreshCookie);
    const second = await refresh(refreshCookieOf(first.headers["set-cookie"]));
    expect(second.status).toBe(200);
    // The login's token is two rotations old.
    expect((await refresh(tab.refreshCookie)).status).toBe(401);
    expect((await sessionOf(tab.token))?.revokedReason).toMatch(/reuse/);
    expect(await currentUserStatus(second.body.accessToken as string)).toBe(401);
  });

  it("over GraphQL too: refreshToken twice with one cookie gives one answer", async () => {
    const user = await buildUser(app);
    const tab = await login(app, user.email, user.password);
    const viaGraphql = () =>
      app
        .http()
        .post("/graphql")
        .set("cookie", tab.refreshCookie)
        .send({ query: print(RefreshTokenDocument) });
    const [first, second] = await Promise.all([viaGraphql(), viaGraphql()]);
    expect(first.body.errors).toBeUndefined();
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data.refreshToken.accessToken).toBe(
      first.body.data.refreshToken.accessToken,
    );
    expect(refreshCookieOf(second.headers["set-cookie"])).toBe(
      refreshCookieOf(first.headers["set-cookie"]),
    );
  });
});

describe("a reuse after the grace window", () => {
  it("is theft: 401, and the session and its access tokens end", async () => {
    const user = await buildUser(app);
    const tab = await login(app, user.email, user.password);
    const rotated = await refresh(tab.refreshCookie);
    expect(rotated.status).toBe(200);
    app.internals.clock.advance(app.config.refreshReuseGraceSeconds + 1);

    const late = await refresh(tab.refreshCookie);
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({ code: "UNAUTHENTICATED" });
    const session = await sessionOf(tab.token);
    expect(session?.revokedAt).toBeInstanceOf(Date);
    expect(session?.revokedReason).toMatch(/reuse/);
    expect(await currentUserStatus(rotated.body.accessToken as string)).toBe(401);
    expect(await currentUserStatus(tab.token)).toBe(401);
    expect((await refresh(refreshCookieOf(rotated.headers["set-cookie"]))).status).toBe(401);
  });
});
