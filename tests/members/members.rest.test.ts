import type { Response } from "supertest";
import { MemberStatus } from "../../src/modules/members/member.enums";
import { UNKNOWN_ID, UUID_V7 } from "../support/expectations";
import { bearer, buildBranchService, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const BASE = "/api/v1/members";
const KIB = 1024;

let app: TestApp;
let admin: TestUser;
let member: TestUser;
let chaplaincy: { id: string; title: string };
let disasterRelief: { id: string; title: string };

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
  chaplaincy = await buildBranchService(app, admin, { title: "Military Chaplaincy" });
  disasterRelief = await buildBranchService(app, admin, { title: "Disaster Relief Ministry" });
});
afterAll(() => app?.close());

/** A complete, valid application as a Filipino applicant would fill it in. */
function applicationBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: "Juan",
    lastName: "Dela Cruz",
    mobilePhoneNumber: "09171234567",
    homeAddress: "123 Rizal Street",
    civilStatus: "MARRIED",
    gender: "MALE",
    nationality: "Filipino",
    dateOfBirth: "1985-06-12T00:00:00.000Z",
    region: "Region IV-A (CALABARZON)",
    province: "Laguna",
    municipalityCity: "Santa Rosa",
    barangay: "Balibago",
    emergencyContactName: "Maria Dela Cruz",
    emergencyContactMobile: "09181234567",
    recentIdPhotoUrl: "https://cdn.example.org/photos/juan.jpg",
    churchAffiliation: "Jesus Is Lord Church",
    churchAddress: "Bocaue, Bulacan",
    currentPositionRole: "Pastor",
    bloodType: "O+",
    sssNumber: "34-1234567-8",
    tinNumber: "123-456-789-000",
    elementarySchool: "Santa Rosa Elementary School",
    tertiaryCollege: "Polytechnic University of the Philippines",
    preferredBranchIds: [chaplaincy.id, disasterRelief.id],
    ministerialExperiences: [
      { roleDescription: "Youth pastor", yearsApprox: "5" },
      { roleDescription: "Hospital chaplain volunteer", yearsApprox: "2" },
    ],
    characterReferences: [
      {
        name: "Rev. Pedro Santos",
        positionRelationship: "Senior pastor",
        contactNumber: "09191234567",
      },
      { positionRelationship: "Barangay captain", contactNumber: "09201234567" },
    ],
    signature: { type: "DRAWN", signatureData: "data:image/png;base64,iVBORw0KGgo=" },
    ...overrides,
  };
}

const api = () => app.http();
const countMembers = () => rawDb(app).members.estimatedDocumentCount();
const pathsOf = (response: Response) =>
  (response.body.errors as { path: string }[]).map((error) => error.path);

function apply(user: TestUser | null, body: Record<string, unknown> = applicationBody()) {
  const request = api().post(`${BASE}/apply`);
  if (user) request.set(bearer(user));
  return request.send(body);
}

interface Applicant {
  user: TestUser;
  record: { id: string };
}

