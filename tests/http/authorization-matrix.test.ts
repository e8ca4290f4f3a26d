/*
 * Authorization matrix (OWASP API1 broken object-level and API5 broken function-level
 * authorization): every REST route and every GraphQL root field has one entry saying who may
 * call it and how to build a valid call. A new endpoint without an entry fails the suite; each
 * entry is then exercised for an anonymous caller, a MEMBER, an OFFICER and an ADMIN over both
 * /api/v1 and /graphql.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { getNamedType, isObjectType, type GraphQLSchema } from "graphql";
import jwt from "jsonwebtoken";
import { generate } from "otplib";
import type { Response } from "supertest";
import { accessOf } from "../../src/graphql/access";
import { restRoutes, type RestRoute } from "../../src/graphql/rest-route";
import { buildAppSchema, buildAppSchemaSync } from "../../src/graphql/schema";
import { API_BASE } from "../../src/http/rest/rest-api";
import { Role } from "../../src/modules/users/role";
import {
  applyAs,
  bearer,
  approvedMemberOf,
  buildBranchService,
  buildUser,
  login,
  minimalApplication,
  TEST_PASSWORD,
  uniqueEmail,
  type TestUser,
} from "../support/factories";
import { CurrentUserDocument, MyMembershipsDocument } from "../graphql/generated";
import { resetTokenIn, verificationCodeIn } from "../support/mailbox";
import { TEST_JWT_SECRET, type TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

type Operation = RestRoute["operation"];

/** Who may call an operation. */
type Access =
  /** Anyone, with or without a token. */
  | "public"
  /** Any role with a valid access token. */
  | "signed-in"
  /** Signed in with a verified email; an unverified account gets 403 EMAIL_NOT_VERIFIED. */
  | "verified"
  /** ADMIN only: other roles get 403 FORBIDDEN. */
  | "admin"
  /** OFFICER or ADMIN: a MEMBER gets 403 FORBIDDEN. */
  | "staff"
  /** Needs the refreshToken cookie rather than a bearer token. */
  | "cookie";

/** The arguments of one call (path parameters, body or query, GraphQL variables alike). */
interface Call {
  args: Record<string, unknown>;
  cookie?: string;
}

interface Expectation {
  access: Access;
  /** A valid call for `caller` (null: anonymous), with fresh resources where it uses them up. */
  call: (caller: TestUser | null) => Promise<Call>;
  /** The call changes or ends the caller's own account or session: each gets a new account. */
  freshCaller?: boolean;
}

const CALLERS = ["anonymous", Role.MEMBER, Role.OFFICER, Role.ADMIN] as const;
type CallerName = (typeof CALLERS)[number];

type Outcome =
  { allowed: true } | { allowed: false; status: 401 | 403; code: "UNAUTHENTICATED" | "FORBIDDEN" };

const ALLOWED: Outcome = { allowed: true };
const UNAUTHENTICATED: Outcome = { allowed: false, status: 401, code: "UNAUTHENTICATED" };
const FORBIDDEN: Outcome = { allowed: false, status: 403, code: "FORBIDDEN" };

function outcomeOf(access: Access, caller: CallerName): Outcome {
  if (access === "public") return ALLOWED;
  if (caller === "anonymous") return UNAUTHENTICATED;
  if (access === "admin" && caller !== Role.ADMIN) return FORBIDDEN;
  if (access === "staff" && caller === Role.MEMBER) return FORBIDDEN;
  return ALLOWED;
}

let app: TestApp;
let schema: GraphQLSchema;

/** The route table the server derives from the resolvers' @Rest (needed before tests run). */
const REST_ROUTES = restRoutes(buildAppSchemaSync());
const fieldOf = ({ operation }: Pick<RestRoute, "operation">) => {
  const [kind, field] = operation.split(".") as ["Query" | "Mutation", string];
  return { kind, field };
};
const sharedCallers = {} as Record<Role, TestUser>;
let admin: TestUser;
/** An account other callers sign in as, ask a reset for or look up. */
let otherAccount: TestUser;
let office: { id: string };
let branch: { id: string; title: string };
let event: { id: string };
let post: { id: string };
const EVENT = { name: "Matrix event", category: "OTHER", type: "ONSITE", startsAt: "2027-01-01" };
/** An APPROVED member record holding `office`, with personal data nobody else should see. */
let holder: { user: TestUser; recordId: string };
/** An APPROVED member who chose to be listed: anyone signed in may follow the page. */
let listed: { user: TestUser; recordId: string };
/** A lesson and an essay question of the catalogue, changed by the administrators' updates. */
let lesson: { course: string; id: number };
let question: { id: number };
/** An APPROVED record whose 2x2 photo waits for review. */
let reviewed: { user: TestUser; recordId: string };
/** An APPROVED record whose payment is submitted again before each decision. */
let payer: { user: TestUser; recordId: string };
const LESSON = { course: "PRE_ORIENTATION", title: "Matrix lesson" };

const HOLDER_PRIVATE = {
  mobilePhoneNumber: "09995550101",
  homeAddress: "7 Private Lane, Barangay Secret",
  emergencyContactMobile: "09995550102",
};

let sequence = 0;
const unique = (label: string) => {
  sequence += 1;
  return `${label} ${sequence} ${randomBytes(3).toString("hex")}`;
};

const api = () => app.http();

/** Fixture requests: anything but the expected status stops the test with the answer. */
function assertStatus(response: Response, status: number, what: string): void {
  if (response.status !== status) {
    throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

async function createOffice(): Promise<{ id: string }> {
  const response = await api()
    .post(`${API_BASE}/offices/create`)
    .set(bearer(admin))
    .send({ name: unique("Barangay Chaplain of"), level: "BARANGAY_CHAPLAIN" });
  assertStatus(response, 201, "createOffice");
  return response.body.data as { id: string };
}

/** An administrator's create through REST (201), answering the record. */
async function createAs<T = { id: string }>(path: string, body: object): Promise<T> {
  const response = await api().post(`${API_BASE}${path}`).set(bearer(admin)).send(body);
  assertStatus(response, 201, `POST ${path}`);
  return response.body.data as T;
}

async function pendingRecord(application: Record<string, unknown> = {}) {
  const user = await buildUser(app, { name: "Applicant" });
  const record = await applyAs(app, user, application);
  return { user, recordId: record.id };
}

async function approvedRecord(application: Record<string, unknown> = {}) {
  const { user, id } = await approvedMemberOf(app, admin, application);
  return { user, recordId: id };
}

async function archivedRecord(): Promise<string> {
  const { recordId } = await pendingRecord();
  const response = await api().patch(`${API_BASE}/members/${recordId}/archive`).set(bearer(admin));
  assertStatus(response, 200, "archive");
  return recordId;
}

async function appoint(officeId: string, memberId: string): Promise<string> {
  const response = await api()
    .post(`${API_BASE}/offices/${officeId}/holders`)
    .set(bearer(admin))
    .send({ memberId, startDate: "2024-01-01T00:00:00.000Z" });
  assertStatus(response, 201, "appoint");
  return (response.body.data as { id: string }).id;
}

/* TOTP: the server accepts one 30-second step either side of now, each step once. */
const PERIOD_SECONDS = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD_SECONDS });
/** A code of the right shape that is not checked: the caller is refused before that. */
const UNCHECKED_CODE = "000000";
/** A file id of the right shape for a caller refused before it is looked at. */
const UNKNOWN_FILE = "0193a8f0-0000-7000-8000-000000000000";

async function startMfa(user: TestUser): Promise<string> {
  const response = await api().post(`${API_BASE}/auth/mfa/setup`).set(bearer(user)).send({});
  assertStatus(response, 200, "setupMfa");
  return response.body.secret as string;
}

