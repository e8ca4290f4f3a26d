/**
 * Issue 33, points 1-4 and 6: what the organisation's web client needs beyond the contract's
 * first shapes. Mail links into APP_URL, the caller's application on the user, apply's meta,
 * Filipino names, and the public credential check (REST and GraphQL).
 */
import {
  ApplyAsWebClientDocument,
  CurrentUserProfileDocument,
  LoginWithProfileDocument,
  MyMembershipsWithDuplicatesDocument,
  PublicMemberDocument,
  RegisterWithProfileDocument,
  UsersWithProfilesDocument,
  VerifyEmailWithProfileDocument,
} from "../graphql/generated";
import {
  applyAs,
  bearer,
  buildOffice,
  buildUser,
  minimalApplication,
  TEST_PASSWORD,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

/** A client address with a path and a trailing slash: links are built under the path. */
const APP_URL = "https://chaplains.example.org/portal";
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: { APP_URL: `${APP_URL}/` } }));
});
afterAll(() => app?.close());

/** The `token` query parameter of the first link into `path` in a mail's text and HTML. */
function linkToken(mail: { text: string; html: string }, path: string): string {
  const pattern = new RegExp(`${APP_URL.replace(/[.]/g, "\\.")}${path}\\?token=([^\\s"<&]+)`);
  const inText = pattern.exec(mail.text)?.[1];
  const inHtml = pattern.exec(mail.html)?.[1];
  expect(inText).toBeDefined();
  expect(inHtml).toBe(inText);
  return decodeURIComponent(inText!);
}

const patch = (path: string, body: object, as: { token: string } = admin) =>
  app.http().patch(`/api/v1${path}`).set(bearer(as)).send(body);

describe("mail links into APP_URL (point 1)", () => {
  it("the verification mail links to /confirm-account?token=<code>; the link's token verifies", async () => {
    const email = uniqueEmail("link");
    const before = app.mail.messages.length;
    await app.http().post("/api/v1/auth/register").send({
      name: "Link Reader",
      email,
      password: TEST_PASSWORD,
      role: "MEMBER",
    });
    const mail = await app.mail.waitFor(email, { subject: /verification code/i, after: before });
    const token = linkToken(mail, "/confirm-account");
    expect(mail.text).toContain(`Your code: ${token}`);
    const verified = await app.http().post("/api/v1/auth/verify-email").send({ code: token });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, isEmailVerified: true, memberProfile: null });
  });

  it("the reset mail links to /reset-password?token=<token>; the link's token resets", async () => {
    const user = await buildUser(app);
    const before = app.mail.messages.length;
    await app.http().post("/api/v1/auth/forgot-password").send({ email: user.email });
    const mail = await app.mail.waitFor(user.email, { subject: /reset/i, after: before });
    const token = linkToken(mail, "/reset-password");
    const reset = await app
      .http()
      .post("/api/v1/auth/reset-password")
      .query({ token })
      .send({ password: "Another#456", confirmPassword: "Another#456" });
    expect(reset.status).toBe(200);
    const login = await app
      .http()
      .post("/api/v1/auth/login")
      .send({ email: user.email, password: "Another#456" });
    expect(login.status).toBe(200);
  });
});

