import { randomBytes } from "node:crypto";
import {
  AppointOfficeHolderAtDocument,
  AppointOfficeHolderDocument,
  CreateOfficeDocument,
  DeleteOfficeDocument,
  EndOfficeHolderDocument,
  MemberOfficesDocument,
  OfficeDocument,
  OfficeHolderMemberFieldsDocument,
  OfficeHoldersDocument,
  OfficesDocument,
  UpdateOfficeDocument,
  type CreateOfficeMutationVariables,
  type OfficeHolderFieldsFragment,
  type OfficeLevel,
  type OfficeTitleFieldsFragment,
} from "../graphql/generated";
import { UNKNOWN_ID, UUID_V7 } from "../support/expectations";
import { applyAs, approvedMemberOf, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

let app: TestApp;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  ({ app, admin, member } = await startScenario({ users: { member: {} } }));
});
afterAll(() => app?.close());

const tag = () => randomBytes(3).toString("hex");

const START = "2025-01-01T00:00:00.000Z";
const FAR_FUTURE = "2099-12-31T00:00:00.000Z";

/** Creates an office title through /graphql and fails the test unless one comes back. */
async function createOffice(
  overrides: Partial<CreateOfficeMutationVariables> = {},
): Promise<OfficeTitleFieldsFragment> {
  const result = await app.graphql(
    CreateOfficeDocument,
    { name: `Office ${tag()}`, level: "CITY_CHAPLAIN", ...overrides },
    admin.token,
  );
  if (!result.data?.createOffice) throw new Error(`createOffice: ${JSON.stringify(result.errors)}`);
  return result.data.createOffice.data;
}

/** A member record applied for through REST and approved by the admin; `name` is "first last". */
function approvedMember(firstName = "Maria"): Promise<{ id: string; name: string }> {
  return approvedMemberOf(app, admin, { firstName, lastName: `Santos${tag()}` });
}

function appoint(officeId: string, memberId: string, token = admin.token, endDate?: string) {
  return app.graphql(
    AppointOfficeHolderDocument,
    { id: officeId, memberId, startDate: START, endDate },
    token,
  );
}

/** Appoints and fails the test unless the appointment comes back. */
async function appointed(officeId: string, memberId: string): Promise<OfficeHolderFieldsFragment> {
  const result = await appoint(officeId, memberId);
  if (!result.data?.appointOfficeHolder) {
    throw new Error(`appointOfficeHolder: ${JSON.stringify(result.errors)}`);
  }
  return result.data.appointOfficeHolder.data;
}

const storedOffice = (id: string) => rawDb(app).offices.findById(id).lean();
const storedHolders = (officeId: string) => rawDb(app).officeHolders.find({ officeId }).lean();

