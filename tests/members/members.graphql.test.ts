import { randomBytes } from "node:crypto";
import {
  ApplyForMembershipDocument,
  ArchiveMemberDocument,
  MembersDocument,
  MyMembershipsDocument,
  PendingMembersDocument,
  RetrieveMemberDocument,
  UpdateMemberStatusDocument,
  type ApplyForMembershipMutationVariables,
  type MemberFieldsFragment,
} from "../graphql/generated";
import { UUID_V7 } from "../support/expectations";
import { buildBranchService, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

/** A complete, valid application; `firstName`/`lastName` made unique for searching. */
function application(
  overrides: Partial<ApplyForMembershipMutationVariables> = {},
): ApplyForMembershipMutationVariables {
  return {
    firstName: "Maria",
    lastName: `Santos${randomBytes(3).toString("hex")}`,
    mobilePhoneNumber: "+639171234567",
    homeAddress: "12 Rizal Street",
    civilStatus: "SINGLE",
    gender: "FEMALE",
    nationality: "Filipino",
    dateOfBirth: "1990-05-17T00:00:00.000Z",
    region: "NCR",
    province: "Metro Manila",
    municipalityCity: "Quezon City",
    barangay: "Bagong Pag-asa",
    emergencyContactName: "Jose Santos",
    emergencyContactMobile: "+639179876543",
    churchAffiliation: "St. Peter Parish",
    churchAddress: "Commonwealth Avenue",
    currentPositionRole: "Lay minister",
    ...overrides,
  };
}

/** Applies through /graphql and fails the test unless a record comes back. */
async function apply(
  user: TestUser,
  overrides: Partial<ApplyForMembershipMutationVariables> = {},
): Promise<MemberFieldsFragment> {
  const result = await app.graphql(ApplyForMembershipDocument, application(overrides), user.token);
  if (!result.data?.applyForMembership) {
    throw new Error(`apply: ${JSON.stringify(result.errors)}`);
  }
  return result.data.applyForMembership.data;
}

async function setStatus(
  id: string,
  status: "PENDING" | "APPROVED" | "REJECTED",
  reason?: string,
): Promise<MemberFieldsFragment> {
  const result = await app.graphql(UpdateMemberStatusDocument, { id, status, reason }, admin.token);
  if (!result.data?.updateMemberStatus) {
    throw new Error(`updateMemberStatus: ${JSON.stringify(result.errors)}`);
  }
  return result.data.updateMemberStatus.data;
}

async function archive(id: string): Promise<MemberFieldsFragment> {
  const result = await app.graphql(ArchiveMemberDocument, { id }, admin.token);
  if (!result.data?.archiveMember) throw new Error(`archive: ${JSON.stringify(result.errors)}`);
  return result.data.archiveMember.data;
}

const recordsOf = (user: TestUser) => rawDb(app).members.find({ userId: user.id }).lean();
const storedRecord = (id: string) => rawDb(app).members.findById(id).lean();

describe("applyForMembership", () => {
  it("creates a PENDING, active record with the applicant, branch titles and first history entry", async () => {
    const user = await buildUser(app, { name: "Maria Santos" });
    const branch = await buildBranchService(app, admin);
    const variables = application({ firstName: "  Maria  ", preferredBranchIds: [branch.id] });

    const result = await app.graphql(ApplyForMembershipDocument, variables, user.token);

    expect(result.status).toBe(200);
    expect(result.errors).toBeUndefined();
    const payload = result.data!.applyForMembership;
    expect(payload).toMatchObject({ code: "CREATED", message: expect.any(String) });
    expect(payload.data).toMatchObject({
      userId: user.id,
      status: "PENDING",
      isActive: true,
      archivedAt: null,
      firstName: "Maria",
      lastName: variables.lastName,
      civilStatus: "SINGLE",
      gender: "FEMALE",
      dateOfBirth: "1990-05-17T00:00:00.000Z",
      user: { name: "Maria Santos", email: user.email, role: "MEMBER" },
      preferredBranches: [{ id: branch.id, title: branch.title }],
      ministerialExperiences: [],
      characterReferences: [],
      signature: null,
    });
    expect(payload.data.id).toMatch(UUID_V7);
    expect(payload.data.statusHistory).toEqual([
      { from: null, to: "PENDING", by: user.id, at: expect.any(String), reason: null },
    ]);
    const stored = await recordsOf(user);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      _id: payload.data.id,
      status: "PENDING",
      firstName: "Maria",
    });
  });

  it("answers HTTP 400 when a required variable is missing (variable coercion) and stores nothing", async () => {
    const user = await buildUser(app);
    const withoutFirstName: Partial<ApplyForMembershipMutationVariables> = application();
    delete withoutFirstName.firstName;

    const result = await app.graphql(
      ApplyForMembershipDocument,
      withoutFirstName as ApplyForMembershipMutationVariables,
      user.token,
    );

    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      errors: [{ path: "firstName", message: expect.any(String) }],
    });
    expect(await recordsOf(user)).toHaveLength(0);
  });

  it("reports a blank firstName as VALIDATION_ERROR with path firstName and stores nothing", async () => {
    const user = await buildUser(app);

    const result = await app.graphql(
      ApplyForMembershipDocument,
      application({ firstName: "   " }),
      user.token,
    );

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      errors: [{ path: "firstName", message: expect.any(String) }],
    });
    expect(await recordsOf(user)).toHaveLength(0);
  });

  it("refuses an unverified email with EMAIL_NOT_VERIFIED 403", async () => {
    const user = await buildUser(app, { verified: false });

    const result = await app.graphql(ApplyForMembershipDocument, application(), user.token);

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "EMAIL_NOT_VERIFIED", status: 403 });
    expect(await recordsOf(user)).toHaveLength(0);
  });

  it("refuses a second open application with CONFLICT 409", async () => {
    const user = await buildUser(app);
    const first = await apply(user);

    const second = await app.graphql(ApplyForMembershipDocument, application(), user.token);

    expect(second.status).toBe(200);
    expect(second.data).toBeNull();
    expect(second.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    const stored = await recordsOf(user);
    expect(stored.map((record) => record._id)).toEqual([first.id]);
  });

  it("refuses an anonymous caller with UNAUTHENTICATED", async () => {
    const before = await rawDb(app).members.estimatedDocumentCount();

    const result = await app.graphql(ApplyForMembershipDocument, application());

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
    expect(await rawDb(app).members.estimatedDocumentCount()).toBe(before);
  });

  it("lets a REJECTED applicant apply again with a new record", async () => {
    const user = await buildUser(app);
    const first = await apply(user);
    await setStatus(first.id, "REJECTED");

    const again = await apply(user);

    expect(again.id).not.toBe(first.id);
    expect(again.status).toBe("PENDING");
    const mine = await app.graphql(MyMembershipsDocument, {}, user.token);
    expect(mine.data!.myMemberships.data.map((record) => [record.id, record.status])).toEqual([
      [again.id, "PENDING"],
      [first.id, "REJECTED"],
    ]);
  });
});