/** Turns MFA on for `user`; the returned step's code is used up, the next one is not. */
async function enableMfaFor(user: TestUser): Promise<{ secret: string; step: number }> {
  const secret = await startMfa(user);
  const step = currentStep();
  const response = await api()
    .post(`${API_BASE}/auth/mfa/enable`)
    .set(bearer(user))
    .send({ code: await codeAt(secret, step) });
  assertStatus(response, 200, "enableMfa");
  return { secret, step };
}

/** A new account whose email is not verified yet, and the code mailed to it. */
async function unverifiedAccountCode(): Promise<string> {
  const email = uniqueEmail("unverified");
  const after = app.mail.messages.length;
  const response = await api()
    .post(`${API_BASE}/auth/register`)
    .send({ name: "Not Yet Verified", email, password: TEST_PASSWORD });
  assertStatus(response, 200, "register");
  return verificationCodeIn(
    await app.mail.waitFor(email, { subject: /verification code/i, after }),
  );
}

async function resetTokenOfNewAccount(): Promise<string> {
  const user = await buildUser(app);
  const after = app.mail.messages.length;
  const response = await api().post(`${API_BASE}/auth/forgot-password`).send({ email: user.email });
  assertStatus(response, 200, "forgotPassword");
  return resetTokenIn(
    await app.mail.waitFor(user.email, { subject: /reset your password/i, after }),
  );
}

const args = (values: Record<string, unknown> = {}) => Promise.resolve<Call>({ args: values });

/** Makes `interviewer` an interviewer on every day and slot: a record linked to the account. */
async function offerInterviews(interviewer: TestUser): Promise<string> {
  const key = `staff-${interviewer.id.slice(-12)}`;
  const response = await api()
    .post(`${API_BASE}/interviewers/create`)
    .set(bearer(admin))
    .send({
      key,
      name: interviewer.name,
      title: "Interviewer",
      userId: interviewer.id,
      days: ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"],
      timeSlots: ["08:00 AM", "09:00 AM", "10:00 AM", "11:00 AM", "01:00 PM", "02:00 PM"],
    });
  // 409: the account already has its record from an earlier call.
  if (response.status !== 409) assertStatus(response, 201, "createInterviewer");
  return key;
}

/** A fresh interviewer record nobody booked (its key). */
async function spareInterviewer(): Promise<string> {
  const key = `spare-${randomBytes(6).toString("hex")}`;
  const response = await api()
    .post(`${API_BASE}/interviewers/create`)
    .set(bearer(admin))
    .send({ key, name: "Spare Interviewer", title: "Interviewer" });
  assertStatus(response, 201, "createInterviewer");
  return key;
}

/** A booking's arguments for `user`, whose record is then approved, with `interviewer`'s next free slot. */
async function bookingFor(user: TestUser, interviewer: TestUser) {
  const key = await offerInterviews(interviewer);
  const memberId = await approvedApplicationOf(user);
  const listed = await api().get(`${API_BASE}/interviewers`).set(bearer(user));
  assertStatus(listed, 200, "interviewers");
  const offers = listed.body.data as {
    key: string;
    nextFree: { date: string; timeSlot: string }[];
  }[];
  const [slot] = offers.find((offer) => offer.key === key)!.nextFree;
  const day = new Date(`${slot.date}T00:00:00Z`).toLocaleDateString("en-US", {
    weekday: "long",
    timeZone: "UTC",
  });
  const body = { interviewerId: key, day, timeSlot: slot.timeSlot };
  return { memberId, body };
}

/** `user`'s own application, approved: what the /members/current onboarding routes act on. */
async function approvedApplicationOf(user: TestUser): Promise<string> {
  const record = await applyAs(app, user);
  const approve = await api()
    .patch(`${API_BASE}/members/${record.id}/status`)
    .set(bearer(admin))
    .send({ status: "APPROVED" });
  assertStatus(approve, 200, "approve");
  return record.id;
}

/** A 2x2 portrait `user` uploaded (purpose REQUIREMENT), not attached to anything yet. */
async function uploadedPhoto(user: TestUser): Promise<string> {
  const photo = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
  const uploaded = await api()
    .post(`${API_BASE}/files`)
    .set(bearer(user))
    .field("purpose", "REQUIREMENT")
    .attach("file", photo, { filename: "photo.jpg", contentType: "image/jpeg" });
  assertStatus(uploaded, 201, "upload");
  return (uploaded.body as { data: { id: string } }).data.id;
}

/** A file `user` uploaded for `purpose` (a PNG), not attached to anything yet. */
async function uploadedFile(user: TestUser, purpose: string): Promise<string> {
  const png = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
  const uploaded = await api()
    .post(`${API_BASE}/files`)
    .set(bearer(user))
    .field("purpose", purpose)
    .attach("file", png, { filename: "picture.jpg", contentType: "image/jpeg" });
  assertStatus(uploaded, 201, "upload");
  return (uploaded.body as { data: { id: string } }).data.id;
}

/** A certificate on `user`'s (approved) public page; a placeholder id for an anonymous call. */
async function certificateOf(user: TestUser | null): Promise<string> {
  if (!user) return UNKNOWN_FILE;
  const response = await api()
    .post(`${API_BASE}/members/current/certificates`)
    .set(bearer(user))
    .send({
      title: "Matrix course",
      certificateUrl: await uploadedFile(user, "CERTIFICATE"),
      issuedAt: "2024-01-01",
    });
  assertStatus(response, 201, "createCertificate");
  return (response.body as { data: { id: string } }).data.id;
}

const PUBLIC_RECORD = {
  title: "Matrix visit",
  shortDescription: "<p>Visited</p>",
  type: "COMMUNITY_SERVICE",
  eventAt: "2024-01-01",
  location: "Manila",
  status: "DRAFT",
};

/** A public record on `user`'s (approved) page; a placeholder id for an anonymous call. */
async function publicRecordOf(user: TestUser | null): Promise<string> {
  if (!user) return UNKNOWN_FILE;
  const response = await api()
    .post(`${API_BASE}/members/current/public-records`)
    .set(bearer(user))
    .send(PUBLIC_RECORD);
  assertStatus(response, 201, "createPublicRecord");
  return (response.body as { data: { id: string } }).data.id;
}

/** `user`'s (approved) record given a 2x2 photo, waiting for review. */
async function withPhoto(user: TestUser): Promise<void> {
  const saved = await api()
    .put(`${API_BASE}/members/current/requirements`)
    .set(bearer(user))
    .send({ attachments: [{ type: "PHOTO_2X2", fileId: await uploadedPhoto(user) }] });
  assertStatus(saved, 200, "saveCurrentRequirements");
}

/** `user` submits the fee in cash: their payment is SUBMITTED (again). */
async function payCash(user: TestUser): Promise<void> {
  const paid = await api()
    .put(`${API_BASE}/members/current/payment-checkout`)
    .set(bearer(user))
    .send({ paymentMethod: "CASH" });
  assertStatus(paid, 200, "savePayment");
}

/**
 * `user`'s record approved, with a 2x2 photo and a verified payment: ready for its ID card.
 * Answers the record's id and a booking of the shared officer's next free slot.
 */
async function readyForIdCard(user: TestUser) {
  const booking = await bookingFor(user, sharedCallers[Role.OFFICER]);
  await withPhoto(user);
  // The card is printed only from an approved photo.
  const approved = await api()
    .patch(`${API_BASE}/members/${booking.memberId}/requirements/PHOTO_2X2`)
    .set(bearer(admin))
    .send({ reviewStatus: "APPROVED" });
  assertStatus(approved, 200, "reviewRequirement");
  await payCash(user);
  const verified = await api()
    .patch(`${API_BASE}/members/${booking.memberId}/payment`)
    .set(bearer(admin))
    .send({ status: "VERIFIED" });
  assertStatus(verified, 200, "decidePayment");
  return booking;
}