describe("createOffice", () => {
  it("creates an office title from name with its sections, no holders and UUID v7 id", async () => {
    const name = `Chief Chaplain ${tag()}`;

    const result = await app.graphql(
      CreateOfficeDocument,
      {
        name,
        level: "CHIEF_CHAPLAIN",
        description: "  Leads the chaplaincy  ",
        maxSlots: 1,
        sections: [
          { title: "Duties", type: "list", items: [{ content: "Oversees the regions" }] },
          { title: "About", type: "richtext" },
        ],
      },
      admin.token,
    );

    expect(result.status).toBe(200);
    expect(result.errors).toBeUndefined();
    const payload = result.data!.createOffice;
    expect(payload).toMatchObject({ code: "CREATED", message: expect.any(String) });
    expect(payload.data).toMatchObject({
      name,
      level: "CHIEF_CHAPLAIN",
      description: "Leads the chaplaincy",
      maxSlots: 1,
      activeHolders: 0,
      sections: [
        {
          id: expect.stringMatching(UUID_V7),
          title: "Duties",
          type: "list",
          items: [{ content: "Oversees the regions" }],
        },
        { id: expect.stringMatching(UUID_V7), title: "About", type: "richtext", items: [] },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(payload.data.id).toMatch(UUID_V7);
    expect(await storedOffice(payload.data.id)).toMatchObject({ name, maxSlots: 1 });
  });

  it("accepts title as an alias of name, leaving description and maxSlots null", async () => {
    const title = `Barangay Chaplain ${tag()}`;

    const result = await app.graphql(
      CreateOfficeDocument,
      { title, level: "BARANGAY_CHAPLAIN" },
      admin.token,
    );

    expect(result.errors).toBeUndefined();
    expect(result.data!.createOffice.data).toMatchObject({
      name: title,
      level: "BARANGAY_CHAPLAIN",
      description: null,
      maxSlots: null,
      sections: [],
    });
  });

  it("answers CONFLICT for a name that differs only in case, storing nothing", async () => {
    const name = `Regional Director ${tag()}`;
    await createOffice({ name, level: "REGIONAL_CHAPLAIN_DIRECTOR" });

    const duplicate = await app.graphql(
      CreateOfficeDocument,
      { title: name.toUpperCase(), level: "CITY_CHAPLAIN" },
      admin.token,
    );

    expect(duplicate.status).toBe(200);
    expect(duplicate.data).toBeNull();
    expect(duplicate.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(await rawDb(app).offices.countDocuments({ nameKey: name.toLowerCase() })).toBe(1);
  });

  it.each([
    ["a blank name", { name: "   " }, ["name"]],
    ["neither name nor title", {}, ["name"]],
    ["a name over 200 characters", { name: "x".repeat(201) }, ["name"]],
    ["name and title that differ", { name: "Alpha office", title: "Beta office" }, ["title"]],
    ["maxSlots 0", { name: "Slotless office", maxSlots: 0 }, ["maxSlots"]],
    ["maxSlots over 10000", { name: "Huge office", maxSlots: 10001 }, ["maxSlots"]],
    [
      "a section without a title",
      { name: "Untitled section office", sections: [{ type: "list" as const, items: [] }] },
      ["sections.0.title"],
    ],
  ])(
    "reports %s as VALIDATION_ERROR with its field path and stores nothing",
    async (_label, variables, paths) => {
      const before = await rawDb(app).offices.estimatedDocumentCount();

      const result = await app.graphql(
        CreateOfficeDocument,
        { level: "CITY_CHAPLAIN", ...variables },
        admin.token,
      );

      expect(result.status).toBe(200);
      expect(result.data).toBeNull();
      expect(result.errors![0].extensions).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
      expect(result.errors![0].extensions.errors!.map((error) => error.path)).toEqual(paths);
      expect(await rawDb(app).offices.estimatedDocumentCount()).toBe(before);
    },
  );

  it("answers HTTP 400 when level is not a known level (variable coercion)", async () => {
    const result = await app.graphql(
      CreateOfficeDocument,
      { name: `Bishop ${tag()}`, level: "BISHOP" as OfficeLevel },
      admin.token,
    );

    expect(result.status).toBe(400);
    expect(result.data).toBeUndefined();
    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      errors: [{ path: "level", message: expect.any(String) }],
    });
  });
});

describe("offices", () => {
  const search = `Hierarchy${tag()}`;
  const byName: Record<string, OfficeTitleFieldsFragment> = {};

  beforeAll(async () => {
    const specs: [string, OfficeLevel][] = [
      ["Barangay Deputy", "BARANGAY_DEPUTY_CHAPLAIN"],
      ["Chief", "CHIEF_CHAPLAIN"],
      ["City B", "CITY_CHAPLAIN"],
      ["City A", "CITY_CHAPLAIN"],
      ["Provincial", "PROVINCIAL_CHAPLAIN_DIRECTOR"],
    ];
    for (const [label, level] of specs) {
      byName[label] = await createOffice({ name: `${search}-${label}`, level });
    }
    await createOffice({ name: `Unrelated ${tag()}`, description: `mentions ${search}.` });
  });

  const namesOf = (offices: { name: string }[]) =>
    offices.map((office) => office.name.replace(`${search}-`, ""));

  it("sorts by level asc from CHIEF_CHAPLAIN down, ties by name ascending", async () => {
    const result = await app.graphql(
      OfficesDocument,
      { search: `${search}-`, sortBy: "level", sortOrder: "asc" },
      admin.token,
    );

    expect(result.errors).toBeUndefined();
    expect(namesOf(result.data!.offices.data)).toEqual([
      "Chief",
      "Provincial",
      "City A",
      "City B",
      "Barangay Deputy",
    ]);
  });

  it("sorts by level desc from BARANGAY_DEPUTY_CHAPLAIN up, ties still by name ascending", async () => {
    const result = await app.graphql(
      OfficesDocument,
      { search: `${search}-`, sortBy: "level", sortOrder: "desc" },
      admin.token,
    );

    expect(namesOf(result.data!.offices.data)).toEqual([
      "Barangay Deputy",
      "City A",
      "City B",
      "Provincial",
      "Chief",
    ]);
  });

  it("searches name and description case-insensitively, newest first by default, with pagination", async () => {
    const result = await app.graphql(
      OfficesDocument,
      { search: search.toLowerCase(), limit: 4 },
      member.token,
    );

    expect(result.errors).toBeUndefined();
    const page = result.data!.offices;
    expect(page.code).toBe("OK");
    expect(page.data.map((office) => office.name)).toEqual([
      expect.stringMatching(/^Unrelated /),
      byName["Provincial"].name,
      byName["City A"].name,
      byName["City B"].name,
    ]);
    expect(page.data[0].description).toBe(`mentions ${search}.`);
    expect(page.pagination).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: 6,
      limit: 4,
      hasNextPage: true,
      hasPreviousPage: false,
    });

    const second = await app.graphql(
      OfficesDocument,
      { search: search.toLowerCase(), limit: 4, page: 2 },
      member.token,
    );
    expect(second.data!.offices.data.map((office) => office.id)).toEqual([
      byName["Chief"].id,
      byName["Barangay Deputy"].id,
    ]);
    expect(second.data!.offices.pagination).toMatchObject({
      currentPage: 2,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it("sorts by title alphabetically like name", async () => {
    const result = await app.graphql(
      OfficesDocument,
      { search: `${search}-`, sortBy: "title", sortOrder: "asc" },
      admin.token,
    );

    expect(namesOf(result.data!.offices.data)).toEqual([
      "Barangay Deputy",
      "Chief",
      "City A",
      "City B",
      "Provincial",
    ]);
  });

  it("refuses a limit over 100 as VALIDATION_ERROR on limit", async () => {
    const result = await app.graphql(OfficesDocument, { limit: 101 }, admin.token);

    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "limit", message: expect.any(String) }],
    });
  });
});

