/**
 * Issue 49, points 3 and 5: the membership year the oath starts, its renewal inside the window,
 * an administrator's verification that extends it and prints the card again, revocation, and
 * the public check's standing; over REST and /graphql, with the refusals that change nothing.
 */
import { JPEG, storageDir, upload } from "../support/file-samples";
import { bearer } from "../support/factories";
import { pdfPagesText } from "../support/pdf-reading";
import { useScenario } from "../support/scenario";
import { addMonths } from "../../src/modules/membership/membership-year";
import { manilaDate } from "../../src/mail/dates";
import { API, download, oathDayEndingIn, swornMember } from "../support/membership-year";
import {
  DecideRenewalDocument,
  PublicMemberStandingDocument,
  RevokeCredentialsDocument,
  SubmitRenewalDocument,
} from "../graphql/generated";

// Each member is walked through onboarding by the API: slow on a shared machine.
jest.setTimeout(240_000);

const scenario = useScenario({ env: storageDir().env });
const DAY_MS = 24 * 60 * 60 * 1000;

const renewalsOf = (memberId: string) =>
  scenario().app.connection.model("Renewal").countDocuments({ memberId });

describe("the membership year", () => {
  it("ends MEMBERSHIP_TERM_MONTHS after the oath, as the member's own view and the public check say", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(200));
    const mine = await app.http().get(`${API}/members/current/membership`).set(bearer(member.user));
    expect(mine.status).toBe(200);
    const end = new Date(mine.body.data.membershipExpiresAt);
    expect(end.getTime()).toBe(
      addMonths(new Date(`${mine.body.data.startedAt as string}`), 12).getTime(),
    );
    expect(mine.body.data).toMatchObject({ standing: "CURRENT", renewal: null });
    expect(new Date(mine.body.data.renewalOpensAt).getTime()).toBe(end.getTime() - 60 * DAY_MS);
    const check = await app.http().get(`${API}/members/public/${member.uniqueId}`);
    expect(check.body.data).toMatchObject({ standing: "CURRENT", validUntil: end.toISOString() });
  });
});