/** `user` completes every lesson of `course`, and for Chaplaincy 101 answers every essay. */
async function completeCourse(user: TestUser, course: "PRE_ORIENTATION" | "CHAPLAINCY_101") {
  const lessons = await api().get(`${API_BASE}/lessons`).set(bearer(user)).query({ course });
  assertStatus(lessons, 200, "lessons");
  const completedLessonIds = (lessons.body.data as { id: number }[]).map((lesson) => lesson.id);
  if (course === "PRE_ORIENTATION") {
    const saved = await api()
      .put(`${API_BASE}/members/current/onboarding-progress/pre-orientation`)
      .set(bearer(user))
      .send({ completedLessonIds, isCompleted: true });
    assertStatus(saved, 200, "savePreOrientation");
    return;
  }
  const questions = await api().get(`${API_BASE}/essay-questions`).set(bearer(user));
  assertStatus(questions, 200, "essayQuestions");
  const essayAnswers = Object.fromEntries(
    (questions.body.data as { id: number }[]).map(({ id }) => [String(id), `Answer ${id}.`]),
  );
  const saved = await api()
    .put(`${API_BASE}/members/current/chaplaincy-training`)
    .set(bearer(user))
    .send({ completedLessonIds, essayAnswers, isCompleted: true });
  assertStatus(saved, 200, "saveChaplaincyTraining");
}

/** A member record with every step done and its interview PASSED: ready for the oath. */
async function readyForOath(user?: TestUser): Promise<string> {
  user ??= await buildUser(app, { name: "Oath Taker" });
  const { memberId, body } = await readyForIdCard(user);
  const put = (route: string, send: object) =>
    api().put(`${API_BASE}${route}`).set(bearer(user)).send(send);
  assertStatus(await put("/members/current/online-interview", body), 200, "book");
  assertStatus(await put("/members/current/id-generation", {}), 200, "generate");
  await completeCourse(user, "PRE_ORIENTATION");
  await completeCourse(user, "CHAPLAINCY_101");
  const passed = await api()
    .patch(`${API_BASE}/members/${memberId}/interview`)
    .set(bearer(sharedCallers[Role.OFFICER]))
    .send({ outcome: "PASSED" });
  assertStatus(passed, 200, "recordInterviewOutcome");
  return memberId;
}