describe("updateMemberStatus", () => {
  it("approves with a reason, records the change in the history and mails the decision", async () => {
    const user = await buildUser(app, { name: "Ana Reyes" });
    const record = await apply(user);
    const mailsBefore = app.mail.messages.length;

    const result = await app.graphql(
      UpdateMemberStatusDocument,
      { id: record.id, status: "APPROVED", reason: "  References checked  " },
      admin.token,
    );

    expect(result.errors).toBeUndefined();
    const payload = result.data!.updateMemberStatus;
    expect(payload).toMatchObject({ code: "OK", data: { id: record.id, status: "APPROVED" } });
    expect(payload.data.statusHistory).toEqual([
      { from: null, to: "PENDING", by: user.id, at: expect.any(String), reason: null },
      {
        from: "PENDING",
        to: "APPROVED",
        by: admin.id,
        at: expect.any(String),
        reason: "References checked",
      },
    ]);
    const mail = await app.mail.waitFor(user.email, { subject: /approved/i, after: mailsBefore });
    expect(mail.subject).toMatch(/was approved/);
    // A membership mail names the member as the record does, not as the account does.
    expect(mail.text).toContain(`Hello ${payload.data.firstName}`);
    expect(mail.text).toContain(payload.data.lastName);
    expect(mail.text).not.toContain("Ana Reyes");
    expect(mail.text).toContain("Reason: References checked");
    expect(await storedRecord(record.id)).toMatchObject({ status: "APPROVED" });
  });

  it("answers CONFLICT when the status is already the one asked for, changing nothing", async () => {
    const user = await buildUser(app);
    const record = await apply(user);

    const result = await app.graphql(
      UpdateMemberStatusDocument,
      { id: record.id, status: "PENDING" },
      admin.token,
    );

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    const stored = await storedRecord(record.id);
    expect(stored!.status).toBe("PENDING");
    expect(stored!.statusHistory).toHaveLength(1);
  });

  it("answers FORBIDDEN to a MEMBER, changing nothing", async () => {
    const user = await buildUser(app);
    const record = await apply(user);

    const result = await app.graphql(
      UpdateMemberStatusDocument,
      { id: record.id, status: "APPROVED" },
      user.token,
    );

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    const stored = await storedRecord(record.id);
    expect(stored!.status).toBe("PENDING");
    expect(stored!.statusHistory).toHaveLength(1);
  });
});

