/**
 * Issue 40, point 10: the organisation's wizard replayed call by call, as its web client makes
 * them: register, verify, apply, approval, the six parallel reads on opening the wizard, every
 * step forward (and a refused jump), the administrators' decisions, the oath, and the public
 * page by uniqueId.
 */
import { simpleParser } from "mailparser";
import { Role } from "../../src/modules/users/role";
import {
  bearer,
  minimalApplication,
  TEST_PASSWORD,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import { verificationCodeIn } from "../support/mailbox";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { JPEG, PNG, storageDir, upload } from "../support/file-samples";
import { API, adminCall } from "../support/onboarding";

let app: TestApp;
let admin: TestUser;
let officer: TestUser;

beforeAll(async () => {
  ({ app, admin, officer } = await startScenario({
    env: storageDir().env,
    users: { officer: { role: Role.OFFICER, name: "Officer Cruz" } },
  }));
});
afterAll(() => app?.close());

const WEEKDAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

it("walks a member from registration to the oath and the public page", async () => {
  // Register, verify with the mailed code, apply.
  const email = uniqueEmail("wizard");
  const registered = await app
    .http()
    .post(`${API}/auth/register`)
    .send({ name: "Maria Santos", email, password: TEST_PASSWORD });
  expect(registered.status).toBe(200);
  const code = verificationCodeIn(await app.mail.waitFor(email, { subject: /verification code/i }));
  expect((await app.http().post(`${API}/auth/verify-email`).send({ code })).status).toBe(200);
  const login = await app.http().post(`${API}/auth/login`).send({ email, password: TEST_PASSWORD });
  const me = { token: login.body.accessToken as string, id: registered.body.user.id as string };
  const as = bearer(me);
  const get = (path: string) => app.http().get(`${API}${path}`).set(as);
  const put = (path: string, body: object) => app.http().put(`${API}${path}`).set(as).send(body);
  const step = (currentStep: string) =>
    put("/members/current/onboarding-progress/step", { currentStep });
  // The record's full name ("Maria L. Santos") is not the account's ("Maria Santos"): every
  // membership mail names the member the record's way.
  const applied = await app
    .http()
    .post(`${API}/members/apply`)
    .set(as)
    .send(minimalApplication({ middleInitial: "L" }));
  expect(applied.status).toBe(201);
  const memberId = applied.body.data.id as string;

  // Before approval the client's gate reads the status; onboarding is null, never 404.
  expect((await get("/members/current/requirements")).body.data.status).toBe("PENDING");
  expect((await get("/members/current/onboarding-progress")).body.data).toBeNull();

  // Approval: mailed, a uniqueId given.
  const approved = await adminCall(app, admin).patch(`/members/${memberId}/status`, {
    status: "APPROVED",
  });
  expect(approved.status).toBe(200);
  const uniqueId = approved.body.data.uniqueId as string;
  expect(uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
  const mails = [await app.mail.waitFor(email, { subject: /approved/i })];

  // The six parallel reads of the wizard: all 200.
  const reads = await Promise.all(
    [
      "/members/current/requirements",
      "/members/current/onboarding-progress",
      "/members/current/payment-checkout",
      "/members/current/online-interview",
      "/members/current/id-generation",
      "/members/current/chaplaincy-training",
    ].map((path) => get(path)),
  );
  expect(reads.map((read) => read.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(reads[0].body.data).toMatchObject({ memberId, status: "APPROVED", uniqueId });
  expect(reads[1].body.data.currentStep).toBe("REQUIREMENTS");
  expect(reads[2].body.data).toBeNull();
  expect(reads[5].body.data).toBeNull();

  // A jump is refused with what to do.
  const jump = await step("PAYMENT_CHECKOUT");
  expect(jump.status).toBe(409);
  expect(jump.body.message).toBe("Upload your 2x2 photo first");

  // REQUIREMENTS: the 2x2 photo and a clearance.
  const photo = await upload(app, { ...me, token: me.token } as TestUser, PNG, {
    filename: "2x2.png",
  });
  expect(photo.status).toBe(201);
  const saved = await put("/members/current/requirements", {
    attachments: [{ type: "PHOTO_2X2", fileUrl: photo.body.data.fileUrl }],
  });
  expect(saved.body.data.attachments.photo_2x2).toContain(photo.body.data.id);
  expect((await step("PRE_ORIENTATION")).status).toBe(200);

  // PRE_ORIENTATION: the five lessons.
  const lessons = await get("/lessons?course=PRE_ORIENTATION");
  const preIds = lessons.body.data.map((lesson: { id: number }) => lesson.id);
  const pre = await put("/members/current/onboarding-progress/pre-orientation", {
    completedLessonIds: preIds,
    isCompleted: true,
  });
  expect(pre.body.data.preOrientationCompletedAt).toEqual(expect.any(String));
  expect((await step("PAYMENT_CHECKOUT")).status).toBe(200);

  // PAYMENT_CHECKOUT: GCash with a proof.
  const proof = await upload(app, { ...me } as TestUser, JPEG, {
    purpose: "PAYMENT_PROOF",
    filename: "gcash.jpg",
  });
  const paid = await put("/members/current/payment-checkout", {
    paymentMethod: "E_WALLET",
    proofFileId: proof.body.data.id,
  });
  expect(paid.body.data).toMatchObject({ status: "SUBMITTED", amount: 500, currency: "PHP" });
  expect((await step("ONLINE_INTERVIEW")).status).toBe(200);

  // ONLINE_INTERVIEW: an administrator links the officer to ptr-rodel; the member books by key.
  const linked = await adminCall(app, admin).put("/interviewers/ptr-rodel", {
    userId: officer.id,
    email: officer.email,
  });
  expect(linked.status).toBe(200);
  const interviewers = await get("/interviewers");
  const slot = interviewers.body.data.find((row: { key: string }) => row.key === "ptr-rodel")
    .nextFree[0];
  const weekday = WEEKDAYS[new Date(`${slot.date}T00:00:00Z`).getUTCDay()];
  const booked = await put("/members/current/online-interview", {
    interviewerId: "ptr-rodel",
    day: weekday.charAt(0) + weekday.slice(1).toLowerCase(),
    timeSlot: slot.timeSlot,
  });
  expect(booked.status).toBe(200);
  mails.push(await app.mail.waitFor(email, { subject: /interview is booked/i }));
  expect((await step("ID_GENERATION")).status).toBe(200);

  // ID_GENERATION: refused before the payment is verified; the administrator verifies.
  expect((await put("/members/current/id-generation", {})).status).toBe(409);
  const verified = await adminCall(app, admin).patch(`/members/${memberId}/payment`, {
    status: "VERIFIED",
  });
  expect(verified.body.data.status).toBe("VERIFIED");
  // Plain words, never the enum ("Payment VERIFIED").
  expect(verified.body.message).toBe("The payment was verified");
  mails.push(await app.mail.waitFor(email, { subject: /payment was verified/i }));
  // The card is printed from the 2x2 photo once an administrator approved it.
  expect((await put("/members/current/id-generation", {})).status).toBe(409);
  const photoApproved = await adminCall(app, admin).patch(
    `/members/${memberId}/requirements/PHOTO_2X2`,
    { reviewStatus: "APPROVED" },
  );
  expect(photoApproved.status).toBe(200);
  const generated = await put("/members/current/id-generation", {});
  expect(generated.status).toBe(200);
  expect(generated.body.data.asset.idCardUrl).toEqual(expect.any(String));
  expect(generated.body.data.asset.certificateUrl).toBeNull();
  expect((await step("CHAPLAINCY_101")).status).toBe(200);

  // CHAPLAINCY_101: eight lessons and ten essays.
  const c101 = (await get("/lessons?course=CHAPLAINCY_101")).body.data.map(
    (l: { id: number }) => l.id,
  );
  const questions = (await get("/essay-questions")).body.data as { id: number }[];
  const essays = Object.fromEntries(
    questions.map((q) => [String(q.id), `My answer to question ${q.id}.`]),
  );
  const training = await put("/members/current/chaplaincy-training", {
    completedLessonIds: c101,
    essayAnswers: essays,
    isCompleted: true,
  });
  expect(training.body.data.completedAt).toEqual(expect.any(String));
  expect((await step("OATH_TAKING")).status).toBe(200);

  // The oath waits for the interview's outcome.
  const oath = { takenAt: "2026-12-05", place: "Quezon City chapel", officiant: "Bishop Reyes" };
  const early = await adminCall(app, admin).post(`/members/${memberId}/oath`, oath);
  expect(early.status).toBe(409);
  expect(early.body.message).toMatch(/pass the online interview/);
  const passed = await app
    .http()
    .patch(`${API}/members/${memberId}/interview`)
    .set(bearer(officer))
    .send({ outcome: "PASSED", note: "Ready" });
  expect(passed.status).toBe(200);

  // The oath completes onboarding and mails the certificate.
  const mailsBefore = app.mail.messages.length;
  const sworn = await adminCall(app, admin).post(`/members/${memberId}/oath`, oath);
  expect(sworn.status).toBe(200);
  expect(sworn.body.data).toMatchObject({
    id: memberId,
    uniqueId,
    memberType: "ASSOCIATE_CHAPLAIN",
  });
  const welcome = await app.mail.waitFor(email, {
    subject: /Associate Chaplain/i,
    after: mailsBefore,
  });
  // The oath ends onboarding: nothing to continue; the day written as every mail writes it.
  expect(welcome.text).toContain("(5 December 2026, Quezon City chapel)");
  expect(welcome.text).toContain("Your onboarding is complete. Welcome!");
  expect(welcome.text).not.toMatch(/continue/i);
  expect(welcome.html).not.toMatch(/continue/i);
  mails.push(welcome);
  expect(mails.map((mail) => mail.text.split("\n")[0])).toEqual(
    mails.map(() => "Hello Maria L. Santos,"),
  );
  const parsed = await simpleParser(welcome.raw);
  const certificate = parsed.attachments.find((file) => file.filename === "certificate.pdf");
  expect(certificate?.content.subarray(0, 5).toString()).toBe("%PDF-");
  expect((await adminCall(app, admin).post(`/members/${memberId}/oath`, oath)).status).toBe(409);

  const progress = await get("/members/current/onboarding-progress");
  expect(progress.body.data.completedAt).toEqual(expect.any(String));
  expect(progress.body.data.steps.every((s: { done: boolean }) => s.done)).toBe(true);

  // The public page answers by uniqueId.
  const page = await app.http().get(`${API}/members/public/${uniqueId}`);
  expect(page.status).toBe(200);
  expect(page.body.data).toMatchObject({
    id: memberId,
    uniqueId,
    memberType: "ASSOCIATE_CHAPLAIN",
  });
});