/** `user` sworn eleven months ago: their membership year ends within the renewal window. */
async function inRenewalWindow(user: TestUser): Promise<string> {
  const memberId = await readyForOath(user);
  const takenAt = new Date(Date.now() - 335 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const sworn = await api()
    .post(`${API_BASE}/members/${memberId}/oath`)
    .set(bearer(admin))
    .send({ takenAt, place: "Matrix chapel" });
  assertStatus(sworn, 200, "recordOath");
  return memberId;
}

/** A renewal SUBMITTED by a fresh member, for an administrator to decide. */
async function submittedRenewal(): Promise<string> {
  const user = await buildUser(app, { name: "Renewing Member" });
  await inRenewalWindow(user);
  const submitted = await api()
    .post(`${API_BASE}/members/current/renewal`)
    .set(bearer(user))
    .send({ paymentMethod: "CASH" });
  assertStatus(submitted, 201, "submitRenewal");
  return submitted.body.data.id as string;
}

/** A member record booked with `interviewer` (an officer, or the shared officer). */
async function bookedRecord(interviewer: TestUser): Promise<string> {
  const member = await buildUser(app, { name: "Interviewee" });
  const { memberId, body } = await bookingFor(member, interviewer);
  const response = await api()
    .put(`${API_BASE}/members/current/online-interview`)
    .set(bearer(member))
    .send(body);
  assertStatus(response, 200, "bookOnlineInterview");
  return memberId;
}

/**
 * Every operation of the API and who may call it. Filled in from the resolvers' @Authorized
 * decorators and README's REST↔GraphQL table ("access" column).
 */
const MATRIX: Record<Operation, Expectation> = {
  // Auth
  "Mutation.register": {
    access: "public",
    call: () =>
      args({ name: "New Member", email: uniqueEmail("register"), password: TEST_PASSWORD }),
  },
  "Mutation.login": {
    access: "public",
    call: () => args({ email: otherAccount.email, password: TEST_PASSWORD }),
  },
  "Mutation.logout": { access: "signed-in", freshCaller: true, call: () => args() },
  "Mutation.refreshToken": {
    access: "cookie",
    call: async (caller) =>
      caller
        ? { args: {}, cookie: (await login(app, caller.email, caller.password)).refreshCookie }
        : { args: {} },
  },
  "Mutation.forgotPassword": { access: "public", call: () => args({ email: otherAccount.email }) },
  "Mutation.resetPassword": {
    access: "public",
    call: async () =>
      args({
        token: await resetTokenOfNewAccount(),
        password: "Changed#456",
        confirmPassword: "Changed#456",
      }),
  },
  "Mutation.verifyEmail": {
    access: "public",
    call: async () => args({ code: await unverifiedAccountCode() }),
  },
  "Mutation.resendEmailVerification": {
    access: "public",
    call: () => args({ email: uniqueEmail("resend") }),
  },
  "Mutation.setupMfa": { access: "signed-in", freshCaller: true, call: () => args() },
  "Mutation.enableMfa": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) =>
      args({
        code: caller ? await codeAt(await startMfa(caller), currentStep()) : UNCHECKED_CODE,
      }),
  },
  "Mutation.verifyMfa": {
    access: "public",
    call: async () => {
      const user = await buildUser(app);
      const { secret, step } = await enableMfaFor(user);
      const response = await api()
        .post(`${API_BASE}/auth/login`)
        .send({ email: user.email, password: user.password });
      assertStatus(response, 200, "login with MFA");
      return args({ mfaToken: response.body.mfaToken, code: await codeAt(secret, step + 1) });
    },
  },
  "Mutation.disableMfa": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      if (!caller) return args({ code: UNCHECKED_CODE, password: TEST_PASSWORD });
      const { secret, step } = await enableMfaFor(caller);
      return args({ code: await codeAt(secret, step + 1), password: caller.password });
    },
  },
  "Mutation.reauthenticate": {
    access: "signed-in",
    freshCaller: true,
    call: (caller) => args({ password: caller?.password ?? TEST_PASSWORD }),
  },
  "Mutation.changePassword": {
    access: "signed-in",
    freshCaller: true,
    call: (caller) =>
      args({
        currentPassword: caller?.password ?? TEST_PASSWORD,
        password: "Changed#456",
        confirmPassword: "Changed#456",
      }),
  },
  "Query.sessions": { access: "signed-in", call: () => args() },
  "Mutation.endOtherSessions": { access: "signed-in", freshCaller: true, call: () => args() },
  "Query.myActivity": { access: "signed-in", call: () => args() },
  "Mutation.endSession": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      if (!caller) return args({ id: otherAccount.id });
      // A second session of the caller's own, ended with the caller's token.
      const second = await login(app, caller.email, caller.password);
      return args({ id: (jwt.decode(second.token) as { sid: string }).sid });
    },
  },
  // Users
  "Query.currentUser": { access: "signed-in", call: () => args() },
  "Mutation.updateCurrentUser": {
    access: "signed-in",
    freshCaller: true,
    call: () => args({ name: "Renamed Caller" }),
  },
  "Mutation.deleteCurrentUser": { access: "signed-in", freshCaller: true, call: () => args() },
  "Query.users": { access: "admin", call: () => args() },
  "Query.user": { access: "admin", call: () => args({ userId: otherAccount.id }) },
  "Mutation.deleteUser": {
    access: "admin",
    call: async () => args({ userId: (await buildUser(app, { name: "Doomed Account" })).id }),
  },
  // Members
  "Mutation.applyForMembership": {
    access: "verified",
    freshCaller: true,
    call: () => args(minimalApplication()),
  },
  "Query.members": { access: "admin", call: () => args() },
  "Query.pendingMembers": { access: "admin", call: () => args() },
  "Query.myMemberships": { access: "signed-in", call: () => args() },
  "Mutation.updateMemberStatus": {
    access: "admin",
    call: async () => args({ id: (await pendingRecord()).recordId, status: "APPROVED" }),
  },
  "Mutation.archiveMember": {
    access: "admin",
    call: async () => args({ id: (await pendingRecord()).recordId }),
  },
  "Mutation.retrieveMember": {
    access: "admin",
    call: async () => args({ id: await archivedRecord() }),
  },
  // Office titles and holders
  "Query.memberOffices": { access: "signed-in", call: () => args({ id: holder.recordId }) },
  "Query.publicMember": { access: "public", call: () => args({ id: holder.recordId }) },
  "Query.directoryLocations": { access: "public", call: () => args() },
  "Query.serviceChaplains": { access: "public", call: () => args() },
  "Mutation.setPublicProfile": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      if (caller) await applyAs(app, caller);
      return args({ listed: true });
    },
  },
  "Mutation.setMemberType": {
    access: "admin",
    call: () =>
      args({ id: holder.recordId, memberType: "PROFESSIONAL_CHAPLAIN", badgeNumber: "B-1" }),
  },
  // Public profiles: the owner's edits (each shared caller has an APPROVED record) and follows
  "Query.currentProfileBanner": { access: "signed-in", call: () => args() },
  "Mutation.saveProfileBanner": {
    access: "signed-in",
    call: async (caller) =>
      args({
        profileBannerUrl: caller ? await uploadedFile(caller, "PUBLIC_RECORD") : UNKNOWN_FILE,
        profileBannerPositionY: 30,
      }),
  },
  "Mutation.saveChurchAffiliation": {
    access: "signed-in",
    call: () => args({ churchAffiliation: unique("Church") }),
  },
  "Mutation.saveEducation": {
    access: "signed-in",
    call: () => args({ tertiaryCollegeEntries: [unique("College")] }),
  },
  "Mutation.saveBranchServices": {
    access: "signed-in",
    call: () => args({ preferredBranchOther: `${branch.title}, Other ministry` }),
  },
  "Query.currentCertificates": { access: "signed-in", call: () => args() },
  "Mutation.createCertificate": {
    access: "signed-in",
    call: async (caller) =>
      args({
        title: "Matrix course",
        certificateUrl: caller ? await uploadedFile(caller, "CERTIFICATE") : UNKNOWN_FILE,
        issuedAt: "2024-01-01",
      }),
  },
  "Mutation.updateCertificate": {
    access: "signed-in",
    call: async (caller) => args({ id: await certificateOf(caller), title: unique("Course") }),
  },
  "Mutation.deleteCertificate": {
    access: "signed-in",
    call: async (caller) => args({ id: await certificateOf(caller) }),
  },
  "Query.currentPublicRecords": { access: "signed-in", call: () => args() },
  "Mutation.createPublicRecord": { access: "signed-in", call: () => args(PUBLIC_RECORD) },
  "Mutation.updatePublicRecord": {
    access: "signed-in",
    call: async (caller) => args({ id: await publicRecordOf(caller), status: "PUBLISHED" }),
  },
  "Mutation.deletePublicRecord": {
    access: "signed-in",
    call: async (caller) => args({ id: await publicRecordOf(caller) }),
  },
  "Query.followState": { access: "signed-in", call: () => args({ id: listed.recordId }) },
  "Mutation.followMember": { access: "signed-in", call: () => args({ id: listed.recordId }) },
  "Mutation.unfollowMember": { access: "signed-in", call: () => args({ id: listed.recordId }) },
  "Query.offices": { access: "signed-in", call: () => args() },
  "Query.office": { access: "signed-in", call: () => args({ id: office.id }) },
  "Mutation.createOffice": {
    access: "admin",
    call: () => args({ name: unique("Municipal Chaplain of"), level: "MUNICIPAL_CHAPLAIN" }),
  },
  "Mutation.updateOffice": {
    access: "admin",
    call: () => args({ id: office.id, description: unique("Serves") }),
  },
  "Mutation.deleteOffice": {
    access: "admin",
    call: async () => args({ id: (await createOffice()).id }),
  },
  "Mutation.appointOfficeHolder": {
    access: "admin",
    call: async () =>
      args({
        id: (await createOffice()).id,
        memberId: holder.recordId,
        startDate: "2024-01-01T00:00:00.000Z",
      }),
  },
  "Query.officeHolders": { access: "signed-in", call: () => args({ id: office.id }) },
  "Mutation.endOfficeHolder": {
    access: "admin",
    call: async () => {
      const fresh = await createOffice();
      return args({ id: fresh.id, holderId: await appoint(fresh.id, holder.recordId) });
    },
  },
  // Interviews
  "Query.interviewerRecords": { access: "admin", call: () => args() },
  "Mutation.createInterviewer": {
    access: "admin",
    call: () =>
      args({
        key: `new-${randomBytes(6).toString("hex")}`,
        name: "New Interviewer",
        title: "Interviewer",
      }),
  },
  "Mutation.updateInterviewer": {
    access: "admin",
    call: () => args({ id: "ptr-maria", title: "Formation Interviewer" }),
  },
  "Mutation.deactivateInterviewer": {
    access: "admin",
    call: async () => args({ id: await spareInterviewer() }),
  },
  "Mutation.deleteInterviewer": {
    access: "admin",
    call: async () => args({ id: await spareInterviewer() }),
  },
  "Query.interviewers": { access: "signed-in", call: () => args() },
  "Query.currentOnlineInterview": { access: "signed-in", call: () => args() },
  "Mutation.bookOnlineInterview": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      // Refused before its arguments are looked at; they only need the right shape.
      if (!caller) return args({ interviewerId: admin.id, day: "MONDAY", timeSlot: "09:00 AM" });
      const { body } = await bookingFor(caller, sharedCallers[Role.OFFICER]);
      return args(body);
    },
  },
  "Mutation.recordInterviewOutcome": {
    access: "staff",
    call: async (caller) => {
      const interviewer = caller?.role === Role.OFFICER ? caller : sharedCallers[Role.OFFICER];
      return args({ id: await bookedRecord(interviewer), outcome: "PASSED" });
    },
  },
  "Mutation.setInterviewMeeting": {
    access: "staff",
    call: async (caller) => {
      const interviewer = caller?.role === Role.OFFICER ? caller : sharedCallers[Role.OFFICER];
      return args({ id: await bookedRecord(interviewer), zoomLink: "https://zoom.us/j/42" });
    },
  },
  "Query.interviews": { access: "staff", call: () => args() },
  // ID card and certificate
  "Query.currentIdGeneration": { access: "signed-in", call: () => args() },
  "Mutation.generateIdCredentials": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      if (caller) await readyForIdCard(caller);
      return args();
    },
  },
  // Audit and subject access
  "Query.auditLogs": { access: "admin", call: () => args() },
  "Query.currentUserExport": { access: "signed-in", call: () => args() },
  "Query.userExport": { access: "admin", call: () => args({ userId: otherAccount.id }) },
  // Stored files (the bytes' own routes are tested in tests/files/)
  "Query.files": { access: "signed-in", call: () => args() },
  // Branches of service
  "Query.branchServices": { access: "public", call: () => args() },
  "Query.branchService": { access: "public", call: () => args({ id: branch.id }) },
  "Mutation.createBranchService": {
    access: "admin",
    call: () => args({ title: unique("Branch"), description: "Serves the faithful" }),
  },
  "Mutation.updateBranchService": {
    access: "admin",
    call: () => args({ id: branch.id, description: unique("Serves") }),
  },
  "Mutation.deleteBranchService": {
    access: "admin",
    call: async () => args({ id: (await buildBranchService(app, admin)).id }),
  },
  // Onboarding: the caller's own record (each shared caller has an APPROVED one)
  "Query.currentRequirements": { access: "signed-in", call: () => args() },
  "Mutation.saveCurrentRequirements": {
    access: "signed-in",
    call: async (caller) =>
      args({
        attachments: [
          { type: "PHOTO_2X2", fileId: caller ? await uploadedPhoto(caller) : UNKNOWN_FILE },
        ],
      }),
  },
  "Query.onboardingProgress": { access: "signed-in", call: () => args() },
  // Back (or staying) is always allowed.
  "Mutation.moveOnboardingStep": {
    access: "signed-in",
    call: () => args({ currentStep: "REQUIREMENTS" }),
  },
  "Mutation.savePreOrientation": {
    access: "signed-in",
    call: () => args({ completedLessonIds: [lesson.id] }),
  },
  "Query.chaplaincyTraining": { access: "signed-in", call: () => args() },
  "Mutation.saveChaplaincyTraining": {
    access: "signed-in",
    call: () => args({ completedLessonIds: [], essayAnswers: { [question.id]: "I listen." } }),
  },
  "Query.currentPayment": { access: "signed-in", call: () => args() },
  "Mutation.savePayment": { access: "signed-in", call: () => args({ paymentMethod: "CASH" }) },
  // Onboarding: the administrators' side
  "Query.pendingRequirements": { access: "admin", call: () => args() },
  "Mutation.reviewRequirement": {
    access: "admin",
    call: () => args({ id: reviewed.recordId, type: "PHOTO_2X2", reviewStatus: "APPROVED" }),
  },
  "Query.payments": { access: "admin", call: () => args() },
  "Mutation.decidePayment": {
    access: "admin",
    call: async () => {
      await payCash(payer.user);
      return args({ id: payer.recordId, status: "REJECTED", note: "The receipt is unreadable" });
    },
  },
  "Query.onboardingMembers": { access: "admin", call: () => args() },
  "Query.member": { access: "admin", call: () => args({ id: holder.recordId }) },
  "Mutation.recordOath": {
    access: "admin",
    // Only an ADMIN's call needs a record ready for it; the others are refused before the
    // record is looked at (a record that is not ready would answer 409, not 403, all the same).
    call: async (caller) =>
      args({
        id: caller?.role === Role.ADMIN ? await readyForOath() : holder.recordId,
        takenAt: "2026-12-05T00:00:00.000Z",
        place: "Matrix chapel",
      }),
  },
  // The organisation's settings and the membership year
  "Query.organisationSettings": { access: "admin", call: () => args() },
  "Mutation.updateOrganisationSettings": {
    access: "admin",
    call: () =>
      args({
        name: "Pearl of the Orient International Auxiliary Chaplain Values Educators Inc.",
        shortName: "POI-AVCE",
        signatoryName: "Matrix Signatory",
        signatoryTitle: "President",
      }),
  },
  "Query.currentMembership": { access: "signed-in", call: () => args() },
  "Mutation.submitRenewal": {
    access: "signed-in",
    freshCaller: true,
    call: async (caller) => {
      if (caller) await inRenewalWindow(caller);
      return args({ paymentMethod: "CASH" });
    },
  },
  "Query.renewals": { access: "admin", call: () => args() },
  "Mutation.decideRenewal": {
    access: "admin",
    call: async (caller) =>
      args({
        id:
          caller?.role === Role.ADMIN
            ? await submittedRenewal()
            : "0193a000-0000-7000-8000-000000000000",
        status: "VERIFIED",
      }),
  },
  "Mutation.revokeCredentials": {
    access: "admin",
    call: async (caller) =>
      args({
        id: caller?.role === Role.ADMIN ? (await approvedMemberOf(app, admin)).id : holder.recordId,
        reason: "Matrix revocation",
      }),
  },
  // Onboarding: the courses' catalogue
  "Query.lessons": { access: "signed-in", call: () => args({ course: "PRE_ORIENTATION" }) },
  "Mutation.createLesson": {
    access: "admin",
    call: () => args({ ...LESSON, title: unique("Lesson") }),
  },
  "Mutation.updateLesson": {
    access: "admin",
    call: () => args({ course: lesson.course, id: lesson.id, title: unique("Lesson") }),
  },
  "Mutation.deleteLesson": {
    access: "admin",
    call: async () => {
      const fresh = await createAs<typeof lesson>("/lessons", LESSON);
      return args({ course: fresh.course, id: fresh.id });
    },
  },
  "Query.essayQuestions": { access: "signed-in", call: () => args() },
  "Mutation.createEssayQuestion": {
    access: "admin",
    call: () => args({ prompt: unique("Why") }),
  },
  "Mutation.updateEssayQuestion": {
    access: "admin",
    call: () => args({ id: question.id, prompt: unique("Why") }),
  },
  "Mutation.deleteEssayQuestion": {
    access: "admin",
    call: async () =>
      args({ id: (await createAs<typeof question>("/essay-questions", { prompt: "x?" })).id }),
  },
  // Events and news
  "Query.publicEvents": { access: "public", call: () => args() },
  "Query.publicEvent": { access: "public", call: () => args({ id: event.id }) },
  "Query.event": { access: "signed-in", call: () => args({ id: event.id }) },
  "Query.events": { access: "admin", call: () => args() },
  "Mutation.createEvent": { access: "admin", call: () => args(EVENT) },
  "Mutation.updateEvent": {
    access: "admin",
    call: () => args({ id: event.id, organizer: unique("Board") }),
  },
  "Mutation.deleteEvent": {
    access: "admin",
    call: async () => args({ id: (await createAs("/events/create", EVENT)).id }),
  },
  "Query.publicNews": { access: "public", call: () => args() },
  "Query.publicNewsPost": { access: "public", call: () => args({ id: post.id }) },
  "Query.newsPosts": { access: "admin", call: () => args() },
  "Mutation.createNewsPost": { access: "admin", call: () => args({ title: unique("News") }) },
  "Mutation.updateNewsPost": {
    access: "admin",
    call: () => args({ id: post.id, platform: "WEBSITE" }),
  },
  "Mutation.deleteNewsPost": {
    access: "admin",
    call: async () => args({ id: (await createAs("/news-blogs/create", { title: "x" })).id }),
  },
  "Query.reports": { access: "admin", call: () => args() },
  "Query.membersByStatusReport": { access: "admin", call: () => args() },
  "Query.membersByRegionReport": { access: "admin", call: () => args() },
  "Query.membersByApprovalMonthReport": { access: "admin", call: () => args() },
  "Query.onboardingFunnelReport": { access: "admin", call: () => args() },
  "Query.paymentsByMonthReport": { access: "admin", call: () => args() },
  "Query.renewalsByMonthReport": { access: "admin", call: () => args() },
  "Query.interviewsByInterviewerReport": { access: "admin", call: () => args() },
  "Query.webhooks": { access: "admin", call: () => args() },
  "Query.webhook": { access: "admin", call: async () => args({ id: (await hook()).id }) },
  "Query.webhookDeliveries": {
    access: "admin",
    call: async () => args({ id: (await hook()).id }),
  },
  "Mutation.createWebhook": {
    access: "admin",
    call: () => args({ url: WEBHOOK_URL, events: ["news.deleted"] }),
  },
  "Mutation.updateWebhook": {
    access: "admin",
    call: async () => args({ id: (await hook()).id, description: unique("Site") }),
  },
  "Mutation.deleteWebhook": {
    access: "admin",
    call: async () => args({ id: (await createWebhook()).id }),
  },
  "Mutation.retryWebhookDelivery": {
    access: "admin",
    call: async () => {
      const { id } = await hook();
      await createAs("/news-blogs/create", { title: unique("News"), status: "PUBLISHED" });
      const log = await api().get(`${API_BASE}/webhooks/${id}/deliveries`).set(bearer(admin));
      return args({ id, deliveryId: log.body.data[0].id });
    },
  },
};