describe("renewal", () => {
  it("is refused outside its window with a clear 409, and stores nothing", async () => {
    const { app, admin } = scenario();
    const early = await swornMember(app, admin, oathDayEndingIn(100));
    const tooEarly = await app
      .http()
      .post(`${API}/members/current/renewal`)
      .set(bearer(early.user))
      .send({ paymentMethod: "CASH" });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.message).toMatch(/^Renewal opens 60 days before your membership ends/);
    const late = await swornMember(app, admin, oathDayEndingIn(-100));
    const tooLate = await app.graphql(
      SubmitRenewalDocument,
      { paymentMethod: "CASH" },
      late.user.token,
    );
    expect(tooLate.errors?.[0].extensions.code).toBe("CONFLICT");
    expect(tooLate.errors?.[0].message).toMatch(/^Renewal closed 90 days after/);
    expect(await renewalsOf(early.id)).toBe(0);
    expect(await renewalsOf(late.id)).toBe(0);
    const late2 = await app.http().get(`${API}/members/public/${late.uniqueId}`);
    expect(late2.body.data.standing).toBe("EXPIRED");
  });

  it("refuses bad input, a member deciding, and another member's proof", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(20));
    const other = await swornMember(app, admin, oathDayEndingIn(25));
    const post = (body: object) =>
      app.http().post(`${API}/members/current/renewal`).set(bearer(member.user)).send(body);
    const noProof = await post({ paymentMethod: "E_WALLET" });
    expect(noProof.status).toBe(400);
    expect(noProof.body.errors[0].path).toBe("proofOfPaymentUrl");
    const badMethod = await post({ paymentMethod: "BITCOIN" });
    expect(badMethod.status).toBe(400);
    const theirs = await upload(app, other.user, JPEG, {
      purpose: "PAYMENT_PROOF",
      filename: "gcash.jpg",
    });
    const notMine = await post({ paymentMethod: "E_WALLET", proofFileId: theirs.body.data.id });
    expect(notMine.status).toBe(400);
    expect(notMine.body.errors[0].path).toBe("proofFileId");
    expect(await renewalsOf(member.id)).toBe(0);

    const proof = await upload(app, member.user, JPEG, {
      purpose: "PAYMENT_PROOF",
      filename: "gcash.jpg",
    });
    const submitted = await post({ paymentMethod: "E_WALLET", proofFileId: proof.body.data.id });
    expect(submitted.status).toBe(201);
    expect(submitted.body.data).toMatchObject({ status: "SUBMITTED", amount: 500 });
    const twice = await post({ paymentMethod: "CASH" });
    expect(twice.status).toBe(409);
    const id = submitted.body.data.id as string;

    // A member neither lists nor decides renewals, their own or another's.
    const otherDecides = await app
      .http()
      .patch(`${API}/renewals/${id}`)
      .set(bearer(other.user))
      .send({ status: "VERIFIED" });
    expect(otherDecides.status).toBe(403);
    const selfDecides = await app.graphql(
      DecideRenewalDocument,
      { id, status: "VERIFIED" },
      member.user.token,
    );
    expect(selfDecides.errors?.[0].extensions.code).toBe("FORBIDDEN");
    expect((await app.http().get(`${API}/renewals`).set(bearer(member.user))).status).toBe(403);
    const noNote = await app
      .http()
      .patch(`${API}/renewals/${id}`)
      .set(bearer(admin))
      .send({ status: "REJECTED" });
    expect(noNote.status).toBe(400);
    const unknown = await app
      .http()
      .patch(`${API}/renewals/0193a000-0000-7000-8000-000000000000`)
      .set(bearer(admin))
      .send({ status: "VERIFIED" });
    expect(unknown.status).toBe(404);
    const list = await app
      .http()
      .get(`${API}/renewals?status=SUBMITTED&limit=100`)
      .set(bearer(admin));
    expect(list.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, status: "SUBMITTED" })]),
    );
  });

  it("verified before the end extends the year from its end and prints the card again", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(20));
    const before = await app
      .http()
      .get(`${API}/members/current/id-generation`)
      .set(bearer(member.user));
    const oldEnd = new Date(before.body.data.asset.validUntil as string);
    const submitted = await app
      .http()
      .post(`${API}/members/current/renewal`)
      .set(bearer(member.user))
      .send({ paymentMethod: "CASH" });
    expect(submitted.status).toBe(201);
    const mails = app.mail.messages.length;
    const verified = await app
      .http()
      .patch(`${API}/renewals/${submitted.body.data.id as string}`)
      .set(bearer(admin))
      .send({ status: "VERIFIED", note: "Paid at the office" });
    expect(verified.status).toBe(200);
    const newEnd = addMonths(oldEnd, 12);
    expect(verified.body.data).toMatchObject({
      status: "VERIFIED",
      previousExpiresAt: oldEnd.toISOString(),
      extendedTo: newEnd.toISOString(),
    });
    const after = await app
      .http()
      .get(`${API}/members/current/id-generation`)
      .set(bearer(member.user));
    expect(after.body.data.asset.validUntil).toBe(newEnd.toISOString());
    expect(after.body.data.asset.idCardUrl).not.toBe(before.body.data.asset.idCardUrl);
    const [front] = pdfPagesText(await download(app, after.body.data.asset.idCardUrl));
    expect(front).toContain(`VALID UNTIL ${manilaDate(newEnd)}`);
    await app.mail.waitFor(member.user.email, { subject: /membership is renewed/, after: mails });
    const again = await app
      .http()
      .patch(`${API}/renewals/${submitted.body.data.id as string}`)
      .set(bearer(admin))
      .send({ status: "REJECTED", note: "late" });
    expect(again.status).toBe(409);
  });

  it("verified after the end (GraphQL) extends the year from the day of verification", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(-10));
    const check = await app.graphql(PublicMemberStandingDocument, { id: member.uniqueId });
    expect(check.data?.publicMember.data.standing).toBe("EXPIRED");
    const submitted = await app.graphql(
      SubmitRenewalDocument,
      { paymentMethod: "CASH" },
      member.user.token,
    );
    const id = submitted.data?.submitRenewal.data.id as string;
    expect(id).toEqual(expect.any(String));
    const startedAt = Date.now();
    const verified = await app.graphql(
      DecideRenewalDocument,
      { id, status: "VERIFIED" },
      admin.token,
    );
    const extendedTo = new Date(verified.data?.decideRenewal.data.extendedTo as string);
    // A term from the day it was verified, not from the end ten days ago.
    expect(extendedTo.getTime()).toBeGreaterThanOrEqual(
      addMonths(new Date(startedAt), 12).getTime(),
    );
    expect(extendedTo.getTime()).toBeLessThanOrEqual(addMonths(new Date(), 12).getTime());
    const after = await app.graphql(PublicMemberStandingDocument, { id: member.uniqueId });
    expect(after.data?.publicMember.data).toEqual({
      standing: "CURRENT",
      validUntil: extendedTo.toISOString(),
    });
    // The reports' figures: this month's verified renewals and their sum.
    const month = new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 7);
    const figures = await app.internals.renewalFacts.verifiedByMonth(
      new Date(Date.now() - 40 * DAY_MS),
      new Date(Date.now() + DAY_MS),
    );
    const row = figures.find((entry) => entry.month === month)!;
    expect(row.count).toBeGreaterThanOrEqual(1);
    expect(row.amount).toBe(row.count * 500);
  });
});