describe("members and pendingMembers", () => {
  const tag = randomBytes(3).toString("hex");
  let pending: MemberFieldsFragment;
  let approved: MemberFieldsFragment;
  let archived: MemberFieldsFragment;
  let applicant: TestUser;

  beforeAll(async () => {
    applicant = await buildUser(app, { email: `list-${tag}@example.org` });
    const second = await buildUser(app);
    const third = await buildUser(app);
    pending = await apply(applicant, { firstName: "Lourdes", lastName: `Cruz${tag}` });
    approved = await apply(second, {
      firstName: "Ramon",
      lastName: `Cruz${tag}`,
      mobilePhoneNumber: `+63917${tag}`,
    });
    await setStatus(approved.id, "APPROVED");
    archived = await apply(third, { firstName: "Elena", lastName: `Cruz${tag}` });
    await archive(archived.id);
  });

  it("lists matching records newest first, without archived ones by default", async () => {
    const result = await app.graphql(MembersDocument, { search: `CRUZ${tag}` }, admin.token);

    expect(result.errors).toBeUndefined();
    const page = result.data!.members;
    expect(page.code).toBe("OK");
    expect(page.data.map((record) => record.id)).toEqual([approved.id, pending.id]);
    expect(page.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 2,
      limit: 10,
      hasNextPage: false,
      hasPreviousPage: false,
    });
  });

  it("searches case-insensitively by 'first last', email and mobile number", async () => {
    const byFullName = await app.graphql(
      MembersDocument,
      { search: `lourdes cruz${tag}` },
      admin.token,
    );
    expect(byFullName.data!.members.data.map((record) => record.id)).toEqual([pending.id]);

    const byEmail = await app.graphql(
      MembersDocument,
      { search: `LIST-${tag}@EXAMPLE` },
      admin.token,
    );
    expect(byEmail.data!.members.data.map((record) => record.id)).toEqual([pending.id]);

    const byMobile = await app.graphql(MembersDocument, { search: `63917${tag}` }, admin.token);
    expect(byMobile.data!.members.data.map((record) => record.id)).toEqual([approved.id]);
  });

  it("filters by status", async () => {
    const result = await app.graphql(
      MembersDocument,
      { search: `cruz${tag}`, status: "APPROVED" },
      admin.token,
    );

    expect(result.data!.members.data.map((record) => [record.id, record.status])).toEqual([
      [approved.id, "APPROVED"],
    ]);
    expect(result.data!.members.pagination.totalCount).toBe(1);
  });

  it("includes archived records when includeArchived is true", async () => {
    const result = await app.graphql(
      MembersDocument,
      { search: `cruz${tag}`, includeArchived: true },
      admin.token,
    );

    const records = result.data!.members.data;
    expect(records.map((record) => record.id)).toEqual([archived.id, approved.id, pending.id]);
    expect(records[0]).toMatchObject({ isActive: false, archivedAt: expect.any(String) });
  });

  it("pendingMembers lists only PENDING records, archived ones on request", async () => {
    const result = await app.graphql(PendingMembersDocument, { search: `cruz${tag}` }, admin.token);
    expect(result.errors).toBeUndefined();
    expect(result.data!.pendingMembers.data.map((record) => record.id)).toEqual([pending.id]);
    expect(result.data!.pendingMembers.pagination.totalCount).toBe(1);

    const withArchived = await app.graphql(
      PendingMembersDocument,
      { search: `cruz${tag}`, includeArchived: true },
      admin.token,
    );
    expect(withArchived.data!.pendingMembers.data.map((record) => record.id)).toEqual([
      archived.id,
      pending.id,
    ]);
  });

  it("refuses a limit over 100 with VALIDATION_ERROR path limit", async () => {
    const results = [
      await app.graphql(MembersDocument, { limit: 101 }, admin.token),
      await app.graphql(PendingMembersDocument, { limit: 101 }, admin.token),
    ];
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.data).toBeNull();
      expect(result.errors![0].extensions).toMatchObject({
        code: "VALIDATION_ERROR",
        status: 400,
        errors: [{ path: "limit", message: expect.any(String) }],
      });
    }
  });

  it("answers FORBIDDEN to a MEMBER", async () => {
    const results = [
      await app.graphql(MembersDocument, {}, applicant.token),
      await app.graphql(PendingMembersDocument, {}, applicant.token),
    ];
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.data).toBeNull();
      expect(result.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
  });
});