/** A public address given as such: registering it needs no name lookup, and nothing answers. */
const WEBHOOK_URL = "https://93.184.215.14/hook";
const createWebhook = () => createAs("/webhooks", { url: WEBHOOK_URL, events: ["news.published"] });
let webhookEndpoint: Promise<{ id: string }> | undefined;
/** One endpoint the reads, the update and the retry share. */
const hook = () => (webhookEndpoint ??= createWebhook());

/** Id-taking routes a MEMBER may reach, each reviewed for what it shows of others' data. */
const OBJECT_LEVEL_REVIEW: Partial<Record<Operation, string>> = {
  "Mutation.endSession": "the caller's own sessions only; another's id is the unknown id's 404",
  "Query.memberOffices": "another member's appointments: office and member id+name only",
  "Query.officeHolders": "an office's holders: member id+name only",
  "Query.office": "office titles are a shared catalogue without an owner",
  "Query.branchService": "branches of service are a public catalogue without an owner",
  "Query.event": "the organisation's events; how to join is for every signed-in member",
  "Query.publicEvent": "a PUBLIC event without its meeting id and password",
  "Query.publicNewsPost": "a post that is out; tagged members as id, uniqueId and name only",
  "Query.publicMember":
    "an APPROVED member's public page: name, status, approval date, offices, uniqueId, type and badge, account name, certificates (listed), PUBLISHED records, banner, follower count; photo, avatar, region to city, branches, church and education only as the member chose",
  "Mutation.updateCertificate": "the caller's own certificates only; another's id is the 404",
  "Mutation.deleteCertificate": "the caller's own certificates only; another's id is the 404",
  "Mutation.updatePublicRecord": "the caller's own public records only; another's id is the 404",
  "Mutation.deletePublicRecord": "the caller's own public records only; another's id is the 404",
  "Query.followState": "an APPROVED, listed member's follower count and the caller's own follow",
  "Mutation.followMember": "the caller's own follow of an APPROVED, listed member",
  "Mutation.unfollowMember": "the caller's own follow of an APPROVED, listed member",
};

