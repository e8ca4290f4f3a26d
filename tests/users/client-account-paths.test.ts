/*
 * The organisation's client calls some account operations by other names (`aliases` in
 * src/graphql/rest-route.ts); its account-security page, replayed call by call, gets the shapes it
 * reads, from the same operations the service's own paths run.
 */
import { generate } from "otplib";
import { bearer, buildUser, login, TEST_PASSWORD, type TestUser } from "../support/factories";
import { useScenario } from "../support/scenario";

const scenario = useScenario();
const api = () => scenario().app.http();
const PERIOD_SECONDS = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD_SECONDS });

let user: TestUser;

beforeAll(async () => {
  user = await buildUser(scenario().app);
});

describe("GET /users/current", () => {
  it("carries isTwoFactorEnabled and accountStatus ACTIVE", async () => {
    const response = await api().get("/api/v1/users/current").set(bearer(user));
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      id: user.id,
      isTwoFactorEnabled: false,
      mfaEnabled: false,
      accountStatus: "ACTIVE",
    });
  });
});

describe("sessions at /users/sessions", () => {
  it("lists the caller's sessions as {currentSession, sessions[isCurrent]}, the same as /auth/sessions", async () => {
    const other = await login(scenario().app, user.email, TEST_PASSWORD);
    const response = await api().get("/api/v1/users/sessions").set(bearer(user));
    expect(response.status).toBe(200);
    const { currentSession, sessions } = response.body.data;
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const session of sessions) {
      expect(session).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          ipAddress: expect.any(String),
          createdAt: expect.any(String),
          expiredAt: expect.any(String),
          isCurrent: expect.any(Boolean),
        }),
      );
      expect(new Date(session.expiredAt).getTime()).toBeGreaterThan(Date.now());
    }
    expect(sessions.filter((s: { isCurrent: boolean }) => s.isCurrent)).toHaveLength(1);
    expect(currentSession).toEqual(sessions.find((s: { isCurrent: boolean }) => s.isCurrent));
    const own = await api().get("/api/v1/auth/sessions").set(bearer(user));
    expect(own.body.data).toEqual(response.body.data);
    expect(own.body.sessions.map((s: { id: string }) => s.id)).toEqual(
      sessions.map((s: { id: string }) => s.id),
    );

    // DELETE /users/sessions/{id} ends one session: its token stops working.
    const otherId = sessions.find((s: { isCurrent: boolean }) => !s.isCurrent).id as string;
    const ended = await api().delete(`/api/v1/users/sessions/${otherId}`).set(bearer(user));
    expect(ended.status).toBe(204);
    expect((await api().get("/api/v1/users/current").set(bearer(other))).status).toBe(401);
    const again = await api().delete(`/api/v1/users/sessions/${otherId}`).set(bearer(user));
    expect(again.status).toBe(404);
  });

  it("DELETE /users/sessions/others ends every session but the caller's", async () => {
    const { app } = scenario();
    const first = await login(app, user.email, TEST_PASSWORD);
    const second = await login(app, user.email, TEST_PASSWORD);
    const response = await api().delete("/api/v1/users/sessions/others").set(bearer(user));
    expect(response.status).toBe(200);
    expect((await api().get("/api/v1/users/current").set(bearer(first))).status).toBe(401);
    expect((await api().get("/api/v1/users/current").set(bearer(second))).status).toBe(401);
    const mine = await api().get("/api/v1/users/sessions").set(bearer(user));
    expect(mine.status).toBe(200);
    expect(mine.body.data.sessions).toHaveLength(1);
  });
});

describe("POST /auth/change-password with oldPassword", () => {
  it("takes the current password as oldPassword, and a wrong one is refused", async () => {
    const { app } = scenario();
    const changer = await buildUser(app);
    const wrong = await api().post("/api/v1/auth/change-password").set(bearer(changer)).send({
      oldPassword: "Wrong#Pass9",
      password: "Newer#Pass2",
      confirmPassword: "Newer#Pass2",
    });
    expect(wrong.status).toBe(401);
    const missing = await api()
      .post("/api/v1/auth/change-password")
      .set(bearer(changer))
      .send({ password: "Newer#Pass2", confirmPassword: "Newer#Pass2" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ path: "currentPassword", message: expect.any(String) }]);
    const changed = await api().post("/api/v1/auth/change-password").set(bearer(changer)).send({
      oldPassword: TEST_PASSWORD,
      password: "Newer#Pass2",
      confirmPassword: "Newer#Pass2",
    });
    expect(changed.status).toBe(200);
    expect((await login(app, changer.email, "Newer#Pass2")).token).toEqual(expect.any(String));
  });
});

