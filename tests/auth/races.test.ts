import jwt from "jsonwebtoken";
import { buildUser, login, refreshCookieOf, uniqueEmail } from "../support/factories";
import { resetTokenIn } from "../support/mailbox";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

/*
 * Single-use secrets under concurrent use. Each is spent by one conditional update whose
 * filter holds the precondition; FerretDB v1 as released did not check such a filter and
 * write in one step, the build the tests run on serialises the writes of a collection (see
 * ferretdb-patches/write_lock.go), and MongoDB applies each document's update atomically.
 * Each test fires the requests together and would see two successes otherwise.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("one refresh token presented twice at once", () => {
  it("rotates once; within the grace window every request gets that one rotation's answer", async () => {
    const user = await buildUser(app);
    const session = await login(app, user.email, user.password);
    const refresh = () =>
      app.http().get("/api/v1/auth/refresh-token").set("cookie", session.refreshCookie);
    const responses = await Promise.all([refresh(), refresh(), refresh()]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    // Never two new tokens: one cookie, one access token.
    const cookies = new Set(
      responses.map((response) => refreshCookieOf(response.headers["set-cookie"])),
    );
    const tokens = new Set(responses.map((response) => response.body.accessToken as string));
    expect(cookies.size).toBe(1);
    expect(tokens.size).toBe(1);
    const { sid } = jwt.decode(session.token) as { sid: string };
    const stored = await rawDb(app).sessions.findById(sid).lean();
    expect(stored?.revokedAt).toBeNull();
    expect(stored?.retiredTokenHashes).toHaveLength(1);
  });
});

describe("one reset token used twice at once", () => {
  it("sets the password once; the other request gets INVALID_TOKEN", async () => {
    const email = uniqueEmail("race");
    await buildUser(app, { email });
    const before = app.mail.messages.length;
    await app.http().post("/api/v1/auth/forgot-password").send({ email });
    const token = resetTokenIn(await app.mail.waitFor(email, { subject: /reset/i, after: before }));
    const reset = (password: string) =>
      app
        .http()
        .post(`/api/v1/auth/reset-password?token=${encodeURIComponent(token)}`)
        .send({ password, confirmPassword: password });
    const responses = await Promise.all([reset("First#Pass1"), reset("Second#Pass2")]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
    const loser = responses.find((response) => response.status === 400)!;
    expect(loser.body.code).toBe("INVALID_TOKEN");
    const winner = responses[0].status === 200 ? "First#Pass1" : "Second#Pass2";
    expect((await login(app, email, winner)).token).toBeTruthy();
  });
});
