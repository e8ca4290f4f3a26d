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
let branch: { id: string };
let event: { id: string };
let post: { id: string };
const EVENT = { name: "Matrix event", category: "OTHER", type: "ONSITE", startsAt: "2027-01-01" };
/** An APPROVED member record holding `office`, with personal data nobody else should see. */
let holder: { user: TestUser; recordId: string };

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
async function createAs(path: string, body: object): Promise<{ id: string }> {
  const response = await api().post(`${API_BASE}${path}`).set(bearer(admin)).send(body);
  assertStatus(response, 201, `POST ${path}`);
  return response.body.data as { id: string };
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

/** Makes `interviewer` an interviewer on every day and slot. */
async function offerInterviews(interviewer: TestUser): Promise<void> {
  const response = await api()
    .put(`${API_BASE}/interviewers/${interviewer.id}`)
    .set(bearer(admin))
    .send({
      active: true,
      days: ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"],
      timeSlots: ["08:00 AM", "09:00 AM", "10:00 AM", "11:00 AM", "01:00 PM", "02:00 PM"],
    });
  assertStatus(response, 200, "setInterviewer");
}

/** A booking's arguments for `user`, whose record is then approved, with `interviewer`'s next free slot. */
async function bookingFor(user: TestUser, interviewer: TestUser) {
  await offerInterviews(interviewer);
  const record = await applyAs(app, user);
  const approve = await api()
    .patch(`${API_BASE}/members/${record.id}/status`)
    .set(bearer(admin))
    .send({ status: "APPROVED" });
  assertStatus(approve, 200, "approve");
  const listed = await api().get(`${API_BASE}/interviewers`).set(bearer(user));
  assertStatus(listed, 200, "interviewers");
  const offers = listed.body.data as {
    id: string;
    nextFree: { date: string; timeSlot: string }[];
  }[];
  const [slot] = offers.find((offer) => offer.id === interviewer.id)!.nextFree;
  const day = new Date(`${slot.date}T00:00:00Z`).toLocaleDateString("en-US", {
    weekday: "long",
    timeZone: "UTC",
  });
  const body = { interviewerId: interviewer.id, day: day.toUpperCase(), timeSlot: slot.timeSlot };
  return { memberId: record.id, body };
}

/** `user`'s record approved, with a 2x2 photo and a verified payment: ready for its ID card. */
async function readyForIdCard(user: TestUser): Promise<void> {
  await bookingFor(user, sharedCallers[Role.OFFICER]);
  const photo = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
  const uploaded = await api()
    .post(`${API_BASE}/files`)
    .set(bearer(user))
    .field("purpose", "REQUIREMENT")
    .attach("file", photo, { filename: "photo.jpg", contentType: "image/jpeg" });
  assertStatus(uploaded, 201, "upload");
  const photoId = (uploaded.body as { data: { id: string } }).data.id;
  const saved = await api()
    .put(`${API_BASE}/members/current/requirements`)
    .set(bearer(user))
    .send({ attachments: [{ type: "PHOTO_2X2", fileId: photoId }] });
  assertStatus(saved, 200, "saveCurrentRequirements");
  const paid = await api()
    .put(`${API_BASE}/members/current/payment-checkout`)
    .set(bearer(user))
    .send({ paymentMethod: "CASH" });
  assertStatus(paid, 200, "savePayment");
  const current = await api().get(`${API_BASE}/members/current/requirements`).set(bearer(user));
  const memberId = (current.body as { data: { memberId: string } }).data.memberId;
  const verified = await api()
    .patch(`${API_BASE}/members/${memberId}/payment`)
    .set(bearer(admin))
    .send({ status: "VERIFIED" });
  assertStatus(verified, 200, "decidePayment");
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
  "Mutation.setInterviewer": {
    access: "admin",
    call: () =>
      args({
        userId: sharedCallers[Role.OFFICER].id,
        active: true,
        days: ["SATURDAY"],
        timeSlots: ["09:00 AM"],
      }),
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
};

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
    "an APPROVED member's public credential: id, full name, status, approval date, office titles, uniqueId, type and badge; photo, region to city and branches only as the member chose",
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
    if (typeof value !== "string") throw new Error(`${route.path}: no value for :${name}`);
    delete remaining[name];
    return encodeURIComponent(value);
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
});
afterAll(() => app.close());

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
      const call = await expectation.call(real);
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
      const response = await api()
        .post("/graphql")
        .set(bearer(me.user))
        .send({ query: "{ myMemberships { data { id userId } } }" });
      expect(response.body).toEqual({
        data: { myMemberships: { data: [{ id: me.recordId, userId: me.user.id }] } },
      });
      expect(JSON.stringify(response.body)).not.toContain(other.user.id);
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
      const graphql = await api()
        .post("/graphql")
        .set(bearer(me.user))
        .send({ query: "{ currentUser { user { id email } } }" });
      expect(graphql.body).toEqual({
        data: { currentUser: { user: { id: me.user.id, email: me.user.email } } },
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
