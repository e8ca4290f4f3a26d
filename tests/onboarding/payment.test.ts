import type { TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { JPEG, PDF, PNG, storageDir, upload } from "../support/file-samples";
import { rawDb } from "../support/raw-db";
import { adminCall, approvedMember } from "../support/onboarding";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario({
    env: { ...storageDir().env, MEMBERSHIP_FEE_PHP: "750" },
  }));
});
afterAll(() => app?.close());

const PATH = "/members/current/payment-checkout";

describe("PUT /members/current/payment-checkout", () => {
  it("is null until submitted; a proof by fileUrl; the fee from config in PHP", async () => {
    const member = await approvedMember(app, admin);
    expect((await member.get(PATH)).body.data).toBeNull();
    const proof = await upload(app, member.user, JPEG, {
      purpose: "PAYMENT_PROOF",
      filename: "gcash.jpg",
    });
    const response = await member.put(PATH, {
      paymentMethod: "E_WALLET",
      proofOfPaymentUrl: proof.body.data.fileUrl,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      paymentMethod: "E_WALLET",
      proofFileId: proof.body.data.id,
      proofOfPaymentUrl: expect.stringContaining(proof.body.data.id),
      isPromissoryNote: false,
      amount: 750,
      currency: "PHP",
      status: "SUBMITTED",
      verifiedAt: null,
    });
    const progress = await member.get("/members/current/onboarding-progress");
    expect(progress.body.data.steps[2].done).toBe(true);
  });

  it("needs a proof unless cash or a promissory note, which needs its file", async () => {
    const member = await approvedMember(app, admin);
    const noProof = await member.put(PATH, { paymentMethod: "DIRECT_DEBIT" });
    expect(noProof.status).toBe(400);
    expect(noProof.body.errors[0].path).toBe("proofOfPaymentUrl");
    const noNote = await member.put(PATH, { paymentMethod: "E_WALLET", isPromissoryNote: true });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors[0].path).toBe("promissoryNoteUrl");
    // An avatar is no payment document (a REQUIREMENT file is: the site uploads them so).
    const wrongPurpose = await upload(app, member.user, PNG, { purpose: "AVATAR" });
    const refused = await member.put(PATH, {
      paymentMethod: "E_WALLET",
      proofFileId: wrongPurpose.body.data.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe("proofFileId");
    expect((await member.get(PATH)).body.data).toBeNull();
    const note = await upload(app, member.user, PDF, { purpose: "PROMISSORY_NOTE" });
    const promissory = await member.put(PATH, {
      paymentMethod: "OVER_THE_COUNTER",
      isPromissoryNote: true,
      promissoryNoteFileId: note.body.data.id,
    });
    expect(promissory.body.data).toMatchObject({
      isPromissoryNote: true,
      promissoryNoteFileId: note.body.data.id,
    });
    const cash = await member.put(PATH, { paymentMethod: "CASH" });
    expect(cash.body.data).toMatchObject({
      paymentMethod: "CASH",
      proofFileId: null,
      promissoryNoteFileId: null,
    });
  });

  it("a refusal after the proof was claimed stores nothing: no payment, the proof still unnamed", async () => {
    const member = await approvedMember(app, admin);
    const proof = await upload(app, member.user, JPEG, { purpose: "PAYMENT_PROOF" });
    // Another account's note: never the caller's to name.
    const other = await approvedMember(app, admin);
    const wrongNote = await upload(app, other.user, PDF, { purpose: "PROMISSORY_NOTE" });
    const refused = await member.put(PATH, {
      paymentMethod: "E_WALLET",
      proofFileId: proof.body.data.id,
      isPromissoryNote: true,
      promissoryNoteFileId: wrongNote.body.data.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe("promissoryNoteFileId");
    expect(refused.body.message).toBe(refused.body.errors[0].message);
    expect((await member.get(PATH)).body.data).toBeNull();
    const stored = await rawDb(app).files.findById(proof.body.data.id).lean();
    expect(stored?.unnamedSince).not.toBeNull();
  });
});

describe("the administrators' decision", () => {
  it("a rejection needs a note and is mailed; the member submits again", async () => {
    const member = await approvedMember(app, admin);
    await member.put(PATH, { paymentMethod: "CASH" });
    const path = `/members/${member.id}/payment`;
    expect((await adminCall(app, admin).patch(path, { status: "REJECTED" })).status).toBe(400);
    expect((await adminCall(app, admin).patch(path, { status: "SUBMITTED" })).status).toBe(400);
    const before = app.mail.messages.length;
    const rejected = await adminCall(app, admin).patch(path, {
      status: "REJECTED",
      note: "No cash received",
    });
    expect(rejected.body.data).toMatchObject({
      status: "REJECTED",
      reviewNote: "No cash received",
    });
    const mail = await app.mail.waitFor(member.user.email, {
      subject: /not verified/i,
      after: before,
    });
    expect(mail.text).toContain("No cash received");
    const progress = await member.get("/members/current/onboarding-progress");
    expect(progress.body.data.steps[2].missing[0]).toMatch(/submit it again/);
    const again = await member.put(PATH, { paymentMethod: "CASH" });
    expect(again.body.data).toMatchObject({ status: "SUBMITTED", reviewNote: null });
  });

  it("a verified payment is mailed and can no longer be changed; deciding twice is a 409", async () => {
    const member = await approvedMember(app, admin);
    await member.put(PATH, { paymentMethod: "CASH" });
    const before = app.mail.messages.length;
    const verified = await adminCall(app, admin).patch(`/members/${member.id}/payment`, {
      status: "VERIFIED",
    });
    expect(verified.body.data).toMatchObject({
      status: "VERIFIED",
      verifiedAt: expect.any(String),
    });
    await app.mail.waitFor(member.user.email, { subject: /was verified/i, after: before });
    const change = await member.put(PATH, { paymentMethod: "CASH" });
    expect(change.status).toBe(409);
    const twice = await adminCall(app, admin).patch(`/members/${member.id}/payment`, {
      status: "REJECTED",
      note: "x",
    });
    expect(twice.status).toBe(409);
    const audit = await adminCall(app, admin).get("/audit-logs?limit=100");
    expect(JSON.stringify(audit.body)).toContain("payment.decide");
  });

  it("GET /payments lists submitted payments oldest first, admins only", async () => {
    const a = await approvedMember(app, admin);
    const b = await approvedMember(app, admin);
    await a.put(PATH, { paymentMethod: "CASH" });
    await b.put(PATH, { paymentMethod: "CASH" });
    const page = await adminCall(app, admin).get("/payments?status=SUBMITTED&limit=100");
    expect(page.status).toBe(200);
    const ids = page.body.data.map((row: { memberId: string }) => row.memberId);
    expect(ids.indexOf(a.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    expect(page.body.data.every((row: { status: string }) => row.status === "SUBMITTED")).toBe(
      true,
    );
    expect((await a.get("/payments")).status).toBe(403);
  });
});