describe("memberProfile on the user (point 2)", () => {
  it("REST: null before applying; the latest application's {id, status, isActive, createdAt} after", async () => {
    const user = await buildUser(app);
    const current = async () =>
      (await app.http().get("/api/v1/users/current").set(bearer(user))).body.user.memberProfile;
    expect(await current()).toBeNull();

    const first = await applyAs(app, user);
    const profile = await current();
    // A pending application has no uniqueId and no onboarding yet (approval adds both).
    expect(profile).toEqual({
      id: first.id,
      status: "PENDING",
      isActive: true,
      createdAt: first.createdAt,
      uniqueId: null,
      onboardingProgress: null,
    });
    expect(Object.keys(profile as object).sort()).toEqual([
      "createdAt",
      "id",
      "isActive",
      "onboardingProgress",
      "status",
      "uniqueId",
    ]);

    // Rejected, then applied again: the profile follows the newest application.
    expect((await patch(`/members/${first.id}/status`, { status: "REJECTED" })).status).toBe(200);
    expect(await current()).toMatchObject({ id: first.id, status: "REJECTED" });
    const second = await applyAs(app, user);
    expect(await current()).toMatchObject({ id: second.id, status: "PENDING", isActive: true });
    expect((await patch(`/members/${second.id}/archive`, {})).status).toBe(200);
    expect(await current()).toMatchObject({ id: second.id, isActive: false });

    const login = await app
      .http()
      .post("/api/v1/auth/login")
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(login.body.user.memberProfile).toMatchObject({ id: second.id, isActive: false });
  });

  it("REST register answers memberProfile null", async () => {
    const response = await app
      .http()
      .post("/api/v1/auth/register")
      .send({ name: "New", email: uniqueEmail("new"), password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user.memberProfile).toBeNull();
  });

  it("GraphQL: register, verify, login and currentUser carry it", async () => {
    const email = uniqueEmail("gql");
    const before = app.mail.messages.length;
    const registered = await app.graphql(RegisterWithProfileDocument, {
      name: "Graph",
      email,
      password: TEST_PASSWORD,
    });
    expect(registered.data?.register.user?.memberProfile).toBeNull();
    const mail = await app.mail.waitFor(email, { subject: /verification code/i, after: before });
    const verified = await app.graphql(VerifyEmailWithProfileDocument, {
      code: linkToken(mail, "/confirm-account"),
    });
    expect(verified.data?.verifyEmail.user.memberProfile).toBeNull();
    const signedIn = await app.graphql(LoginWithProfileDocument, {
      email,
      password: TEST_PASSWORD,
    });
    const token = signedIn.data!.login.accessToken!;
    const record = await applyAs(app, { token } as TestUser);
    const current = await app.graphql(CurrentUserProfileDocument, {}, token);
    expect(current.data?.currentUser.user.memberProfile).toMatchObject({
      id: record.id,
      status: "PENDING",
      isActive: true,
    });
    const again = await app.graphql(LoginWithProfileDocument, { email, password: TEST_PASSWORD });
    expect(again.data?.login.user?.memberProfile?.id).toBe(record.id);
  });

  it("administrators' user reads carry each account's own profile (REST and GraphQL)", async () => {
    const applicant = await buildUser(app);
    const record = await applyAs(app, applicant);
    const idle = await buildUser(app);
    const rest = await app.http().get("/api/v1/users").query({ limit: 100 }).set(bearer(admin));
    const byId = new Map(
      (rest.body.users as { id: string; memberProfile: unknown }[]).map((u) => [u.id, u]),
    );
    expect(byId.get(applicant.id)?.memberProfile).toMatchObject({ id: record.id });
    expect(byId.get(idle.id)?.memberProfile).toBeNull();
    const one = await app.http().get(`/api/v1/users/${applicant.id}`).set(bearer(admin));
    expect(one.body.user.memberProfile).toMatchObject({ id: record.id, status: "PENDING" });
    const graph = await app.graphql(UsersWithProfilesDocument, { limit: 100 }, admin.token);
    const found = graph.data?.users.users.find((u) => u.id === applicant.id);
    expect(found?.memberProfile?.id).toBe(record.id);
  });
});

describe("apply's meta (point 3)", () => {
  it("REST and GraphQL answer meta {createdUser: false, isEmailVerified: true}", async () => {
    const response = await app
      .http()
      .post("/api/v1/members/apply")
      .set(bearer(await buildUser(app)))
      .send(minimalApplication());
    expect(response.status).toBe(201);
    expect(response.body.meta).toEqual({ createdUser: false, isEmailVerified: true });
    const user = await buildUser(app);
    const graph = await app.graphql(ApplyAsWebClientDocument, minimalApplication(), user.token);
    expect(graph.data?.applyForMembership.meta).toEqual({
      createdUser: false,
      isEmailVerified: true,
    });
  });
});

describe("middle initial and name suffix (point 4)", () => {
  it("accepts, normalises, returns, searches and exports them", async () => {
    const user = await buildUser(app);
    const lastName = `Dela Cruz ${Date.now().toString(36)}`;
    const record = await applyAs(app, user, {
      firstName: "Juan",
      middleInitial: " d ",
      lastName,
      extensionName: " Jr. ",
    });
    expect(record).toMatchObject({ middleInitial: "D", extensionName: "Jr." });
    const search = await app
      .http()
      .get("/api/v1/members")
      .query({ search: `juan d. ${lastName} jr` })
      .set(bearer(admin));
    expect(search.body.data.map((m: { id: string }) => m.id)).toEqual([record.id]);
    // "first last" still matches, as before the fields existed.
    const plain = await app
      .http()
      .get("/api/v1/members")
      .query({ search: `Juan ${lastName}` })
      .set(bearer(admin));
    expect(plain.body.data.map((m: { id: string }) => m.id)).toEqual([record.id]);
    const csv = await app
      .http()
      .get("/api/v1/members/export.csv")
      .query({ search: lastName })
      .set(bearer(admin));
    const [header, row] = csv.text.trim().split("\r\n");
    const cells = Object.fromEntries(
      header.split(",").map((name, index) => [name, row.split(",")[index]]),
    );
    expect(cells).toMatchObject({
      middleInitial: "D",
      extensionName: "Jr.",
      fullName: `Juan D. ${lastName} Jr.`,
    });
  });

  it("leaves them null when absent or blank", async () => {
    const record = await applyAs(app, await buildUser(app), { middleInitial: "" });
    expect(record).toMatchObject({ middleInitial: null, extensionName: null });
  });

  it.each([
    ["middleInitial", "DE"],
    ["middleInitial", "4"],
    ["extensionName", "Junior Jr. III"],
    ["extensionName", "<b>"],
  ])("refuses %s %j with 400 on the field and stores nothing", async (field, value) => {
    const user = await buildUser(app);
    const response = await app
      .http()
      .post("/api/v1/members/apply")
      .set(bearer(user))
      .send(minimalApplication({ [field]: value }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
    const mine = await app.http().get("/api/v1/members/me").set(bearer(user));
    expect(mine.body.data).toEqual([]);
  });

  it("GraphQL: accepts and returns them, refuses a bad one on its path", async () => {
    const user = await buildUser(app);
    const ok = await app.graphql(
      ApplyAsWebClientDocument,
      minimalApplication({ middleInitial: "ñ", extensionName: "III" }),
      user.token,
    );
    expect(ok.data?.applyForMembership.data).toMatchObject({
      middleInitial: "Ñ",
      extensionName: "III",
    });
    const bad = await app.graphql(
      ApplyAsWebClientDocument,
      minimalApplication({ middleInitial: "AB" }),
      (await buildUser(app)).token,
    );
    expect(bad.errors?.[0].extensions.code).toBe("VALIDATION_ERROR");
    expect(bad.errors?.[0].extensions.errors?.map((e) => e.path)).toEqual(["middleInitial"]);
  });
});

describe("public credential check (point 6)", () => {
  let approved: { id: string; user: TestUser; approvedAt: string };
  const notFound = async (id: string) => {
    const response = await app.http().get(`/api/v1/members/public/${encodeURIComponent(id)}`);
    return { status: response.status, code: response.body.code, message: response.body.message };
  };

  beforeAll(async () => {
    const user = await buildUser(app);
    const record = await applyAs(app, user, {
      firstName: "Pedro",
      middleInitial: "S",
      lastName: "Reyes",
      extensionName: "Sr.",
      sssNumber: "34-1234567-8",
    });
    const decided = await patch(`/members/${record.id}/status`, { status: "APPROVED" });
    const history = decided.body.data.statusHistory as { to: string; at: string }[];
    approved = { id: record.id, user, approvedAt: history.at(-1)!.at };
  });

  it("answers an approved member's credential and, with nothing chosen, no location, photo or branches, without a token", async () => {
    const office = await buildOffice(app, admin, { level: "CITY_CHAPLAIN" });
    const appointed = await app
      .http()
      .post(`/api/v1/offices/${office.id}/holders`)
      .set(bearer(admin))
      .send({ memberId: approved.id, startDate: new Date(Date.now() - 60_000).toISOString() });
    expect(appointed.status).toBe(201);

    const response = await app.http().get(`/api/v1/members/public/${approved.id}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["code", "data", "message"]);
    // Given at the first approval.
    const uniqueId = response.body.data.uniqueId as string;
    expect(uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
    const holding = appointed.body.data as { id: string; startDate: string };
    expect(response.body.data).toEqual({
      id: approved.id,
      uniqueId,
      fullName: "Pedro S. Reyes Sr.",
      memberType: null,
      badgeNumber: null,
      photoUrl: null,
      region: null,
      province: null,
      municipalityCity: null,
      preferredBranches: null,
      status: "APPROVED",
      // Before the oath: no membership year yet, and the check says CURRENT.
      standing: "CURRENT",
      validUntil: null,
      memberSince: approved.approvedAt,
      offices: [{ title: office.name, level: "CITY_CHAPLAIN" }],
      // What the organisation's site renders besides: lists always present.
      firstName: "Pedro",
      middleInitial: "S",
      lastName: "Reyes",
      extensionName: "Sr.",
      isActive: true,
      user: { name: "Test User", avatar: null },
      officerAssignments: [
        {
          id: holding.id,
          officeTitle: { id: office.id, name: office.name, level: "CITY_CHAPLAIN" },
          startDate: holding.startDate,
          department: null,
          region: null,
          province: null,
          cityMunicipality: null,
          barangay: null,
        },
      ],
      applicantRequirements: [],
      certificates: [],
      publicRecords: [],
      followerCount: 0,
      profileBannerUrl: null,
      profileBannerPositionY: null,
      churchAffiliation: null,
      churchAddress: null,
      currentPositionRole: null,
      currentPositionRoleOther: null,
      elementarySchool: null,
      secondarySchool: null,
      tertiaryCollege: null,
      postGraduateStudies: null,
    });
    expect(JSON.stringify(response.body)).not.toMatch(/1234567|@example\.org|09171234567/);

    const graph = await app.graphql(PublicMemberDocument, { id: approved.id });
    expect(graph.data?.publicMember.data).toEqual(response.body.data);
  });

  it("/members/me shows the applicant the site's public page, APP_URL/profile/<uniqueId>", async () => {
    const mine = await app.http().get("/api/v1/members/me").set(bearer(approved.user));
    const uniqueId = mine.body.data[0].uniqueId as string;
    expect(uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
    expect(mine.body.data[0].publicUrl).toBe(`${APP_URL}/profile/${uniqueId}`);
    const graph = await app.graphql(MyMembershipsWithDuplicatesDocument, {}, approved.user.token);
    expect(graph.data?.myMemberships.data[0].publicUrl).toBe(`${APP_URL}/profile/${uniqueId}`);
  });

  it("answers every other id with the same 404 (pending, rejected, archived, erased, unknown, malformed)", async () => {
    const pending = await applyAs(app, await buildUser(app));
    const rejected = await applyAs(app, await buildUser(app));
    await patch(`/members/${rejected.id}/status`, { status: "REJECTED" });
    const archived = await applyAs(app, await buildUser(app));
    await patch(`/members/${archived.id}/status`, { status: "APPROVED" });
    await patch(`/members/${archived.id}/archive`, {});
    const erasedUser = await buildUser(app);
    const erased = await applyAs(app, erasedUser);
    await patch(`/members/${erased.id}/status`, { status: "APPROVED" });
    expect((await app.http().get(`/api/v1/members/public/${erased.id}`)).status).toBe(200);
    await app.http().delete(`/api/v1/users/${erasedUser.id}`).set(bearer(admin));

    const expected = {
      status: 404,
      code: "NOT_FOUND",
      message: "No approved member has this id",
    };
    const ids = [
      pending.id,
      rejected.id,
      archived.id,
      erased.id,
      "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
      "not-an-id",
      // Would also fit GET /members/{id}/offices: the public route must win.
      "offices",
      "x".repeat(500),
    ];
    for (const id of ids) expect(await notFound(id)).toEqual(expected);
    for (const id of [pending.id, "not-an-id"]) {
      const graph = await app.graphql(PublicMemberDocument, { id });
      expect(graph.errors?.[0]).toMatchObject({
        message: expected.message,
        extensions: { code: "NOT_FOUND" },
      });
    }
  });

  it("is in the OpenAPI document without a security requirement", async () => {
    const doc = (await app.http().get("/api/v1/openapi.json")).body;
    const operation = doc.paths["/members/public/{id}"]?.get;
    expect(operation).toBeDefined();
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "404", "429"]));
  });

  it("is rate limited like every public read (429 past the per-IP limit)", async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await limited.http().get(`/api/v1/members/public/${approved.id}`)).status);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