/** Cases whose actual behaviour contradicts the resolver's decorator (see the report). */
const KNOWN_VIOLATIONS = new Set<string>([]);

const expectationOf = (operation: Operation): Expectation => {
  const expectation = MATRIX[operation];
  if (!expectation) throw new Error(`No MATRIX entry for ${operation}`);
  return expectation;
};

async function callerFor(name: CallerName, expectation: Expectation): Promise<TestUser | null> {
  if (name === "anonymous") return null;
  if (expectation.freshCaller) return buildUser(app, { role: name, name: "Fresh Caller" });
  return sharedCallers[name];
}

function callRest(route: RestRoute, caller: TestUser | null, call: Call) {
  const remaining = { ...call.args };
  const path = route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = remaining[name];
    // Integer ids (lessons, essay questions) travel as numbers for GraphQL's Int.
    if (typeof value !== "string" && typeof value !== "number") {
      throw new Error(`${route.path}: no value for :${name}`);
    }
    delete remaining[name];
    return encodeURIComponent(String(value));
  });
  const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
  const request = api()[method](`${API_BASE}${path}`);
  if (caller) request.set(bearer(caller));
  if (call.cookie) request.set("cookie", call.cookie);
  if (route.method === "GET" || route.method === "DELETE") return request.query(remaining);
  const inQuery = route.queryArguments ?? [];
  const query = Object.fromEntries(Object.entries(remaining).filter(([k]) => inQuery.includes(k)));
  const body = Object.fromEntries(Object.entries(remaining).filter(([k]) => !inQuery.includes(k)));
  return request.query(query).send(body);
}

/** `mutation ($id: UUID!) { deleteOffice(id: $id) { code } }`, from the schema's argument types. */
function graphqlDocument(operation: Operation, values: Record<string, unknown>): string {
  const { kind, field } = fieldOf({ operation });
  const root = kind === "Query" ? schema.getQueryType() : schema.getMutationType();
  const definition = root?.getFields()[field];
  if (!definition) throw new Error(`${operation} is not in the schema`);
  const unknown = Object.keys(values).filter(
    (name) => !definition.args.some((a) => a.name === name),
  );
  if (unknown.length > 0) throw new Error(`${operation} has no argument ${unknown.join(", ")}`);
  const used = definition.args.filter((arg) => arg.name in values);
  const declared = used.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(", ");
  const passed = used.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const returned = getNamedType(definition.type);
  const selection = isObjectType(returned) && returned.getFields().code ? "code" : "__typename";
  return (
    `${kind.toLowerCase()}${declared ? ` (${declared})` : ""} ` +
    `{ ${field}${passed ? `(${passed})` : ""} { ${selection} } }`
  );
}

function callGraphql(operation: Operation, caller: TestUser | null, call: Call) {
  const request = api().post("/graphql").set("content-type", "application/json");
  if (caller) request.set(bearer(caller));
  if (call.cookie) request.set("cookie", call.cookie);
  return request.send({ query: graphqlDocument(operation, call.args), variables: call.args });
}

const statusAndBody = (response: Response) => ({
  status: response.status,
  body: response.body as unknown,
});

function expectRestOutcome(response: Response, route: RestRoute, outcome: Outcome): void {
  if (outcome.allowed) {
    expect(statusAndBody(response)).toMatchObject({ status: route.status });
  } else {
    expect(statusAndBody(response)).toMatchObject({
      status: outcome.status,
      body: { code: outcome.code },
    });
  }
}

function expectGraphqlOutcome(response: Response, operation: Operation, outcome: Outcome): void {
  const { field } = fieldOf({ operation });
  expect(response.status).toBe(200);
  if (outcome.allowed) {
    expect(response.body).toEqual({ data: { [field]: expect.any(Object) } });
  } else {
    expect(response.body).toMatchObject({
      data: null,
      errors: [{ extensions: { code: outcome.code, status: outcome.status } }],
    });
  }
}

const label = (outcome: Outcome, success: string) =>
  outcome.allowed ? `is allowed (${success})` : `is refused ${outcome.status} ${outcome.code}`;

const restCases = REST_ROUTES.flatMap((route) =>
  CALLERS.map((caller) => {
    const outcome = outcomeOf(MATRIX[route.operation]?.access ?? "public", caller);
    const name = `${route.method} ${route.path} as ${caller} ${label(outcome, String(route.status))}`;
    return { name, route, caller, outcome };
  }),
);

const graphqlCases = (Object.keys(MATRIX) as Operation[]).flatMap((operation) =>
  CALLERS.map((caller) => {
    const outcome = outcomeOf(MATRIX[operation].access, caller);
    const name = `${operation} as ${caller} ${label(outcome, "no errors")}`;
    return { name, operation, caller, outcome };
  }),
);

const holds = <T extends { name: string }>(cases: T[]) =>
  cases.filter((c) => !KNOWN_VIOLATIONS.has(c.name));
const violates = <T extends { name: string }>(cases: T[]) =>
  cases.filter((c) => KNOWN_VIOLATIONS.has(c.name));

