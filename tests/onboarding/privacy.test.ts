import { bearer, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { JPEG, PNG, storageDir, upload } from "../support/file-samples";
import { API, approvedMember } from "../support/onboarding";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: storageDir().env }));
});
afterAll(() => app?.close());

const collections = ["member_requirements", "membership_payments", "onboarding_progress"];

it("the export lists documents, payment, essays and step times; erasure removes them", async () => {
  const member = await approvedMember(app, admin);
  const photo = await upload(app, member.user, PNG, { filename: "me.png" });
  await member.put("/members/current/requirements", {
    attachments: [{ type: "PHOTO_2X2", fileId: photo.body.data.id }],
  });
  const proof = await upload(app, member.user, JPEG, { purpose: "PAYMENT_PROOF" });
  await member.put("/members/current/payment-checkout", {
    paymentMethod: "E_WALLET",
    proofFileId: proof.body.data.id,
  });
  // The first step done, the member moves on: its time is kept on the member record.
  await member.put("/members/current/onboarding-progress/step", { currentStep: "PRE_ORIENTATION" });
  await member.put("/members/current/chaplaincy-training", {
    completedLessonIds: [1],
    essayAnswers: { "3": "I would listen first." },
  });

  const exported = await app.http().get(`${API}/users/current/export`).set(bearer(member.user));
  expect(exported.status).toBe(200);
  const onboarding = exported.body.data.onboarding;
  expect(onboarding.requirements).toEqual([
    expect.objectContaining({ memberId: member.id, type: "PHOTO_2X2", fileId: photo.body.data.id }),
  ]);
  expect(onboarding.payments).toEqual([
    expect.objectContaining({
      memberId: member.id,
      proofFileId: proof.body.data.id,
      status: "SUBMITTED",
    }),
  ]);
  expect(onboarding.courses[0]).toMatchObject({
    memberId: member.id,
    chaplaincyCompletedLessonIds: [1],
    essayAnswers: { "3": "I would listen first." },
    oath: null,
  });
  expect(onboarding.steps).toEqual([
    {
      memberId: member.id,
      currentStep: "PRE_ORIENTATION",
      startedAt: expect.any(String),
      times: [{ step: "REQUIREMENTS", days: 0, at: expect.any(String) }],
    },
  ]);

  const db = rawDb(app).connection.db!;
  for (const name of collections) {
    expect(await db.collection(name).countDocuments({ userId: member.user.id })).toBe(1);
  }
  const erased = await app.http().delete(`${API}/users/current`).set(bearer(member.user));
  expect(erased.status).toBe(204);
  for (const name of collections) {
    expect(await db.collection(name).countDocuments({ userId: member.user.id })).toBe(0);
  }
  expect(
    await db.collection("onboarding_progress").findOne({ _id: member.id as never }),
  ).toBeNull();
});
