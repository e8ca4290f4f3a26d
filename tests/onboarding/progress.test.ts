import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { PNG, storageDir, upload } from "../support/file-samples";
import { API, adminCall, approvedMember } from "../support/onboarding";
import { CurrentMemberProgressDocument, MemberOnboardingDocument } from "../graphql/generated";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: storageDir().env }));
});
afterAll(() => app?.close());

const SIX_READS = [
  "/members/current/requirements",
  "/members/current/onboarding-progress",
  "/members/current/payment-checkout",
  "/members/current/chaplaincy-training",
];

describe("GET /members/current/onboarding-progress", () => {
  it("answers 200 with data null before approval, and the reads of the wizard never 404", async () => {
    const user = await buildUser(app);
    await applyAs(app, user);
    const answers = await Promise.all(
      SIX_READS.map((path) => app.http().get(`${API}${path}`).set(bearer(user))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers[1].body).toEqual({ code: "OK", message: expect.any(String), data: null });
    expect(answers[2].body.data).toBeNull();
    expect(answers[3].body.data).toBeNull();
    expect(answers[0].body.data.status).toBe("PENDING");
  });

  it("shows an approved member the seven steps, the first open, with what each misses", async () => {
    const member = await approvedMember(app, admin);
    const { body, status } = await member.get("/members/current/onboarding-progress");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      currentStep: "REQUIREMENTS",
      preOrientationCompletedLessonIds: [],
      preOrientationCompletedAt: null,
      completedAt: null,
    });
    expect(body.data.steps.map((s: { step: string }) => s.step)).toEqual([
      "REQUIREMENTS",
      "PRE_ORIENTATION",
      "PAYMENT_CHECKOUT",
      "ONLINE_INTERVIEW",
      "ID_GENERATION",
      "CHAPLAINCY_101",
      "OATH_TAKING",
    ]);
    expect(body.data.steps[0]).toEqual({
      step: "REQUIREMENTS",
      done: false,
      missing: ["Upload your 2x2 photo"],
    });
  });
});

describe("PUT /members/current/onboarding-progress/step", () => {
  it("refuses a jump with a message a person can act on, and changes nothing", async () => {
    const member = await approvedMember(app, admin);
    const refused = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "PAYMENT_CHECKOUT",
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "CONFLICT",
      message: "Upload your 2x2 photo first",
    });
    const after = await member.get("/members/current/onboarding-progress");
    expect(after.body.data.currentStep).toBe("REQUIREMENTS");
  });

  it("moves forward once the earlier steps are done, and back freely", async () => {
    const member = await approvedMember(app, admin);
    const photo = await upload(app, member.user, PNG, { filename: "me.png" });
    expect(photo.status).toBe(201);
    const saved = await member.put("/members/current/requirements", {
      attachments: [{ type: "PHOTO_2X2", fileId: photo.body.data.id }],
    });
    expect(saved.status).toBe(200);
    const forward = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "PRE_ORIENTATION",
    });
    expect(forward.status).toBe(200);
    expect(forward.body.data.currentStep).toBe("PRE_ORIENTATION");
    expect(forward.body.data.steps[0].done).toBe(true);
    const jump = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "PAYMENT_CHECKOUT",
    });
    expect(jump.status).toBe(409);
    expect(jump.body.message).toMatch(/^Complete the pre-orientation lessons .* first$/);
    const back = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "REQUIREMENTS",
    });
    expect(back.body.data.currentStep).toBe("REQUIREMENTS");
  });

  it("answers 409 for a record that is not APPROVED, or archived", async () => {
    const user = await buildUser(app);
    await applyAs(app, user);
    const pending = await app
      .http()
      .put(`${API}/members/current/onboarding-progress/step`)
      .set(bearer(user))
      .send({ currentStep: "REQUIREMENTS" });
    expect(pending.status).toBe(409);

    const member = await approvedMember(app, admin);
    expect((await adminCall(app, admin).patch(`/members/${member.id}/archive`, {})).status).toBe(
      200,
    );
    const archived = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "REQUIREMENTS",
    });
    expect(archived.status).toBe(409);
    expect((await member.get("/members/current/onboarding-progress")).body.data).toBeNull();
  });

  it("refuses an unknown step with a 400 on currentStep", async () => {
    const member = await approvedMember(app, admin);
    const response = await member.put("/members/current/onboarding-progress/step", {
      currentStep: "FLYING",
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe("currentStep");
  });
});

describe("GraphQL", () => {
  it("memberProfile carries the onboarding progress", async () => {
    const member = await approvedMember(app, admin);
    const result = await app.graphql(CurrentMemberProgressDocument, {}, member.user.token);
    expect(result.errors).toBeUndefined();
    const progress = result.data?.currentUser.user.memberProfile?.onboardingProgress;
    expect(progress?.currentStep).toBe("REQUIREMENTS");
    expect(progress?.steps).toHaveLength(7);
  });
});

describe("GET /onboarding (admin)", () => {
  it("lists approved members by step with what each misses, audited; members get 403", async () => {
    const member = await approvedMember(app, admin);
    const list = await adminCall(app, admin).get("/onboarding?step=REQUIREMENTS&limit=100");
    expect(list.status).toBe(200);
    const row = list.body.data.find((item: { memberId: string }) => item.memberId === member.id);
    expect(row).toMatchObject({
      currentStep: "REQUIREMENTS",
      fullName: expect.any(String),
      uniqueId: expect.stringMatching(/^POI-/),
    });
    expect(row.steps[0].missing).toEqual(["Upload your 2x2 photo"]);
    const none = await adminCall(app, admin).get("/onboarding?step=OATH_TAKING");
    expect(none.body.data).toEqual([]);
    expect((await member.get("/onboarding")).status).toBe(403);
    const audit = await adminCall(app, admin).get("/audit-logs?limit=100");
    expect(JSON.stringify(audit.body)).toContain("onboarding.list");
  });

  it("member(id) carries the whole onboarding for administrators", async () => {
    const member = await approvedMember(app, admin);
    const result = await app.graphql(MemberOnboardingDocument, { id: member.id }, admin.token);
    expect(result.errors).toBeUndefined();
    expect(result.data?.member.data.onboarding).toEqual({
      progress: { currentStep: "REQUIREMENTS" },
      requirements: [],
      payment: null,
      oath: null,
    });
  });
});