describe("office", () => {
  it("returns one office title in the single-record envelope", async () => {
    const office = await createOffice({ level: "MUNICIPAL_CHAPLAIN", maxSlots: 3 });

    const result = await app.graphql(OfficeDocument, { id: office.id }, member.token);

    expect(result.errors).toBeUndefined();
    expect(result.data!.office).toEqual({
      code: "OK",
      message: expect.any(String),
      data: office,
    });
  });

  it("answers NOT_FOUND for an unknown id", async () => {
    const result = await app.graphql(OfficeDocument, { id: UNKNOWN_ID }, admin.token);

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("answers HTTP 400 for an id that is not a UUID", async () => {
    const result = await app.graphql(OfficeDocument, { id: "not-a-uuid" }, admin.token);

    expect(result.status).toBe(400);
    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "id", message: expect.any(String) }],
    });
  });
});

describe("updateOffice", () => {
  it("replaces sections: keeps a given id, adds one without id, removes those left out", async () => {
    const office = await createOffice({
      description: "Serves the city",
      sections: [
        { title: "Keep", type: "list", items: [{ content: "old" }] },
        { title: "Drop", type: "richtext", items: [{ content: "gone" }] },
      ],
    });
    const [kept, dropped] = office.sections;

    const result = await app.graphql(
      UpdateOfficeDocument,
      {
        id: office.id,
        description: null,
        sections: [
          { id: kept.id, title: "Kept", type: "richtext", items: [{ content: "new" }] },
          { title: "Added", type: "list", items: [] },
        ],
      },
      admin.token,
    );

    expect(result.errors).toBeUndefined();
    const updated = result.data!.updateOffice;
    expect(updated.code).toBe("OK");
    expect(updated.data).toMatchObject({
      id: office.id,
      name: office.name,
      level: office.level,
      description: null,
    });
    expect(updated.data.sections).toEqual([
      { id: kept.id, title: "Kept", type: "richtext", items: [{ content: "new" }] },
      { id: expect.stringMatching(UUID_V7), title: "Added", type: "list", items: [] },
    ]);
    expect(updated.data.sections.map((section) => section.id)).not.toContain(dropped.id);
    const stored = await storedOffice(office.id);
    expect(stored!.description).toBeNull();
    expect(stored!.sections.map((section) => section.title)).toEqual(["Kept", "Added"]);
  });

  it("changes name (via title), level and maxSlots, leaving what was not given", async () => {
    const office = await createOffice({ description: "Stays", maxSlots: 2 });
    const title = `Renamed ${tag()}`;

    const result = await app.graphql(
      UpdateOfficeDocument,
      { id: office.id, title, level: "NATIONAL_CHAPLAIN_DIRECTOR", maxSlots: null },
      admin.token,
    );

    expect(result.errors).toBeUndefined();
    expect(result.data!.updateOffice.data).toMatchObject({
      name: title,
      level: "NATIONAL_CHAPLAIN_DIRECTOR",
      description: "Stays",
      maxSlots: null,
    });
  });

  it("reports an unknown section id as VALIDATION_ERROR on sections.N.id, changing nothing", async () => {
    const office = await createOffice({ sections: [{ title: "Only", type: "list" }] });

    const result = await app.graphql(
      UpdateOfficeDocument,
      {
        id: office.id,
        sections: [
          { id: office.sections[0].id, title: "Only", type: "list" },
          { id: UNKNOWN_ID, title: "Stale", type: "list" },
        ],
      },
      admin.token,
    );

    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "sections.1.id", message: expect.any(String) }],
    });
    expect((await storedOffice(office.id))!.sections.map((section) => section._id)).toEqual([
      office.sections[0].id,
    ]);
  });

  it("reports an explicit null name as VALIDATION_ERROR on name", async () => {
    const office = await createOffice();

    const result = await app.graphql(
      UpdateOfficeDocument,
      { id: office.id, name: null },
      admin.token,
    );

    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "name", message: expect.any(String) }],
    });
    expect((await storedOffice(office.id))!.name).toBe(office.name);
  });

  it("answers CONFLICT when renaming to another office's name", async () => {
    const first = await createOffice();
    const second = await createOffice();

    const result = await app.graphql(
      UpdateOfficeDocument,
      { id: second.id, name: first.name.toLowerCase() },
      admin.token,
    );

    expect(result.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await storedOffice(second.id))!.name).toBe(second.name);
  });
});