describe("revocation", () => {
  it("is an administrator's, with a reason, audited, and the public check says REVOKED", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(200));
    const path = `${API}/members/${member.id}/credentials/revoke`;
    const byMember = await app
      .http()
      .post(path)
      .set(bearer(member.user))
      .send({ reason: "I revoke myself" });
    expect(byMember.status).toBe(403);
    const blank = await app.http().post(path).set(bearer(admin)).send({ reason: "   " });
    expect(blank.status).toBe(400);
    expect(
      (await app.http().get(`${API}/members/public/${member.uniqueId}`)).body.data.standing,
    ).toBe("CURRENT");
    const revoked = await app.graphql(
      RevokeCredentialsDocument,
      { id: member.id, reason: "Misrepresented the organisation" },
      admin.token,
    );
    expect(revoked.data?.revokeCredentials.data).toEqual({
      standing: "REVOKED",
      reason: "Misrepresented the organisation",
    });
    const check = await app.http().get(`${API}/members/public/${member.uniqueId}`);
    expect(check.body.data.standing).toBe("REVOKED");
    const twice = await app.http().post(path).set(bearer(admin)).send({ reason: "Again" });
    expect(twice.status).toBe(409);
    const renewal = await app
      .http()
      .post(`${API}/members/current/renewal`)
      .set(bearer(member.user))
      .send({ paymentMethod: "CASH" });
    expect(renewal.status).toBe(409);
    const audit = await app
      .http()
      .get(`${API}/audit-logs?action=credentials.revoke&limit=100`)
      .set(bearer(admin));
    expect(audit.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "credentials.revoke", targetId: member.id }),
      ]),
    );
  });
});

describe("privacy", () => {
  it("exports the year and its renewals, and erases them with the account", async () => {
    const { app, admin } = scenario();
    const member = await swornMember(app, admin, oathDayEndingIn(10));
    await app
      .http()
      .post(`${API}/members/current/renewal`)
      .set(bearer(member.user))
      .send({ paymentMethod: "CASH" });
    const exported = await app.http().get(`${API}/users/current/export`).set(bearer(member.user));
    expect(exported.body.data.membership).toMatchObject({
      membershipExpiresAt: expect.any(String),
      renewals: [expect.objectContaining({ status: "SUBMITTED", paymentMethod: "CASH" })],
    });
    expect((await app.http().delete(`${API}/users/current`).set(bearer(member.user))).status).toBe(
      204,
    );
    expect(await renewalsOf(member.id)).toBe(0);
    expect(
      await app.connection.model("MembershipTerm").countDocuments({ userId: member.user.id }),
    ).toBe(0);
  });
});