describe("two-factor at /auth/two-factor", () => {
  it("sets up ({secret, otpauthUrl, qrCodeDataUrl}), enables with {token} and disables with no body", async () => {
    const { app } = scenario();
    const holder = await buildUser(app);
    const setup = await api().post("/api/v1/auth/two-factor/setup").set(bearer(holder)).send();
    expect(setup.status).toBe(200);
    const { secret, otpauthUrl, qrCodeDataUrl } = setup.body.data;
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.secret).toBe(secret);

    const enabled = await api()
      .post("/api/v1/auth/two-factor/enable")
      .set(bearer(holder))
      .send({ token: await codeAt(secret, currentStep()) });
    expect(enabled.status).toBe(200);
    expect(enabled.body.user).toMatchObject({ isTwoFactorEnabled: true });
    const signIn = await api()
      .post("/api/v1/auth/login")
      .send({ email: holder.email, password: TEST_PASSWORD });
    expect(signIn.body.mfaRequired).toBe(true);

    const disabled = await api().post("/api/v1/auth/two-factor/disable").set(bearer(holder));
    expect(disabled.status).toBe(200);
    expect(disabled.body.user).toMatchObject({ isTwoFactorEnabled: false });
  });

  it("enable without a code or token is a 400 on code", async () => {
    const { app } = scenario();
    const holder = await buildUser(app);
    await api().post("/api/v1/auth/two-factor/setup").set(bearer(holder)).send();
    const none = await api().post("/api/v1/auth/two-factor/enable").set(bearer(holder)).send({});
    expect(none.status).toBe(400);
    expect(none.body.errors[0].path).toBe("code");
  });

  it("both paths are in the OpenAPI document as the same operation", async () => {
    const doc = (await api().get("/api/v1/openapi.json")).body;
    const own = doc.paths["/auth/mfa/setup"].post;
    const alias = doc.paths["/auth/two-factor/setup"].post;
    expect(alias.summary).toBe(own.summary);
    expect(alias.responses["200"]).toEqual(own.responses["200"]);
    expect(doc.paths["/users/sessions/{id}"].delete).toBeDefined();
    expect(doc.paths["/activity-logs/current"].get).toBeDefined();
  });
});

describe("GET /activity-logs/current", () => {
  it("lists the caller's own audited acts, newest first, in the client's shape", async () => {
    const { app, admin } = scenario();
    const applicant = await buildUser(app);
    await api().post("/api/v1/members/apply").set(bearer(applicant)).send({
      firstName: "Ana",
      lastName: "Cruz",
      mobilePhoneNumber: "09171110000",
      homeAddress: "1 Street",
      civilStatus: "SINGLE",
      gender: "FEMALE",
      nationality: "Filipino",
      dateOfBirth: "1990-01-01",
      region: "NCR",
      province: "Metro Manila",
      municipalityCity: "Manila",
      barangay: "Tondo",
      emergencyContactName: "X",
      emergencyContactMobile: "09171110001",
      churchAffiliation: "Y",
      churchAddress: "Z",
      currentPositionRole: "Elder",
    });
    await api().put("/api/v1/members/current/public-profile").set(bearer(applicant)).send({});
    // An administrator's acts are theirs, not the applicant's.
    await api().get("/api/v1/members").set(bearer(admin));

    const response = await api()
      .get("/api/v1/activity-logs/current?limit=5")
      .set(bearer(applicant));
    expect(response.status).toBe(200);
    expect(response.body.data.map((e: { actionType: string }) => e.actionType)).toEqual([
      "member.publicProfile",
      "member.apply",
    ]);
    expect(response.body.data[1]).toEqual({
      id: expect.any(String),
      actionType: "member.apply",
      actionLabel: "Member apply",
      moduleLabel: "Members",
      targetLabel: expect.stringMatching(/^member /),
      description: expect.any(String),
      result: "SUCCESS",
      timestamp: expect.any(String),
      ipAddress: null,
      deviceLabel: null,
    });
    const one = await api().get("/api/v1/activity-logs/current?limit=1").set(bearer(applicant));
    expect(one.body.data).toHaveLength(1);
    expect(
      (await api().get("/api/v1/activity-logs/current?limit=0").set(bearer(applicant))).status,
    ).toBe(400);
    expect((await api().get("/api/v1/activity-logs/current")).status).toBe(401);
  });
});