beforeAll(async () => {
  const started = await startScenario({
    // The file's accounts sign in once and act for its whole run, which outlasts the default
    // access-token lifetime on a busy machine.
    env: { ACCESS_TOKEN_TTL_SECONDS: String(6 * 3600) },
    users: {
      member: { name: "Shared Member" },
      officer: { role: Role.OFFICER, name: "Shared Officer" },
      other: { name: "Other Account" },
    },
  });
  ({ app, admin, other: otherAccount } = started);
  schema = await buildAppSchema();
  sharedCallers[Role.ADMIN] = admin;
  sharedCallers[Role.MEMBER] = started.member;
  sharedCallers[Role.OFFICER] = started.officer;
  office = await createOffice();
  branch = await buildBranchService(app, admin);
  event = await createAs("/events/create", EVENT);
  post = await createAs("/news-blogs/create", { title: "Matrix news", status: "PUBLISHED" });
  holder = await approvedRecord({ firstName: "Hidden", lastName: "Holder", ...HOLDER_PRIVATE });
  await appoint(office.id, holder.recordId);
  listed = await approvedRecord();
  const chosen = await api()
    .put(`${API_BASE}/members/current/public-profile`)
    .set(bearer(listed.user))
    .send({ listed: true });
  assertStatus(chosen, 200, "setPublicProfile");
  lesson = await createAs<typeof lesson>("/lessons", LESSON);
  question = await createAs<typeof question>("/essay-questions", { prompt: "Why serve?" });
  reviewed = await approvedRecord();
  await withPhoto(reviewed.user);
  payer = await approvedRecord();
  // The /members/current onboarding routes act on the caller's own APPROVED record.
  for (const caller of Object.values(sharedCallers)) await approvedApplicationOf(caller);
});
afterAll(() => app?.close());

describe("the matrix covers the whole API", () => {
  it("has an entry for every REST route and names no operation without one", () => {
    const routed = [...new Set(REST_ROUTES.map((route) => route.operation))].sort();
    expect(Object.keys(MATRIX).sort()).toEqual(routed);
  });

  it("has an entry for every Query and Mutation field of the schema and nothing else", () => {
    const fields = [
      ...Object.keys(schema.getQueryType()!.getFields()).map((name) => `Query.${name}`),
      ...Object.keys(schema.getMutationType()!.getFields()).map((name) => `Mutation.${name}`),
    ].sort();
    expect(Object.keys(MATRIX).sort()).toEqual(fields);
  });

  it("agrees with each resolver's @Authorized decorator", () => {
    const declared = (access: Access) => {
      switch (access) {
        case "public":
        case "cookie":
          return "public";
        case "signed-in":
        case "verified":
          return "signed-in";
        case "admin":
          return [Role.ADMIN];
        case "staff":
          return [Role.OFFICER, Role.ADMIN];
      }
    };
    const fromMatrix = Object.fromEntries(
      (Object.keys(MATRIX) as Operation[]).map((op) => [op, declared(MATRIX[op].access)]),
    );
    const fromDecorators = Object.fromEntries(
      (Object.keys(MATRIX) as Operation[]).map((op) => [op, accessOf(routeOf(op).field)]),
    );
    expect(fromDecorators).toEqual(fromMatrix);
  });

  it("lists every id-taking route a MEMBER may reach for object-level review", () => {
    const reachable = REST_ROUTES.filter(
      (route) =>
        route.path.includes(":") && !["admin", "staff"].includes(MATRIX[route.operation]?.access),
    ).map((route) => route.operation);
    // An alias reaches the same operation: it is reviewed once.
    expect([...new Set(reachable)].sort()).toEqual(Object.keys(OBJECT_LEVEL_REVIEW).sort());
  });
});

async function restCase({ route, caller, outcome }: (typeof restCases)[number]) {
  const expectation = expectationOf(route.operation);
  const user = await callerFor(caller, expectation);
  const response = await callRest(route, user, await expectation.call(user));
  expectRestOutcome(response, route, outcome);
}

async function graphqlCase({ operation, caller, outcome }: (typeof graphqlCases)[number]) {
  const expectation = expectationOf(operation);
  const user = await callerFor(caller, expectation);
  const response = await callGraphql(operation, user, await expectation.call(user));
  expectGraphqlOutcome(response, operation, outcome);
}

describe("REST: each route × caller", () => {
  it.each(holds(restCases))("$name", restCase);
  if (violates(restCases).length > 0) it.failing.each(violates(restCases))("$name", restCase);
});

describe("GraphQL: each root field × caller", () => {
  it.each(holds(graphqlCases))("$name", graphqlCase);
  if (violates(graphqlCases).length > 0) {
    it.failing.each(violates(graphqlCases))("$name", graphqlCase);
  }
});

const routeOf = (operation: Operation): RestRoute => {
  const route = REST_ROUTES.find((candidate) => candidate.operation === operation);
  if (!route) throw new Error(`No REST route for ${operation}`);
  return route;
};

const operationsWith = (...accesses: Access[]) =>
  (Object.keys(MATRIX) as Operation[]).filter((op) => accesses.includes(MATRIX[op].access));

/** The caller's access token with its claims kept but signed with `secret` and `role`. */
function resigned(user: TestUser, secret: string, role: Role): TestUser {
  const claims = jwt.decode(user.token) as jwt.JwtPayload;
  return { ...user, token: jwt.sign({ ...claims, role }, secret, { algorithm: "HS256" }) };
}

describe("register: only an ADMIN token may ask for another role than MEMBER", () => {
  const roleCases = CALLERS.map((caller) => ({
    caller,
    outcome: caller === Role.ADMIN ? ALLOWED : FORBIDDEN,
  }));
  const officerAccount = () => ({
    name: "Would-be Officer",
    email: uniqueEmail("officer"),
    password: TEST_PASSWORD,
    role: Role.OFFICER,
  });

  it.each(roleCases)("REST as $caller: $outcome.status", async ({ caller, outcome }) => {
    const user = await callerFor(caller, MATRIX["Mutation.register"]);
    const route = routeOf("Mutation.register");
    const response = await callRest(route, user, { args: officerAccount() });
    expectRestOutcome(response, route, outcome);
  });

  it.each(roleCases)("GraphQL as $caller: $outcome.code", async ({ caller, outcome }) => {
    const user = await callerFor(caller, MATRIX["Mutation.register"]);
    const response = await callGraphql("Mutation.register", user, { args: officerAccount() });
    expectGraphqlOutcome(response, "Mutation.register", outcome);
  });
});

describe("verified-only operations refuse a signed-in account whose email is not verified", () => {
  const verifiedOnly = operationsWith("verified");

  it.each(verifiedOnly)("REST %s → 403 EMAIL_NOT_VERIFIED", async (operation) => {
    const unverified = await buildUser(app, { verified: false });
    const response = await callRest(
      routeOf(operation),
      unverified,
      await MATRIX[operation].call(unverified),
    );
    expect(statusAndBody(response)).toMatchObject({
      status: 403,
      body: { code: "EMAIL_NOT_VERIFIED" },
    });
  });

  it.each(verifiedOnly)("GraphQL %s → EMAIL_NOT_VERIFIED", async (operation) => {
    const unverified = await buildUser(app, { verified: false });
    const response = await callGraphql(
      operation,
      unverified,
      await MATRIX[operation].call(unverified),
    );
    expect(response.body).toMatchObject({
      data: null,
      errors: [{ extensions: { code: "EMAIL_NOT_VERIFIED", status: 403 } }],
    });
  });
});

describe("cookie operations need the cookie: a bearer token alone is not enough", () => {
  it.each(operationsWith("cookie"))("REST %s with only a bearer → 401", async (operation) => {
    const response = await callRest(routeOf(operation), sharedCallers[Role.MEMBER], { args: {} });
    expectRestOutcome(response, routeOf(operation), UNAUTHENTICATED);
  });

  it.each(operationsWith("cookie"))("GraphQL %s with only a bearer → 401", async (operation) => {
    const response = await callGraphql(operation, sharedCallers[Role.MEMBER], { args: {} });
    expectGraphqlOutcome(response, operation, UNAUTHENTICATED);
  });
});

