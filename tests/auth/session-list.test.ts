import jwt from "jsonwebtoken";
import { EndSessionDocument, SessionsDocument } from "../graphql/generated";
import { bearer, buildUser, refreshCookieOf, TEST_PASSWORD } from "../support/factories";
import { UNKNOWN_ID } from "../support/expectations";
import { startTestApp, type TestApp } from "../support/test-app";

const AUTH = "/api/v1/auth";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sessionIdOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;
const listSessions = (token: string) => app.http().get(`${AUTH}/sessions`).set(bearer({ token }));
const endSession = (token: string, id: string) =>
  app.http().delete(`${AUTH}/sessions/${id}`).set(bearer({ token }));
const currentUserStatus = async (token: string) =>
  (await app.http().get("/api/v1/users/current").set(bearer({ token }))).status;

/** A login with its own user agent; answers its access token and refresh cookie. */
async function signInWith(email: string, userAgent: string) {
  const response = await app
    .http()
    .post(`${AUTH}/login`)
    .send({ email, password: TEST_PASSWORD, userAgent });
  expect(response.status).toBe(200);
  return {
    token: response.body.accessToken as string,
    refreshCookie: refreshCookieOf(response.headers["set-cookie"]),
  };
}

describe("GET /auth/sessions", () => {
  it("lists the caller's live sessions newest first, marks the current one and shows no secret", async () => {
    const user = await buildUser(app);
    const laptop = await signInWith(user.email, "Laptop Browser/1.0");
    const phone = await signInWith(user.email, "Phone App/2.0");
    const ended = await signInWith(user.email, "Old Tablet/0.9");
    expect((await app.http().delete(`${AUTH}/logout`).set(bearer(ended))).status).toBe(200);
    const stranger = await buildUser(app);

    const response = await listSessions(laptop.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: "OK",
      message: expect.any(String),
      sessions: [
        {
          id: sessionIdOf(phone.token),
          userAgent: "Phone App/2.0",
          createdAt: expect.stringMatching(ISO),
          lastUsedAt: expect.stringMatching(ISO),
          current: false,
          isCurrent: false,
          ipAddress: expect.any(String),
          expiredAt: expect.stringMatching(ISO),
        },
        {
          id: sessionIdOf(laptop.token),
          userAgent: "Laptop Browser/1.0",
          createdAt: expect.stringMatching(ISO),
          lastUsedAt: expect.stringMatching(ISO),
          current: true,
          isCurrent: true,
          ipAddress: expect.any(String),
          expiredAt: expect.stringMatching(ISO),
        },
        // buildUser's login, and before it the registration's own sign-in.
        expect.objectContaining({ id: sessionIdOf(user.token), current: false }),
        expect.objectContaining({ current: false }),
      ],
      // The web client's shape of the same list.
      data: {
        currentSession: expect.objectContaining({
          id: sessionIdOf(laptop.token),
          isCurrent: true,
          ipAddress: expect.any(String),
          expiredAt: expect.stringMatching(ISO),
        }),
        sessions: expect.any(Array),
      },
    });
    const ids = (response.body.sessions as { id: string }[]).map((session) => session.id);
    const clientIds = (response.body.data.sessions as { id: string; isCurrent: boolean }[]).map(
      (session) => session.id,
    );
    expect(clientIds).toEqual(ids);
    expect(ids).not.toContain(sessionIdOf(ended.token));
    expect(ids).not.toContain(sessionIdOf(stranger.token));
  });

  it("moves lastUsedAt on a refresh", async () => {
    const user = await buildUser(app);
    const tab = await signInWith(user.email, "Refreshing Browser");
    const lastUsed = async (token: string) => {
      const sessions = (await listSessions(token)).body.sessions as {
        id: string;
        lastUsedAt: string;
      }[];
      return sessions.find((session) => session.id === sessionIdOf(tab.token))!.lastUsedAt;
    };
    const before = await lastUsed(tab.token);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refreshed = await app
      .http()
      .get(`${AUTH}/refresh-token`)
      .set("cookie", tab.refreshCookie);
    expect(refreshed.status).toBe(200);
    const after = await lastUsed(refreshed.body.accessToken as string);
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
  });

  it("needs a token", async () => {
    const response = await app.http().get(`${AUTH}/sessions`);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("DELETE /auth/sessions/{id}", () => {
  it("ends one of the caller's sessions: 204, its tokens refused, the others untouched", async () => {
    const user = await buildUser(app);
    const keep = await signInWith(user.email, "Keeper");
    const lost = await signInWith(user.email, "Lost Phone");

    const response = await endSession(keep.token, sessionIdOf(lost.token));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");

    expect(await currentUserStatus(lost.token)).toBe(401);
    const refresh = await app.http().get(`${AUTH}/refresh-token`).set("cookie", lost.refreshCookie);
    expect(refresh.status).toBe(401);
    expect(await currentUserStatus(keep.token)).toBe(200);
    const ids = ((await listSessions(keep.token)).body.sessions as { id: string }[]).map(
      (session) => session.id,
    );
    expect(ids).not.toContain(sessionIdOf(lost.token));
  });

  it("answers the same 404 for another user's session, an unknown id and an ended one", async () => {
    const owner = await buildUser(app);
    const intruder = await buildUser(app);
    const ended = await signInWith(owner.email, "Ended");
    expect((await endSession(owner.token, sessionIdOf(ended.token))).status).toBe(204);

    const foreign = await endSession(intruder.token, sessionIdOf(owner.token));
    const unknown = await endSession(intruder.token, UNKNOWN_ID);
    const again = await endSession(owner.token, sessionIdOf(ended.token));
    for (const response of [foreign, unknown, again]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: "NOT_FOUND", message: foreign.body.message });
    }
    // The owner's session was not touched by the intruder.
    expect(await currentUserStatus(owner.token)).toBe(200);
  });

  it("answers 400 for an id that is not a UUID, as every path id", async () => {
    const user = await buildUser(app);
    const response = await endSession(user.token, "not-a-uuid");
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
  });

  it("ending the current session signs it out and clears the cookie", async () => {
    const user = await buildUser(app);
    const response = await endSession(user.token, sessionIdOf(user.token));
    expect(response.status).toBe(204);
    const cookies = ([] as string[]).concat(response.headers["set-cookie"] ?? []);
    expect(cookies.some((cookie) => /^refreshToken=;/.test(cookie))).toBe(true);
    expect(await currentUserStatus(user.token)).toBe(401);
  });
});

describe("GraphQL sessions and endSession", () => {
  it("lists and ends the caller's sessions; another's id is NOT_FOUND", async () => {
    const user = await buildUser(app);
    const second = await signInWith(user.email, "GraphQL Client");
    const stranger = await buildUser(app);

    const listed = await app.graphql(SessionsDocument, {}, second.token);
    expect(listed.errors).toBeUndefined();
    // Then buildUser's login, and the registration's own sign-in before it.
    const ids = listed.data?.sessions.sessions.map((session) => session.id);
    expect(ids).toHaveLength(3);
    expect(ids?.slice(0, 2)).toEqual([sessionIdOf(second.token), sessionIdOf(user.token)]);
    expect(listed.data?.sessions.sessions[0].current).toBe(true);

    const foreign = await app.graphql(
      EndSessionDocument,
      { id: sessionIdOf(user.token) },
      stranger.token,
    );
    expect(foreign.errors?.[0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });

    const ended = await app.graphql(
      EndSessionDocument,
      { id: sessionIdOf(user.token) },
      second.token,
    );
    expect(ended.errors).toBeUndefined();
    expect(ended.data?.endSession.code).toBe("OK");
    expect(await currentUserStatus(user.token)).toBe(401);
  });
});