describe("deleteOffice", () => {
  it("returns {code, message}, after which office(id) answers NOT_FOUND", async () => {
    const office = await createOffice();

    const result = await app.graphql(DeleteOfficeDocument, { id: office.id }, admin.token);

    expect(result.errors).toBeUndefined();
    expect(result.data!.deleteOffice).toEqual({ code: "OK", message: expect.any(String) });
    const gone = await app.graphql(OfficeDocument, { id: office.id }, admin.token);
    expect(gone.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await storedOffice(office.id)).toBeNull();
  });

  it("answers CONFLICT while someone holds the office, and deletes it with its history once ended", async () => {
    const office = await createOffice();
    const holder = await appointed(office.id, (await approvedMember()).id);

    const refused = await app.graphql(DeleteOfficeDocument, { id: office.id }, admin.token);
    expect(refused.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(await storedOffice(office.id)).not.toBeNull();

    await app.graphql(EndOfficeHolderDocument, { id: office.id, holderId: holder.id }, admin.token);
    const deleted = await app.graphql(DeleteOfficeDocument, { id: office.id }, admin.token);
    expect(deleted.data!.deleteOffice.code).toBe("OK");
    expect(await storedHolders(office.id)).toHaveLength(0);
  });
});

describe("office holders", () => {
  it("appoints an approved member, showing the office and only the member's id and name", async () => {
    const office = await createOffice({ level: "PROVINCIAL_CHAPLAIN_DIRECTOR", maxSlots: 2 });
    const appointee = await approvedMember("Lourdes");

    const result = await appoint(office.id, appointee.id, admin.token, FAR_FUTURE);

    expect(result.errors).toBeUndefined();
    const payload = result.data!.appointOfficeHolder;
    expect(payload).toMatchObject({ code: "CREATED", message: expect.any(String) });
    expect(payload.data).toEqual({
      id: expect.stringMatching(UUID_V7),
      office: { id: office.id, name: office.name, level: "PROVINCIAL_CHAPLAIN_DIRECTOR" },
      member: { id: appointee.id, name: appointee.name },
      startDate: START,
      endDate: FAR_FUTURE,
      endedAt: null,
      isActive: true,
      createdAt: expect.any(String),
    });
    const fetched = await app.graphql(OfficeDocument, { id: office.id }, admin.token);
    expect(fetched.data!.office.data.activeHolders).toBe(1);
  });

  it("records where the office serves", async () => {
    const office = await createOffice();
    const appointee = await approvedMember("Ligaya");
    const place = {
      department: "Southern Philippines Medical Center",
      region: "Davao Region",
      province: "Davao del Sur",
      cityMunicipality: "Davao City",
      barangay: "Bajada",
    };
    const result = await app.graphql(
      AppointOfficeHolderAtDocument,
      { id: office.id, memberId: appointee.id, startDate: START, ...place },
      admin.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.appointOfficeHolder.data).toEqual({ id: expect.any(String), ...place });
    const refused = await app.graphql(
      AppointOfficeHolderAtDocument,
      { id: office.id, memberId: appointee.id, startDate: START, region: "x".repeat(301) },
      admin.token,
    );
    expect(refused.errors?.[0].extensions?.code).toBe("VALIDATION_ERROR");
  });

  it("exposes no member field but id and name in the schema", async () => {
    const result = await app.graphql(OfficeHolderMemberFieldsDocument, {}, admin.token);

    expect(result.data!.__type!.fields!.map((field) => field.name).sort()).toEqual(["id", "name"]);
  });

  it("answers CONFLICT to a second appointment when maxSlots 1 is taken, storing nothing", async () => {
    const office = await createOffice({ maxSlots: 1 });
    await appointed(office.id, (await approvedMember()).id);

    const second = await appoint(office.id, (await approvedMember()).id);

    expect(second.status).toBe(200);
    expect(second.data).toBeNull();
    expect(second.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(second.errors![0].message).toMatch(/slot/i);
    expect(await storedHolders(office.id)).toHaveLength(1);
  });

  it("answers CONFLICT when the member already holds the office", async () => {
    const office = await createOffice();
    const appointee = await approvedMember();
    await appointed(office.id, appointee.id);

    const again = await appoint(office.id, appointee.id);

    expect(again.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(await storedHolders(office.id)).toHaveLength(1);
  });

  it("refuses a member record that is not APPROVED with CONFLICT, and an unknown one with NOT_FOUND", async () => {
    const office = await createOffice();
    const pending = await applyAs(app, await buildUser(app));

    const notApproved = await appoint(office.id, pending.id);
    expect(notApproved.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });

    const unknown = await appoint(office.id, UNKNOWN_ID);
    expect(unknown.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await storedHolders(office.id)).toHaveLength(0);
  });

  it("reports an endDate not after startDate as VALIDATION_ERROR on endDate", async () => {
    const office = await createOffice();

    const result = await appoint(
      office.id,
      (await approvedMember()).id,
      admin.token,
      "2024-12-31T00:00:00.000Z",
    );

    expect(result.errors![0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "endDate", message: expect.any(String) }],
    });
    expect(await storedHolders(office.id)).toHaveLength(0);
  });

  it("of two parallel appointments for the last slot, exactly one succeeds", async () => {
    const office = await createOffice({ maxSlots: 2 });
    await appointed(office.id, (await approvedMember()).id);
    const [first, second] = await Promise.all([approvedMember(), approvedMember()]);

    const results = await Promise.all([
      appoint(office.id, first.id),
      appoint(office.id, second.id),
    ]);

    const winners = results.filter((result) => result.data?.appointOfficeHolder);
    const losers = results.filter((result) => result.errors);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    expect(losers[0].errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    const stored = await storedHolders(office.id);
    expect(stored).toHaveLength(2);
    expect(stored.map((holder) => holder._id)).toContain(
      winners[0].data!.appointOfficeHolder.data.id,
    );
  });

  it("ends an appointment, freeing its slot; ending it again answers CONFLICT", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const holder = await appointed(office.id, (await approvedMember()).id);

    const ended = await app.graphql(
      EndOfficeHolderDocument,
      { id: office.id, holderId: holder.id },
      admin.token,
    );

    expect(ended.errors).toBeUndefined();
    expect(ended.data!.endOfficeHolder).toMatchObject({
      code: "OK",
      data: { id: holder.id, isActive: false, endedAt: expect.any(String) },
    });
    const again = await app.graphql(
      EndOfficeHolderDocument,
      { id: office.id, holderId: holder.id },
      admin.token,
    );
    expect(again.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
    const next = await appoint(office.id, (await approvedMember()).id);
    expect(next.errors).toBeUndefined();
  });

  it("answers NOT_FOUND when ending a holder of another office", async () => {
    const office = await createOffice();
    const other = await createOffice();
    const holder = await appointed(office.id, (await approvedMember()).id);

    const result = await app.graphql(
      EndOfficeHolderDocument,
      { id: other.id, holderId: holder.id },
      admin.token,
    );

    expect(result.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect((await storedHolders(office.id))[0].endedAt).toBeNull();
  });

  it("does not count an appointment whose endDate has passed", async () => {
    const office = await createOffice({ maxSlots: 1 });

    const expired = await appoint(
      office.id,
      (await approvedMember()).id,
      admin.token,
      "2025-06-30T00:00:00.000Z",
    );
    expect(expired.data!.appointOfficeHolder.data.isActive).toBe(false);

    const next = await appoint(office.id, (await approvedMember()).id);
    expect(next.errors).toBeUndefined();
  });
});

describe("officeHolders and memberOffices", () => {
  let office: OfficeTitleFieldsFragment;
  let otherOffice: OfficeTitleFieldsFragment;
  let ana: { id: string; name: string };
  let ben: { id: string; name: string };
  let anaHolder: OfficeHolderFieldsFragment;
  let benHolder: OfficeHolderFieldsFragment;
  let anaOther: OfficeHolderFieldsFragment;

  beforeAll(async () => {
    office = await createOffice({ level: "CITY_CHAPLAIN" });
    otherOffice = await createOffice({ level: "BARANGAY_CHAPLAIN" });
    ana = await approvedMember("Ana");
    ben = await approvedMember("Ben");
    anaHolder = await appointed(office.id, ana.id);
    benHolder = await appointed(office.id, ben.id);
    anaOther = await appointed(otherOffice.id, ana.id);
    await app.graphql(
      EndOfficeHolderDocument,
      { id: office.id, holderId: benHolder.id },
      admin.token,
    );
  });

  it("lists the office's running appointments, newest first, to any signed-in member", async () => {
    const result = await app.graphql(OfficeHoldersDocument, { id: office.id }, member.token);

    expect(result.errors).toBeUndefined();
    const page = result.data!.officeHolders;
    expect(page.code).toBe("OK");
    expect(page.data).toEqual([anaHolder]);
    expect(page.data[0].member).toEqual({ id: ana.id, name: ana.name });
    expect(page.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 1,
      limit: 10,
      hasNextPage: false,
      hasPreviousPage: false,
    });
  });

  it("includes ended appointments with includeEnded, and searches by holder name", async () => {
    const all = await app.graphql(
      OfficeHoldersDocument,
      { id: office.id, includeEnded: true },
      admin.token,
    );
    expect(all.data!.officeHolders.data.map((holder) => [holder.id, holder.isActive])).toEqual([
      [benHolder.id, false],
      [anaHolder.id, true],
    ]);

    const searched = await app.graphql(
      OfficeHoldersDocument,
      { id: office.id, includeEnded: true, search: ben.name.toUpperCase() },
      admin.token,
    );
    expect(searched.data!.officeHolders.data.map((holder) => holder.id)).toEqual([benHolder.id]);
  });

  it("lists a member record's offices, newest appointment first", async () => {
    const result = await app.graphql(MemberOfficesDocument, { id: ana.id }, member.token);

    expect(result.errors).toBeUndefined();
    const page = result.data!.memberOffices;
    expect(page.code).toBe("OK");
    expect(page.data.map((holder) => holder.office)).toEqual([
      { id: otherOffice.id, name: otherOffice.name, level: "BARANGAY_CHAPLAIN" },
      { id: office.id, name: office.name, level: "CITY_CHAPLAIN" },
    ]);
    expect(page.data.map((holder) => holder.id)).toEqual([anaOther.id, anaHolder.id]);
    expect(page.pagination.totalCount).toBe(2);
  });

  it("shows a member's ended appointments only with includeEnded", async () => {
    const running = await app.graphql(MemberOfficesDocument, { id: ben.id }, admin.token);
    expect(running.data!.memberOffices.data).toEqual([]);

    const all = await app.graphql(
      MemberOfficesDocument,
      { id: ben.id, includeEnded: true },
      admin.token,
    );
    expect(all.data!.memberOffices.data).toEqual([
      { ...benHolder, isActive: false, endedAt: expect.any(String) },
    ]);
  });

  it("answers NOT_FOUND for an unknown office or member record", async () => {
    const holders = await app.graphql(OfficeHoldersDocument, { id: UNKNOWN_ID }, admin.token);
    expect(holders.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });

    const offices = await app.graphql(MemberOfficesDocument, { id: UNKNOWN_ID }, admin.token);
    expect(offices.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });
});

describe("roles", () => {
  it("answers UNAUTHENTICATED to an anonymous offices query", async () => {
    const result = await app.graphql(OfficesDocument, {});

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
  });

  it("answers FORBIDDEN to a MEMBER creating an office, storing nothing", async () => {
    const name = `Member-made ${tag()}`;

    const result = await app.graphql(
      CreateOfficeDocument,
      { name, level: "CITY_CHAPLAIN" },
      member.token,
    );

    expect(result.status).toBe(200);
    expect(result.data).toBeNull();
    expect(result.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(await rawDb(app).offices.exists({ nameKey: name.toLowerCase() })).toBeNull();
  });

  it("answers FORBIDDEN to a MEMBER appointing a holder, storing nothing", async () => {
    const office = await createOffice();
    const appointee = await approvedMember();

    const result = await appoint(office.id, appointee.id, member.token);

    expect(result.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(await storedHolders(office.id)).toHaveLength(0);
  });

  it("lets a MEMBER read offices, an office and its holders", async () => {
    const office = await createOffice();
    const holder = await appointed(office.id, (await approvedMember()).id);

    const listed = await app.graphql(OfficesDocument, { search: office.name }, member.token);
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.offices.data.map((found) => found.id)).toEqual([office.id]);

    const holders = await app.graphql(OfficeHoldersDocument, { id: office.id }, member.token);
    expect(holders.errors).toBeUndefined();
    expect(holders.data!.officeHolders.data.map((found) => found.id)).toEqual([holder.id]);
  });
});
