/**
 * Issue 33, done-when: the organisation's web client's own flow, call by call as it makes
 * them, from sign-up to the public credential page and a second application flagged.
 */
import { randomBytes } from "node:crypto";
import { bearer, loginBootstrapAdmin, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

const APP_URL = "https://chaplains.example.org";
const PASSWORD = "Wizard#2024";
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ APP_URL });
});
afterAll(() => app?.close());

/** A small drawn signature as the wizard's canvas exports it. */
const SIGNATURE = `data:image/png;base64,${randomBytes(600).toString("base64")}`;

/** Everything the client's application wizard sends, its optional steps included. */
function wizardPayload(lastName: string) {
  return {
    firstName: "Ramon",
    middleInitial: "b",
    lastName,
    extensionName: "Jr.",
    mobilePhoneNumber: "0917 555 0123",
    homeAddress: "45 Osmeña Boulevard",
    civilStatus: "MARRIED",
    gender: "MALE",
    nationality: "Filipino",
    dateOfBirth: "1978-09-21T00:00:00.000Z",
    region: "Region VII (Central Visayas)",
    province: "Cebu",
    municipalityCity: "Cebu City",
    barangay: "Capitol Site",
    emergencyContactName: "Luz Bautista",
    emergencyContactMobile: "09185550123",
    churchAffiliation: "Cebu Gospel Church",
    churchAddress: "Jones Avenue, Cebu City",
    currentPositionRole: "Pastor",
    height: "170 cm",
    weight: "72 kg",
    bloodType: "O+",
    sssNumber: "06-1234567-9",
    tinNumber: "234-567-891-000",
    skillsTalents: "Counselling, music",
    elementarySchool: "Lahug Elementary School",
    secondarySchool: "Cebu City National High School",
    tertiaryCollege: "University of San Carlos",
    ministerialExperiences: [
      { roleDescription: "Youth pastor", yearsApprox: "6" },
      { roleDescription: "Hospital chaplain volunteer", yearsApprox: "3" },
    ],
    characterReferences: [
      {
        name: "Rev. Andres Lim",
        positionRelationship: "Senior pastor",
        contactNumber: "09171110000",
      },
      { positionRelationship: "Barangay captain", contactNumber: "09172220000" },
    ],
    signature: { type: "DRAWN", signatureData: SIGNATURE },
    privacyConsent: { noticeVersion: "2024-01" },
  };
}