/** A fresh verified account with a PENDING application. */
async function newApplicant(body: Record<string, unknown> = applicationBody()): Promise<Applicant> {
  const user = await buildUser(app, { name: "Applicant" });
  const response = await apply(user, body);
  if (response.status !== 201) {
    throw new Error(`apply: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { user, record: response.body.data };
}

const setStatus = (id: string, body: Record<string, unknown>, user: TestUser | null = admin) => {
  const request = api().patch(`${BASE}/${id}/status`);
  if (user) request.set(bearer(user));
  return request.send(body);
};
const archive = (id: string, user: TestUser = admin) =>
  api().patch(`${BASE}/${id}/archive`).set(bearer(user));
const retrieve = (id: string, user: TestUser = admin) =>
  api().patch(`${BASE}/${id}/retrieve`).set(bearer(user));

function expectValidation(response: Response, path: string): void {
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ code: "VALIDATION_ERROR", message: expect.any(String) });
  expect(pathsOf(response)).toContain(path);
}

describe("POST /members/apply", () => {
  it("creates a PENDING, active application and answers 201 with the full record", async () => {
    const applicant = await buildUser(app, { name: "Juan Dela Cruz" });
    const response = await apply(applicant);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: "CREATED", message: expect.any(String) });
    const data = response.body.data;
    expect(data.id).toMatch(UUID_V7);
    expect(data).toMatchObject({
      userId: applicant.id,
      status: "PENDING",
      isActive: true,
      archivedAt: null,
      firstName: "Juan",
      lastName: "Dela Cruz",
      civilStatus: "MARRIED",
      gender: "MALE",
      dateOfBirth: "1985-06-12T00:00:00.000Z",
      barangay: "Balibago",
      recentIdPhotoUrl: "https://cdn.example.org/photos/juan.jpg",
      bloodType: "O+",
      height: null,
      postGraduateStudies: null,
      user: { name: "Juan Dela Cruz", email: applicant.email, role: "MEMBER" },
      preferredBranches: [
        { id: chaplaincy.id, title: "Military Chaplaincy" },
        { id: disasterRelief.id, title: "Disaster Relief Ministry" },
      ],
      signature: { type: "DRAWN", signatureData: "data:image/png;base64,iVBORw0KGgo=" },
    });
    expect(data.ministerialExperiences).toEqual([
      { roleDescription: "Youth pastor", yearsApprox: "5", order: 0, memberId: data.id },
      {
        roleDescription: "Hospital chaplain volunteer",
        yearsApprox: "2",
        order: 1,
        memberId: data.id,
      },
    ]);
    expect(data.characterReferences).toEqual([
      {
        name: "Rev. Pedro Santos",
        positionRelationship: "Senior pastor",
        contactNumber: "09191234567",
      },
      { name: null, positionRelationship: "Barangay captain", contactNumber: "09201234567" },
    ]);
    expect(data.statusHistory).toEqual([
      { from: null, to: "PENDING", by: applicant.id, at: expect.any(String), reason: null },
    ]);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(data).not.toHaveProperty("openKey");
    expect(data).not.toHaveProperty("searchName");
    expect(await rawDb(app).members.countDocuments({ userId: applicant.id })).toBe(1);
  });

  it("ignores unknown and server-owned fields in the body", async () => {
    const applicant = await buildUser(app);
    const response = await apply(
      applicant,
      applicationBody({
        id: UNKNOWN_ID,
        _id: UNKNOWN_ID,
        status: "APPROVED",
        isActive: false,
        userId: member.id,
        openKey: "open:someone-else",
        isAdmin: true,
      }),
    );
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data.id).not.toBe(UNKNOWN_ID);
    expect(data).toMatchObject({ status: "PENDING", isActive: true, userId: applicant.id });
    const stored = await rawDb(app).members.findById(data.id).lean();
    expect(stored).toMatchObject({ status: "PENDING", userId: applicant.id, archivedAt: null });
    expect(stored!.openKey).toBe(`open:${applicant.id}`);
    expect(stored).not.toHaveProperty("isAdmin");
    expect(stored).not.toHaveProperty("isActive");
    expect(await rawDb(app).members.countDocuments({ userId: member.id })).toBe(0);
  });

  it("names every required field of an empty application and stores nothing", async () => {
    const applicant = await buildUser(app);
    const before = await countMembers();
    const response = await apply(applicant, {});
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    const paths = pathsOf(response);
    for (const field of [
      "firstName",
      "lastName",
      "mobilePhoneNumber",
      "homeAddress",
      "civilStatus",
      "gender",
      "nationality",
      "dateOfBirth",
      "region",
      "province",
      "municipalityCity",
      "barangay",
      "emergencyContactName",
      "emergencyContactMobile",
      "churchAffiliation",
      "churchAddress",
      "currentPositionRole",
    ]) {
      expect(paths).toContain(field);
    }
    expect(await countMembers()).toBe(before);
  });

  it.each([
    ["an unknown civil status", { civilStatus: "COMPLICATED" }, "civilStatus"],
    ["an unknown gender", { gender: "OTHER" }, "gender"],
    ["a date of birth in the future", { dateOfBirth: "2999-01-01T00:00:00.000Z" }, "dateOfBirth"],
    ["an ftp photo URL", { recentIdPhotoUrl: "ftp://x" }, "recentIdPhotoUrl"],
    ["a photo URL that is not a URL", { recentIdPhotoUrl: "not a url" }, "recentIdPhotoUrl"],
    ["a blank last name", { lastName: "   " }, "lastName"],
    [
      "a ministerial experience without a role",
      {
        ministerialExperiences: [
          { roleDescription: "Elder", yearsApprox: "1" },
          { yearsApprox: "3" },
        ],
      },
      "ministerialExperiences.1.roleDescription",
    ],
  ])("refuses %s (400 on the field) and stores nothing", async (_label, override, path) => {
    const applicant = await buildUser(app);
    const before = await countMembers();
    const response = await apply(applicant, applicationBody(override));
    expectValidation(response, path);
    expect(await countMembers()).toBe(before);
  });

  it("refuses a preferred branch id that names no branch, by its position", async () => {
    const applicant = await buildUser(app);
    const before = await countMembers();
    const response = await apply(
      applicant,
      applicationBody({ preferredBranchIds: [chaplaincy.id, UNKNOWN_ID] }),
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(pathsOf(response)).toEqual(["preferredBranchIds.1"]);
    expect(await countMembers()).toBe(before);
  });

  it("refuses a signature over 256 KiB and accepts one of exactly 256 KiB", async () => {
    const applicant = await buildUser(app);
    const before = await countMembers();
    const tooBig = await apply(
      applicant,
      applicationBody({ signature: { type: "DRAWN", signatureData: "a".repeat(256 * KIB + 1) } }),
    );
    expectValidation(tooBig, "signature.signatureData");
    expect(await countMembers()).toBe(before);

    const atLimit = await apply(
      applicant,
      applicationBody({ signature: { type: "DRAWN", signatureData: "a".repeat(256 * KIB) } }),
    );
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.data.signature.signatureData).toHaveLength(256 * KIB);
  });

  it("refuses an account whose email is not verified (403 EMAIL_NOT_VERIFIED)", async () => {
    const unverified = await buildUser(app, { verified: false });
    const before = await countMembers();
    const response = await apply(unverified);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      code: "EMAIL_NOT_VERIFIED",
      message: expect.any(String),
    });
    expect(await countMembers()).toBe(before);
  });

  it("refuses an anonymous caller (401)", async () => {
    const before = await countMembers();
    const response = await apply(null);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
    expect(await countMembers()).toBe(before);
  });

  it("refuses a second application while the first is PENDING (409)", async () => {
    const { user } = await newApplicant();
    const before = await countMembers();
    const response = await apply(user);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
    expect(await countMembers()).toBe(before);
  });

  it("refuses a second application once the first is APPROVED (409)", async () => {
    const { user, record } = await newApplicant();
    expect((await setStatus(record.id, { status: "APPROVED" })).status).toBe(200);
    const before = await countMembers();
    const response = await apply(user);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("CONFLICT");
    expect(await countMembers()).toBe(before);
  });

  it("lets a REJECTED applicant apply again as a new record", async () => {
    const { user, record } = await newApplicant();
    expect((await setStatus(record.id, { status: "REJECTED" })).status).toBe(200);
    const response = await apply(user, applicationBody({ currentPositionRole: "Deacon" }));
    expect(response.status).toBe(201);
    expect(response.body.data.id).not.toBe(record.id);
    expect(response.body.data.status).toBe("PENDING");
    expect(await rawDb(app).members.countDocuments({ userId: user.id })).toBe(2);
  });
});

describe("PATCH /members/{id}/status", () => {
  it("approves: 200, history entry with the admin and reason, and an approval mail", async () => {
    const { user, record } = await newApplicant();
    const mailsBefore = app.mail.messages.length;
    const response = await setStatus(record.id, { status: "APPROVED", reason: "Complete papers" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect(response.body.data.status).toBe("APPROVED");
    expect(response.body.data.statusHistory).toEqual([
      { from: null, to: "PENDING", by: user.id, at: expect.any(String), reason: null },
      {
        from: "PENDING",
        to: "APPROVED",
        by: admin.id,
        at: expect.any(String),
        reason: "Complete papers",
      },
    ]);
    const at = response.body.data.statusHistory[1].at as string;
    expect(new Date(at).toISOString()).toBe(at);
    const mail = await app.mail.waitFor(user.email, { subject: /approved/i, after: mailsBefore });
    expect(mail.subject).not.toMatch(/not approved/i);
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.status).toBe("APPROVED");
  });

  it("rejects: the mail says not approved and carries the reason", async () => {
    const { user, record } = await newApplicant();
    const mailsBefore = app.mail.messages.length;
    const response = await setStatus(record.id, {
      status: "REJECTED",
      reason: "Missing endorsement letter",
    });
    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe("REJECTED");
    expect(response.body.data.statusHistory[1]).toMatchObject({
      from: "PENDING",
      to: "REJECTED",
      by: admin.id,
      reason: "Missing endorsement letter",
    });
    const mail = await app.mail.waitFor(user.email, {
      subject: /not approved/i,
      after: mailsBefore,
    });
    expect(mail.text).toContain("Missing endorsement letter");
  });

  it("refuses an unknown status (400 on status) and changes nothing", async () => {
    const { record } = await newApplicant();
    const response = await setStatus(record.id, { status: "MAYBE" });
    expectValidation(response, "status");
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.status).toBe("PENDING");
    expect(stored!.statusHistory).toHaveLength(1);
  });

  it("refuses the status the record already has (409)", async () => {
    const { record } = await newApplicant();
    const response = await setStatus(record.id, { status: "PENDING" });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("CONFLICT");
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.statusHistory).toHaveLength(1);
  });

  it("refuses to change an archived record (409)", async () => {
    const { record } = await newApplicant();
    expect((await archive(record.id)).status).toBe(200);
    const response = await setStatus(record.id, { status: "APPROVED" });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("CONFLICT");
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.status).toBe("PENDING");
  });

  it("answers 404 for an unknown id and 400 for an id that is not a UUID", async () => {
    const missing = await setStatus(UNKNOWN_ID, { status: "APPROVED" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    const malformed = await setStatus("not-a-uuid", { status: "APPROVED" });
    expectValidation(malformed, "id");
  });

  it("is for administrators: 401 anonymous, 403 for a MEMBER, record unchanged", async () => {
    const { record } = await newApplicant();
    const anonymous = await setStatus(record.id, { status: "APPROVED" }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHENTICATED");
    const forbidden = await setStatus(record.id, { status: "APPROVED" }, member);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("FORBIDDEN");
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.status).toBe("PENDING");
  });
});

describe("GET /members and GET /members/pending", () => {
  it("answers the paged envelope, newest first, counting the non-archived records", async () => {
    const older = await newApplicant();
    const newer = await newApplicant();
    const response = await api().get(BASE).query({ limit: 100 }).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    const total = await rawDb(app).members.countDocuments({ archivedAt: null });
    expect(response.body.pagination).toEqual({
      currentPage: 1,
      totalPages: Math.ceil(total / 100),
      totalCount: total,
      limit: 100,
      hasNextPage: total > 100,
      hasPreviousPage: false,
    });
    const ids = (response.body.data as { id: string }[]).map((record) => record.id);
    expect(ids.indexOf(newer.record.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(newer.record.id)).toBeLessThan(ids.indexOf(older.record.id));
    const times = (response.body.data as { createdAt: string }[]).map((r) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("shows each record of a page with its own applicant's account", async () => {
    const applicants = [];
    for (const name of ["Rosa Villanueva", "Pedro Alcantara", "Lorna Dizon"]) {
      const user = await buildUser(app, { name });
      const response = await apply(user);
      expect(response.status).toBe(201);
      applicants.push({ user, id: response.body.data.id as string });
    }
    const response = await api().get(BASE).query({ limit: 100 }).set(bearer(admin));
    expect(response.status).toBe(200);
    const shown = new Map(
      (response.body.data as { id: string; userId: string; user: unknown }[]).map((record) => [
        record.id,
        { userId: record.userId, user: record.user },
      ]),
    );
    for (const { user, id } of applicants) {
      expect(shown.get(id)).toEqual({
        userId: user.id,
        user: { name: user.name, email: user.email, role: "MEMBER" },
      });
    }
  });

  it("pages by page and limit, the limit defaulting to 10", async () => {
    const response = await api().get(BASE).query({ page: 2, limit: 1 }).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(1);
    expect(response.body.pagination).toMatchObject({
      currentPage: 2,
      limit: 1,
      hasPreviousPage: true,
    });
    const defaults = await api().get(BASE).set(bearer(admin));
    expect(defaults.body.pagination).toMatchObject({ currentPage: 1, limit: 10 });
  });

  it("filters by status", async () => {
    const { record } = await newApplicant();
    expect((await setStatus(record.id, { status: "REJECTED" })).status).toBe(200);
    const response = await api()
      .get(BASE)
      .query({ status: "REJECTED", limit: 100 })
      .set(bearer(admin));
    expect(response.status).toBe(200);
    const data = response.body.data as { id: string; status: string }[];
    expect(data.map((r) => r.id)).toContain(record.id);
    expect(data.every((r) => r.status === "REJECTED")).toBe(true);
    expect(response.body.pagination.totalCount).toBe(
      await rawDb(app).members.countDocuments({
        status: MemberStatus.REJECTED,
        archivedAt: null,
      }),
    );
  });

  it("leaves archived records out unless includeArchived=true", async () => {
    const { record } = await newApplicant();
    expect((await archive(record.id)).status).toBe(200);
    const byDefault = await api().get(BASE).query({ limit: 100 }).set(bearer(admin));
    expect(byDefault.status).toBe(200);
    expect((byDefault.body.data as { id: string }[]).map((r) => r.id)).not.toContain(record.id);
    const included = await api()
      .get(BASE)
      .query({ limit: 100, includeArchived: true })
      .set(bearer(admin));
    expect(included.status).toBe(200);
    const found = (included.body.data as { id: string; isActive: boolean }[]).find(
      (r) => r.id === record.id,
    );
    expect(found).toMatchObject({ isActive: false });
  });

  it("GET /members/pending lists only PENDING records", async () => {
    const pending = await newApplicant();
    const approved = await newApplicant();
    expect((await setStatus(approved.record.id, { status: "APPROVED" })).status).toBe(200);
    const response = await api().get(`${BASE}/pending`).query({ limit: 100 }).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", pagination: expect.any(Object) });
    const data = response.body.data as { id: string; status: string }[];
    expect(data.map((r) => r.id)).toContain(pending.record.id);
    expect(data.map((r) => r.id)).not.toContain(approved.record.id);
    expect(data.every((r) => r.status === "PENDING")).toBe(true);
  });

  describe("search", () => {
    let target: Applicant;
    let control: Applicant;

    beforeAll(async () => {
      target = await newApplicant(
        applicationBody({
          firstName: "Rosalinda",
          lastName: "Dimaculangan",
          mobilePhoneNumber: "09987654321",
        }),
      );
      control = await newApplicant(
        applicationBody({
          firstName: "Josefina",
          lastName: "Macaraeg",
          mobilePhoneNumber: "09175550000",
        }),
      );
    });

    async function searchIds(search: string, path = BASE): Promise<string[]> {
      const response = await api().get(path).query({ search, limit: 100 }).set(bearer(admin));
      expect(response.status).toBe(200);
      return (response.body.data as { id: string }[]).map((r) => r.id);
    }

    it.each([
      ["first name, any case", "ROSALINDA"],
      ["last name, any case", "dimaCULANGAN"],
      ['"first last"', "rosalinda dimaculangan"],
      ["the mobile number", "09987654321"],
      ["part of the mobile number", "87654321"],
    ])("matches by %s", async (_label, search) => {
      const ids = await searchIds(search);
      expect(ids).toContain(target.record.id);
      expect(ids).not.toContain(control.record.id);
    });

    it("matches by the applicant's email, case-insensitively", async () => {
      const ids = await searchIds(target.user.email.toUpperCase());
      expect(ids).toEqual([target.record.id]);
      expect(ids).not.toContain(control.record.id);
    });

    it("applies to GET /members/pending as well", async () => {
      const ids = await searchIds("Macaraeg", `${BASE}/pending`);
      expect(ids).toEqual([control.record.id]);
    });

    it("matches nothing for an unrelated term", async () => {
      expect(await searchIds("Zzyzx-not-a-name")).toEqual([]);
    });
  });

  it("answers 200 with empty data for a page past the end", async () => {
    const response = await api().get(BASE).query({ page: 1000 }).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination).toMatchObject({ currentPage: 1000, hasNextPage: false });
  });

  it.each([
    ["limit=101", { limit: 101 }, "limit"],
    ["limit=0", { limit: 0 }, "limit"],
    ["page=0", { page: 0 }, "page"],
    ["a non-numeric page", { page: "two" }, "page"],
    ["an unknown status", { status: "MAYBE" }, "status"],
  ])("refuses %s (400 VALIDATION_ERROR)", async (_label, query, path) => {
    const response = await api().get(BASE).query(query).set(bearer(admin));
    expectValidation(response, path);
  });

  it.each([BASE, `${BASE}/pending`])(
    "%s is for administrators: 401 anonymous, 403 for a MEMBER",
    async (path) => {
      const anonymous = await api().get(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.code).toBe("UNAUTHENTICATED");
      const forbidden = await api().get(path).set(bearer(member));
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe("FORBIDDEN");
    },
  );
});

describe("PATCH /members/{id}/archive and /retrieve", () => {
  it("archives (isActive false), refuses a second archive, and retrieves (isActive true)", async () => {
    const { record } = await newApplicant();
    const archived = await archive(record.id);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect(archived.body.data).toMatchObject({ id: record.id, isActive: false });
    expect(archived.body.data.archivedAt).toEqual(expect.any(String));

    const again = await archive(record.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");

    const retrieved = await retrieve(record.id);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.data).toMatchObject({ id: record.id, isActive: true, archivedAt: null });
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.archivedAt).toBeNull();
  });

  it("refuses to retrieve a record that is not archived (409)", async () => {
    const { record } = await newApplicant();
    const response = await retrieve(record.id);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("CONFLICT");
  });

  it("lets the applicant apply again once the open application is archived", async () => {
    const { user, record } = await newApplicant();
    expect((await archive(record.id)).status).toBe(200);
    expect((await apply(user)).status).toBe(201);
    // Bringing the old one back would make two open applications.
    const response = await retrieve(record.id);
    expect(response.status).toBe(409);
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.archivedAt).not.toBeNull();
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    for (const action of [archive, retrieve]) {
      const missing = await action(UNKNOWN_ID);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe("NOT_FOUND");
      expectValidation(await action("not-a-uuid"), "id");
    }
  });

  it("is for administrators: 403 for a MEMBER, 401 anonymous, record unchanged", async () => {
    const { record } = await newApplicant();
    const forbidden = await archive(record.id, member);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("FORBIDDEN");
    expect((await api().patch(`${BASE}/${record.id}/archive`)).status).toBe(401);
    expect((await archive(record.id)).status).toBe(200);
    const forbiddenRetrieve = await retrieve(record.id, member);
    expect(forbiddenRetrieve.status).toBe(403);
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored!.archivedAt).not.toBeNull();
  });
});

describe("GET /members/me", () => {
  it("lists only the caller's own records, newest first", async () => {
    const { user, record: first } = await newApplicant();
    await newApplicant(); // someone else's record
    expect((await setStatus(first.id, { status: "REJECTED", reason: "Incomplete" })).status).toBe(
      200,
    );
    const second = await apply(user, applicationBody({ currentPositionRole: "Elder" }));
    expect(second.status).toBe(201);

    const response = await api().get(`${BASE}/me`).set(bearer(user));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect((response.body.data as { id: string }[]).map((r) => r.id)).toEqual([
      second.body.data.id,
      first.id,
    ]);
    expect(response.body.data.map((r: { status: string }) => r.status)).toEqual([
      "PENDING",
      "REJECTED",
    ]);
    expect(response.body.pagination).toMatchObject({ currentPage: 1, totalCount: 2 });
  });

  it("is empty for a caller who never applied", async () => {
    const response = await api().get(`${BASE}/me`).set(bearer(member));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination.totalCount).toBe(0);
  });

  it("refuses an anonymous caller (401)", async () => {
    const response = await api().get(`${BASE}/me`);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  });
});

describe("DELETE /branch-service/{id} and member records", () => {
  it("refuses (409) while a member record names the branch, and deletes an unnamed one (204)", async () => {
    const named = await buildBranchService(app, admin);
    const unnamed = await buildBranchService(app, admin);
    await newApplicant(applicationBody({ preferredBranchIds: [named.id] }));

    const refused = await api().delete(`/api/v1/branch-service/${named.id}`).set(bearer(admin));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("CONFLICT");
    expect(await rawDb(app).branchServices.exists({ _id: named.id })).not.toBeNull();

    const deleted = await api().delete(`/api/v1/branch-service/${unnamed.id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await rawDb(app).branchServices.exists({ _id: unnamed.id })).toBeNull();
  });
});

describe("DELETE /users/current and member records", () => {
  it("removes the departing applicant's member records and nobody else's", async () => {
    const { user, record } = await newApplicant();
    expect((await setStatus(record.id, { status: "REJECTED" })).status).toBe(200);
    expect((await apply(user)).status).toBe(201);
    const other = await newApplicant();
    expect(await rawDb(app).members.countDocuments({ userId: user.id })).toBe(2);

    const response = await api().delete("/api/v1/users/current").set(bearer(user));
    expect(response.status).toBe(204);
    expect(await rawDb(app).members.countDocuments({ userId: user.id })).toBe(0);
    expect(await rawDb(app).members.exists({ _id: other.record.id })).not.toBeNull();
  });
});
