/**
 * A session past its `expiresAt` is refused by that date alone, whether or not the database has
 * deleted it yet: a TTL index is housekeeping (and the development FerretDB has none), never
 * what the rule rests on. Time passing is written straight into the stored session.
 */
import { bearer, buildUser, login, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startTestApp, type TestApp } from "../support/test-app";

const AUTH = "/api/v1/auth";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const sessions = () => rawDb(app).sessions;

/** The session id an access token carries (`sid`). */
const sessionOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { sid: string }).sid;

describe("a session whose lifetime has run out, still stored", () => {
  let user: TestUser;
  let expired: { token: string; refreshCookie: string };
  let live: { token: string };

  beforeAll(async () => {
    user = await buildUser(app);
    expired = await login(app, user.email, user.password);
    live = await login(app, user.email, user.password);
    const past = new Date(Date.now() - 1_000);
    const { matchedCount } = await sessions().updateOne(
      { _id: sessionOf(expired.token) },
      { $set: { expiresAt: past, refreshExpiresAt: past } },
    );
    expect(matchedCount).toBe(1);
  });

  it("refuses its access token with 401", async () => {
    const response = await app.http().get("/api/v1/users/current").set(bearer(expired));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("refuses its refresh token with 401, and issues nothing", async () => {
    const response = await app
      .http()
      .get(`${AUTH}/refresh-token`)
      .set("cookie", expired.refreshCookie);
    expect(response.status).toBe(401);
    expect(response.body.accessToken).toBeUndefined();
  });

  it("is not among the user's sessions, while the other session still works", async () => {
    const response = await app.http().get(`${AUTH}/sessions`).set(bearer(live));
    expect(response.status).toBe(200);
    const ids = (response.body as { sessions: { id: string }[] }).sessions.map((s) => s.id);
    expect(ids).toContain(sessionOf(live.token));
    expect(ids).not.toContain(sessionOf(expired.token));
    expect(await sessions().countDocuments({ _id: sessionOf(expired.token) })).toBe(1);
  });
});