describe("archiveMember and retrieveMember", () => {
  it("archives (isActive false) and retrieves (isActive true) a record", async () => {
    const user = await buildUser(app);
    const record = await apply(user);

    const archived = await app.graphql(ArchiveMemberDocument, { id: record.id }, admin.token);
    expect(archived.errors).toBeUndefined();
    expect(archived.data!.archiveMember).toMatchObject({
      code: "OK",
      data: { id: record.id, isActive: false, archivedAt: expect.any(String), status: "PENDING" },
    });
    expect((await storedRecord(record.id))!.archivedAt).toBeInstanceOf(Date);

    const retrieved = await app.graphql(RetrieveMemberDocument, { id: record.id }, admin.token);
    expect(retrieved.errors).toBeUndefined();
    expect(retrieved.data!.retrieveMember).toMatchObject({
      code: "OK",
      data: { id: record.id, isActive: true, archivedAt: null, status: "PENDING" },
    });
    expect((await storedRecord(record.id))!.archivedAt).toBeNull();
  });

  it("answers CONFLICT when archiving an archived record", async () => {
    const user = await buildUser(app);
    const record = await apply(user);
    const first = await archive(record.id);

    const again = await app.graphql(ArchiveMemberDocument, { id: record.id }, admin.token);

    expect(again.status).toBe(200);
    expect(again.data).toBeNull();
    expect(again.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await storedRecord(record.id))!.archivedAt!.toISOString()).toBe(first.archivedAt);
  });

  it("answers CONFLICT when retrieving a record that is not archived", async () => {
    const user = await buildUser(app);
    const record = await apply(user);

    const result = await app.graphql(RetrieveMemberDocument, { id: record.id }, admin.token);

    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await storedRecord(record.id))!.archivedAt).toBeNull();
  });

  it("answers CONFLICT when a status change targets an archived record", async () => {
    const user = await buildUser(app);
    const record = await apply(user);
    await archive(record.id);

    const result = await app.graphql(
      UpdateMemberStatusDocument,
      { id: record.id, status: "APPROVED" },
      admin.token,
    );

    expect(result.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await storedRecord(record.id))!.status).toBe("PENDING");
  });

  it("answers CONFLICT when retrieving an archived APPROVED record while a newer application is open", async () => {
    const user = await buildUser(app);
    const old = await apply(user);
    await setStatus(old.id, "APPROVED");
    await archive(old.id);
    const newer = await apply(user);

    const result = await app.graphql(RetrieveMemberDocument, { id: old.id }, admin.token);

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await storedRecord(old.id))!.archivedAt).toBeInstanceOf(Date);
    expect((await storedRecord(newer.id))!).toMatchObject({ status: "PENDING", archivedAt: null });
  });

  it("answers FORBIDDEN to a MEMBER", async () => {
    const user = await buildUser(app);
    const record = await apply(user);

    const result = await app.graphql(ArchiveMemberDocument, { id: record.id }, user.token);

    expect(result.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect((await storedRecord(record.id))!.archivedAt).toBeNull();
  });
});