describe("forged tokens", () => {
  const protectedRoutes = REST_ROUTES.filter((route) =>
    ["signed-in", "verified", "admin"].includes(MATRIX[route.operation]?.access),
  );
  const adminRoutes = REST_ROUTES.filter((route) => MATRIX[route.operation]?.access === "admin");

  it.each(protectedRoutes.map((route) => ({ name: `${route.method} ${route.path}`, route })))(
    "$name refuses an ADMIN token signed with another secret: 401",
    async ({ route }) => {
      const expectation = MATRIX[route.operation];
      const real = (await callerFor(Role.ADMIN, expectation))!;
      // The anonymous case's arguments, which that case shows are refused 401 for the caller
      // alone: an accepted forgery would answer them otherwise, and an ADMIN's would build a
      // whole onboarding for each route.
      const call = await expectation.call(null);
      const forged = resigned(real, "not-the-secret-0123456789-abcdefghijklmnop", Role.ADMIN);
      const response = await callRest(route, forged, call);
      expectRestOutcome(response, route, UNAUTHENTICATED);
    },
  );

  it.each(adminRoutes.map((route) => ({ name: `${route.method} ${route.path}`, route })))(
    "$name reads the role from the account, not the token: a MEMBER claiming ADMIN gets 403",
    async ({ route }) => {
      const expectation = MATRIX[route.operation];
      const real = (await callerFor(Role.MEMBER, expectation))!;
      const call = await expectation.call(real);
      const response = await callRest(route, resigned(real, TEST_JWT_SECRET, Role.ADMIN), call);
      expectRestOutcome(response, route, FORBIDDEN);
    },
  );
});

describe("object-level: a MEMBER sees and changes only their own data", () => {
  let alice: { user: TestUser; recordId: string };
  let bob: { user: TestUser; recordId: string };

  beforeAll(async () => {
    alice = await pendingRecord({ firstName: "Alice", lastName: "Reyes" });
    bob = await pendingRecord({ firstName: "Bob", lastName: "Cruz", ...HOLDER_PRIVATE });
  });

  const myRecords = async (user: TestUser, query: Record<string, string> = {}) => {
    const response = await api().get(`${API_BASE}/members/me`).set(bearer(user)).query(query);
    expect(response.status).toBe(200);
    return response.body.data as {
      id: string;
      userId: string;
      status: string;
      isActive: boolean;
    }[];
  };

  it("GET /members/me shows each member only their own application", async () => {
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ]) {
      const records = await myRecords(me.user, { userId: other.user.id });
      expect(records.map((record) => record.id)).toEqual([me.recordId]);
      expect(records.every((record) => record.userId === me.user.id)).toBe(true);
    }
  });

  it("myMemberships on /graphql shows each member only their own application", async () => {
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ]) {
      const response = await app.graphql(MyMembershipsDocument, {}, me.user.token);
      expect(response.errors).toBeUndefined();
      expect(response.data?.myMemberships.data.map(({ id, userId }) => ({ id, userId }))).toEqual([
        { id: me.recordId, userId: me.user.id },
      ]);
      expect(JSON.stringify(response)).not.toContain(other.user.id);
    }
  });

  it("GET /users/current and currentUser answer the caller's own account", async () => {
    for (const [me, other] of [
      [alice, bob],
      [bob, alice],
    ]) {
      const rest = await api()
        .get(`${API_BASE}/users/current`)
        .set(bearer(me.user))
        .query({ userId: other.user.id, id: other.user.id });
      expect(statusAndBody(rest)).toMatchObject({
        status: 200,
        body: { user: { id: me.user.id, email: me.user.email } },
      });
      const graphql = await app.graphql(CurrentUserDocument, {}, me.user.token);
      expect(graphql.data?.currentUser.user).toMatchObject({
        id: me.user.id,
        email: me.user.email,
      });
    }
  });

  it("PUT /users/current ignores another account's id in the body and changes only the caller", async () => {
    const response = await api()
      .put(`${API_BASE}/users/current`)
      .set(bearer(alice.user))
      .send({ id: bob.user.id, userId: bob.user.id, name: "Alice Renamed" });
    expect(statusAndBody(response)).toMatchObject({
      status: 200,
      body: { user: { id: alice.user.id, name: "Alice Renamed" } },
    });
    const bobNow = await api().get(`${API_BASE}/users/current`).set(bearer(bob.user));
    expect(bobNow.body.user).toMatchObject({ id: bob.user.id, name: bob.user.name });
  });

  it("refuses a MEMBER every admin route aimed at another member, leaving the data as it was", async () => {
    const attempts = [
      api().get(`${API_BASE}/users/${bob.user.id}`),
      api().delete(`${API_BASE}/users/${bob.user.id}`),
      api().patch(`${API_BASE}/members/${bob.recordId}/status`).send({ status: "REJECTED" }),
      api().patch(`${API_BASE}/members/${bob.recordId}/archive`),
      api().patch(`${API_BASE}/members/${bob.recordId}/retrieve`),
    ];
    for (const attempt of attempts) {
      const response = await attempt.set(bearer(alice.user));
      expect(statusAndBody(response)).toMatchObject({ status: 403, body: { code: "FORBIDDEN" } });
    }
    const bobRecords = await myRecords(bob.user);
    expect(bobRecords).toEqual([
      expect.objectContaining({ id: bob.recordId, status: "PENDING", isActive: true }),
    ]);
  });

  it("GET /members/{id}/offices of another member shows only ids and names, no personal data", async () => {
    const response = await api()
      .get(`${API_BASE}/members/${holder.recordId}/offices`)
      .set(bearer(alice.user));
    expect(response.status).toBe(200);
    const appointments = response.body.data as Record<string, Record<string, unknown>>[];
    expect(appointments.length).toBeGreaterThan(0);
    for (const appointment of appointments) {
      expect(Object.keys(appointment.member).sort()).toEqual(["id", "name"]);
      expect(appointment.member).toEqual({ id: holder.recordId, name: "Hidden Holder" });
      expect(Object.keys(appointment.office).sort()).toEqual(["id", "level", "name"]);
    }
    expectNoPersonalDataOfHolder(response.text);
  });

  it("GET /offices/{id}/holders shows the holders' ids and names only", async () => {
    const response = await api()
      .get(`${API_BASE}/offices/${office.id}/holders`)
      .set(bearer(alice.user));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({ member: { id: holder.recordId, name: "Hidden Holder" } }),
    ]);
    expectNoPersonalDataOfHolder(response.text);
  });

  it("the /members/current onboarding routes act on the caller's record and files only", async () => {
    const [carol, dave] = [await approvedRecord(), await approvedRecord()];
    const daveFile = await uploadedPhoto(dave.user);
    const read = await api()
      .get(`${API_BASE}/members/current/requirements`)
      .set(bearer(carol.user))
      .query({ memberId: dave.recordId, id: dave.recordId });
    expect(statusAndBody(read)).toMatchObject({
      status: 200,
      body: { data: { memberId: carol.recordId } },
    });
    const claimed = await api()
      .put(`${API_BASE}/members/current/requirements`)
      .set(bearer(carol.user))
      .send({ attachments: [{ type: "PHOTO_2X2", fileId: daveFile }] });
    expect(statusAndBody(claimed)).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_ERROR", errors: [{ path: "attachments.0.fileId" }] },
    });
    const after = await api()
      .get(`${API_BASE}/members/current/requirements`)
      .set(bearer(carol.user));
    expect(after.body.data.requirements).toEqual([]);
    expect(after.text).not.toContain(daveFile);
  });

  it("offers nothing but id and name of a holder through the GraphQL schema", () => {
    const type = schema.getType("OfficeHolderMember");
    expect(isObjectType(type) && Object.keys(type.getFields()).sort()).toEqual(["id", "name"]);
  });
});

function expectNoPersonalDataOfHolder(text: string): void {
  for (const secret of [holder.user.email, holder.user.id, ...Object.values(HOLDER_PRIVATE)]) {
    expect(text).not.toContain(secret);
  }
}
