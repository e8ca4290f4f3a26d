import jwt from "jsonwebtoken";
import { buildUser, login, uniqueEmail } from "../support/factories";
import { resetTokenIn } from "../support/mailbox";
import { startTestApp, type TestApp } from "../support/test-app";

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
afterAll(() => app.close());

describe("one refresh token presented twice at once", () => {
  it("rotates at most once; the others count as reuse and end the session", async () => {
    const user = await buildUser(app);
    const session = await login(app, user.email, user.password);
    const refresh = () =>
      app.http().get("/api/v1/auth/refresh-token").set("cookie", session.refreshCookie);
    const responses = await Promise.all([refresh(), refresh(), refresh()]);
    const statuses = responses.map((response) => response.status).sort();
    // Usually [200, 401, 401]; when a loser's revocation lands before the winner's rotation,
    // the winner finds the session ended too. Never two new tokens.
    expect([
      [200, 401, 401],
      [401, 401, 401],
    ]).toContainEqual(statuses);
    const { sid } = jwt.decode(session.token) as { sid: string };
    const stored = await app.services.models.sessions.findById(sid).lean();
    expect(stored?.revokedAt).toBeInstanceOf(Date);
    expect(stored?.revokedReason).toMatch(/reuse/);
    const current = await app
      .http()
      .get("/api/v1/users/current")
      .set("authorization", `Bearer ${session.token}`);
    expect(current.status).toBe(401);
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