describe("myMemberships", () => {
  it("returns only the caller's own records", async () => {
    const me = await buildUser(app);
    const someoneElse = await buildUser(app);
    const mine = await apply(me);
    await apply(someoneElse);

    const result = await app.graphql(MyMembershipsDocument, {}, me.token);

    expect(result.errors).toBeUndefined();
    const page = result.data!.myMemberships;
    expect(page.code).toBe("OK");
    expect(page.data.map((record) => record.id)).toEqual([mine.id]);
    expect(page.data[0].user.email).toBe(me.email);
    expect(page.pagination.totalCount).toBe(1);
  });

  it("answers UNAUTHENTICATED to an anonymous caller", async () => {
    const result = await app.graphql(MyMembershipsDocument, {});
    expect(result.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
  });
});

describe("concurrency", () => {
  it("of 5 parallel REST applications by one user, exactly one is created and four get 409", async () => {
    const user = await buildUser(app);
    const body = application();

    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        app
          .http()
          .post("/api/v1/members/apply")
          .set("authorization", `Bearer ${user.token}`)
          .send(body),
      ),
    );

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const createdResponse = responses.find((response) => response.status === 201)!;
    expect(createdResponse.body).toMatchObject({ code: "CREATED", data: { status: "PENDING" } });
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body).toMatchObject({ code: "CONFLICT", message: expect.any(String) });
    }
    const stored = await recordsOf(user);
    expect(stored).toHaveLength(1);
    expect(stored[0]._id).toBe(createdResponse.body.data.id);
  });

  it("parallel status changes of one record apply one at a time, each from the state before it", async () => {
    const user = await buildUser(app);
    const record = await apply(user);
    const change = (status: string) =>
      app
        .http()
        .patch(`/api/v1/members/${record.id}/status`)
        .set("authorization", `Bearer ${admin.token}`)
        .send({ status });

    const responses = await Promise.all(
      ["APPROVED", "REJECTED", "APPROVED", "REJECTED", "PENDING"].map(change),
    );

    // A change decided from a state another change has left meanwhile is a 409; one decided
    // after it (the engine served it later) is a change of its own. Either way no change is lost:
    // the history is one unbroken chain and holds exactly the changes that answered 200.
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: "CONFLICT" });
    }
    const applied = responses.filter((response) => response.status === 200);
    expect(applied.length).toBeGreaterThanOrEqual(1);
    const stored = await storedRecord(record.id);
    const history = stored!.statusHistory;
    expect(history).toHaveLength(applied.length + 1);
    history.slice(1).forEach((entry, index) => expect(entry.from).toBe(history[index].to));
    expect(stored!.status).toBe(history[history.length - 1].to);
  });
});