/** register → the link from the real mail → verify → login, as the client does. */
async function signUp(email: string, name: string) {
  const mailsBefore = app.mail.messages.length;
  const registered = await app
    .http()
    .post("/api/v1/auth/register")
    .send({ name, email, password: PASSWORD, role: "MEMBER" });
  expect(registered.status).toBe(200);
  expect(registered.body.user.memberProfile).toBeNull();

  const mail = await app.mail.waitFor(email, { subject: /verification code/i, after: mailsBefore });
  const link = /https:\/\/\S+\/confirm-account\?token=[^\s"<]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  const url = new URL(link!);
  expect(url.origin + url.pathname).toBe(`${APP_URL}/confirm-account`);
  // The client's /confirm-account page posts the link's token as the code.
  const verified = await app
    .http()
    .post("/api/v1/auth/verify-email")
    .send({ code: url.searchParams.get("token") });
  expect(verified.status).toBe(200);
  expect(verified.body.user).toMatchObject({ isEmailVerified: true, memberProfile: null });

  const login = await app.http().post("/api/v1/auth/login").send({ email, password: PASSWORD });
  expect(login.status).toBe(200);
  return login.body as { accessToken: string; user: { memberProfile: unknown } };
}

it("sign-up, application, approval, public page, and a second application flagged", async () => {
  const lastName = `Bautista${randomBytes(2).toString("hex")}`;
  const session = await signUp(uniqueEmail("ramon"), "Ramon Bautista");
  const me = { token: session.accessToken };
  expect(session.user.memberProfile).toBeNull();

  // The client picks the form: no application yet.
  const before = await app.http().get("/api/v1/users/current").set(bearer(me));
  expect(before.body.user.memberProfile).toBeNull();

  const applied = await app
    .http()
    .post("/api/v1/members/apply")
    .set(bearer(me))
    .send(wizardPayload(lastName));
  expect(applied.status).toBe(201);
  expect(applied.body.meta).toEqual({ createdUser: false, isEmailVerified: true });
  const record = applied.body.data;
  expect(record).toMatchObject({
    status: "PENDING",
    firstName: "Ramon",
    middleInitial: "B",
    lastName,
    extensionName: "Jr.",
    sssNumber: "06-1234567-9",
    signature: { type: "DRAWN", signatureData: SIGNATURE },
    ministerialExperiences: [
      { roleDescription: "Youth pastor", yearsApprox: "6", order: 0, memberId: record.id },
      { roleDescription: "Hospital chaplain volunteer", yearsApprox: "3", order: 1 },
    ],
    characterReferences: [
      { name: "Rev. Andres Lim", positionRelationship: "Senior pastor" },
      { name: null, positionRelationship: "Barangay captain" },
    ],
    possibleDuplicates: null,
    publicUrl: null,
  });

  // The client picks the status page now.
  const pending = await app.http().get("/api/v1/users/current").set(bearer(me));
  expect(pending.body.user.memberProfile).toEqual({
    id: record.id,
    status: "PENDING",
    isActive: true,
    createdAt: record.createdAt,
    uniqueId: null,
    onboardingProgress: null,
  });
  const hidden = await app.http().get(`/api/v1/members/public/${record.id}`);
  expect(hidden.status).toBe(404);

  const admin = await loginBootstrapAdmin(app);
  const approval = await app
    .http()
    .patch(`/api/v1/members/${record.id}/status`)
    .set(bearer(admin))
    .send({ status: "APPROVED" });
  expect(approval.status).toBe(200);
  const approvedAt = (approval.body.data.statusHistory as { at: string }[]).at(-1)!.at;

  const approved = await app.http().get("/api/v1/users/current").set(bearer(me));
  expect(approved.body.user.memberProfile).toMatchObject({ id: record.id, status: "APPROVED" });
  const mine = await app.http().get("/api/v1/members/me").set(bearer(me));
  const publicUrl = mine.body.data[0].publicUrl as string;
  // The site's page: APP_URL/profile/<uniqueId>, the address the QR codes print.
  const uniqueId = mine.body.data[0].uniqueId as string;
  expect(uniqueId).toMatch(/^POI-\d{4}-\d{5}$/);
  expect(publicUrl).toBe(`${APP_URL}/profile/${uniqueId}`);

  // The site's page reads the public check by the uniqueId at the end of the link.
  const publicId = publicUrl.split("/").at(-1)!;
  const page = await app.http().get(`/api/v1/members/public/${publicId}`);
  expect(page.status).toBe(200);
  expect(page.body.data).toMatchObject({
    id: record.id,
    fullName: `Ramon B. ${lastName} Jr.`,
    status: "APPROVED",
    memberSince: approvedAt,
    offices: [],
    // The approval gave the record its organisation id; nothing else is shown without consent.
    uniqueId,
    memberType: null,
    badgeNumber: null,
    photoUrl: null,
    region: null,
    province: null,
    municipalityCity: null,
    preferredBranches: null,
    firstName: "Ramon",
    lastName,
    isActive: true,
    officerAssignments: [],
    applicantRequirements: [],
    certificates: [],
    publicRecords: [],
    followerCount: 0,
    churchAffiliation: null,
  });

  // The same person signs up again under another address and applies.
  const again = await signUp(uniqueEmail("ramon-again"), "R. Bautista");
  const second = await app
    .http()
    .post("/api/v1/members/apply")
    .set(bearer({ token: again.accessToken }))
    .send({ ...wizardPayload(lastName), mobilePhoneNumber: "+63 917 555 0123" });
  expect(second.status).toBe(201);
  expect(second.body.data.possibleDuplicates).toBeNull();

  const review = await app
    .http()
    .get("/api/v1/members/pending")
    .query({ search: lastName })
    .set(bearer(admin));
  expect(review.body.data).toHaveLength(1);
  const [flagged] = review.body.data as {
    id: string;
    possibleDuplicates: { id: string; status: string; reason: string }[];
  }[];
  expect(flagged.id).toBe(second.body.data.id);
  expect(flagged.possibleDuplicates).toEqual([
    {
      id: record.id,
      status: "APPROVED",
      reason:
        "same full name and date of birth; same mobile number; same SSS number; same TIN number",
    },
  ]);
});
