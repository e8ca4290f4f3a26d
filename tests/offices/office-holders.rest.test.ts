import { randomBytes } from "node:crypto";
import type { Response } from "supertest";
import { UNKNOWN_ID, UUID_V7 } from "../support/expectations";
import { applyAs, approvedMemberOf, bearer, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import { officesNow } from "../support/short-term";

const OFFICES = "/api/v1/offices";
const MEMBERS = "/api/v1/members";

const HOLDER_KEYS = [
  "barangay",
  "cityMunicipality",
  "createdAt",
  "department",
  "endDate",
  "endedAt",
  "id",
  "isActive",
  "member",
  "office",
  "province",
  "region",
  "startDate",
];

let app: TestApp;
let admin: TestUser;
let reader: TestUser;

beforeAll(async () => {
  ({ app, admin, reader } = await startScenario({ users: { reader: { name: "Plain Reader" } } }));
});
afterAll(() => app?.close());

const api = () => app.http();

interface Office {
  id: string;
  name: string;
  level: string;
  maxSlots: number | null;
  activeHolders: number;
}

interface Member {
  user: TestUser;
  id: string;
  name: string;
}

interface Holder {
  id: string;
  office: { id: string; name: string; level: string };
  member: { id: string; name: string };
  startDate: string;
  endDate: string | null;
  endedAt: string | null;
  isActive: boolean;
  createdAt: string;
}

let sequence = 0;
const unique = (label: string) => {
  sequence += 1;
  return `${label} ${sequence} ${randomBytes(3).toString("hex")}`;
};

/** An office title created by the admin; unlimited slots unless told otherwise. */
async function createOffice(overrides: Record<string, unknown> = {}): Promise<Office> {
  const response = await api()
    .post(`${OFFICES}/create`)
    .set(bearer(admin))
    .send({ name: unique("City Chaplain of"), level: "CITY_CHAPLAIN", ...overrides });
  if (response.status !== 201) {
    throw new Error(`createOffice: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as Office;
}

/** A fresh account whose application has been submitted but not reviewed. */
async function pendingMember(
  application: Record<string, unknown> = {},
): Promise<{ user: TestUser; id: string }> {
  const user = await buildUser(app, { name: "Applicant" });
  const record = await applyAs(app, user, application);
  return { user, id: record.id };
}

function setStatus(memberId: string, status: string, as: TestUser = admin) {
  return api().patch(`${MEMBERS}/${memberId}/status`).set(bearer(as)).send({ status });
}

/** A fresh account with an APPROVED, active member record named "first last". */
function approvedMember(firstName = "Maria", lastName = unique("Santos")): Promise<Member> {
  return approvedMemberOf(app, admin, { firstName, lastName });
}

function appoint(officeId: string, body: Record<string, unknown>, as: TestUser | null = admin) {
  const request = api().post(`${OFFICES}/${officeId}/holders`);
  if (as) request.set(bearer(as));
  return request.send(body);
}

/** Appoints from 2024 on with no planned end; fails the test on anything but 201. */
async function appointed(
  officeId: string,
  memberId: string,
  dates: { startDate?: string; endDate?: string } & Record<string, string> = {},
): Promise<Holder> {
  const response = await appoint(officeId, {
    memberId,
    startDate: "2024-01-01T00:00:00.000Z",
    ...dates,
  });
  if (response.status !== 201) {
    throw new Error(`appoint: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as Holder;
}

function endHolder(officeId: string, holderId: string, as: TestUser | null = admin) {
  const request = api().patch(`${OFFICES}/${officeId}/holders/${holderId}/end`);
  if (as) request.set(bearer(as));
  return request;
}

function holdersOf(
  officeId: string,
  query: Record<string, string | number | boolean> = {},
  as: TestUser | null = admin,
) {
  const request = api().get(`${OFFICES}/${officeId}/holders`).query(query);
  if (as) request.set(bearer(as));
  return request;
}

function officesOf(
  memberId: string,
  query: Record<string, string | number | boolean> = {},
  as: TestUser | null = admin,
) {
  const request = api().get(`${MEMBERS}/${memberId}/offices`).query(query);
  if (as) request.set(bearer(as));
  return request;
}

async function activeHolders(officeId: string): Promise<number> {
  const response = await api().get(`${OFFICES}/${officeId}`).set(bearer(admin));
  expect(response.status).toBe(200);
  return response.body.data.activeHolders as number;
}

const storedHolders = (officeId: string) => rawDb(app).officeHolders.countDocuments({ officeId });

const idsOf = (response: Response) => (response.body.data as Holder[]).map((holder) => holder.id);

function expectError(response: Response, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code, message: expect.any(String) });
}

function expectValidation(response: Response, path: string): void {
  expectError(response, 400, "VALIDATION_ERROR");
  expect((response.body.errors as { path: string }[]).map((error) => error.path)).toContain(path);
}

/** Approved members, made in parallel. */
const approvedMembers = (count: number, lastName = "Racer") =>
  Promise.all(Array.from({ length: count }, () => approvedMember("Juan", unique(lastName))));

describe("POST /offices/{id}/holders", () => {
  it("appoints an approved member and answers 201 with only the office's and member's names", async () => {
    const office = await createOffice({ level: "PROVINCIAL_CHAPLAIN_DIRECTOR" });
    const lastName = unique("Reyes");
    const { user, id } = await pendingMember({
      firstName: "Andres",
      lastName,
      mobilePhoneNumber: "09175550123",
      homeAddress: "77 Bonifacio Avenue",
      emergencyContactName: "Gabriela Reyes",
      emergencyContactMobile: "09185550199",
      churchAffiliation: "Holy Cross Parish",
    });
    expect((await setStatus(id, "APPROVED")).status).toBe(200);

    const response = await appoint(office.id, {
      memberId: id,
      startDate: "2025-02-01T00:00:00.000Z",
      endDate: "2099-01-31T00:00:00.000Z",
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: "CREATED", message: expect.any(String) });
    const holder = response.body.data;
    expect(Object.keys(holder).sort()).toEqual(HOLDER_KEYS);
    expect(holder.id).toMatch(UUID_V7);
    expect(holder.office).toEqual({
      id: office.id,
      name: office.name,
      level: "PROVINCIAL_CHAPLAIN_DIRECTOR",
    });
    expect(holder.member).toEqual({ id, name: `Andres ${lastName}` });
    expect(holder.startDate).toBe("2025-02-01T00:00:00.000Z");
    expect(holder.endDate).toBe("2099-01-31T00:00:00.000Z");
    expect(holder.endedAt).toBeNull();
    expect(holder.isActive).toBe(true);
    expect(new Date(holder.createdAt).toISOString()).toBe(holder.createdAt);

    const json = JSON.stringify(response.body);
    for (const personal of [
      user.email,
      user.id,
      "09175550123",
      "77 Bonifacio Avenue",
      "Gabriela Reyes",
      "09185550199",
      "Holy Cross Parish",
      "Cebu City",
      "1990-03-15",
    ]) {
      expect(json).not.toContain(personal);
    }
    expect(await activeHolders(office.id)).toBe(1);
  });

  it("records where the office serves, trimmed, a blank one as none; the holder lists show it", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id, {
      department: "  Davao City Police Office ",
      region: "Davao Region",
      province: "Davao del Sur",
      cityMunicipality: "Davao City",
      barangay: "   ",
    });
    const place = {
      department: "Davao City Police Office",
      region: "Davao Region",
      province: "Davao del Sur",
      cityMunicipality: "Davao City",
      barangay: null,
    };
    expect(holder).toMatchObject(place);
    expect((await holdersOf(office.id)).body.data).toEqual([expect.objectContaining(place)]);
    expect((await officesOf(member.id)).body.data).toEqual([expect.objectContaining(place)]);
    // None given: every place field null.
    const bare = await appointed((await createOffice()).id, member.id);
    expect(bare).toMatchObject({
      department: null,
      region: null,
      province: null,
      cityMunicipality: null,
      barangay: null,
    });
  });

  it("refuses a place field over 300 characters or not text with 400 naming it, storing nothing", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const base = { memberId: member.id, startDate: "2025-01-01T00:00:00.000Z" };
    expectValidation(await appoint(office.id, { ...base, barangay: "x".repeat(301) }), "barangay");
    expectValidation(await appoint(office.id, { ...base, department: 42 }), "department");
    expect(await storedHolders(office.id)).toBe(0);
  });

  it("stores an open-ended term with endDate null", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id, { startDate: "2025-06-01T00:00:00.000Z" });
    expect(holder.startDate).toBe("2025-06-01T00:00:00.000Z");
    expect(holder.endDate).toBeNull();
    expect(holder.isActive).toBe(true);
  });

  it("answers 404 for an unknown office and for an unknown member record", async () => {
    const member = await approvedMember();
    const office = await createOffice();
    expectError(
      await appoint(UNKNOWN_ID, { memberId: member.id, startDate: "2025-01-01T00:00:00.000Z" }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await appoint(office.id, { memberId: UNKNOWN_ID, startDate: "2025-01-01T00:00:00.000Z" }),
      404,
      "NOT_FOUND",
    );
    expect(await storedHolders(office.id)).toBe(0);
  });

  it("refuses with 409 a PENDING, a REJECTED and an archived member record", async () => {
    const office = await createOffice();
    const pending = await pendingMember();
    const rejected = await pendingMember();
    expect((await setStatus(rejected.id, "REJECTED")).status).toBe(200);
    const archived = await approvedMember();
    const archiving = await api().patch(`${MEMBERS}/${archived.id}/archive`).set(bearer(admin));
    expect(archiving.status).toBe(200);

    for (const memberId of [pending.id, rejected.id, archived.id]) {
      const response = await appoint(office.id, {
        memberId,
        startDate: "2025-01-01T00:00:00.000Z",
      });
      expectError(response, 409, "CONFLICT");
    }
    expect(await storedHolders(office.id)).toBe(0);
    expect(await activeHolders(office.id)).toBe(0);
  });

  it("rejects an endDate on or before the startDate with 400 on endDate", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    for (const endDate of ["2024-12-31T00:00:00.000Z", "2025-01-01T00:00:00.000Z"]) {
      const response = await appoint(office.id, {
        memberId: member.id,
        startDate: "2025-01-01T00:00:00.000Z",
        endDate,
      });
      expectValidation(response, "endDate");
    }
    expect(await storedHolders(office.id)).toBe(0);
  });

  it("rejects a missing memberId or startDate with 400 naming the field", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    expectValidation(
      await appoint(office.id, { startDate: "2025-01-01T00:00:00.000Z" }),
      "memberId",
    );
    expectValidation(await appoint(office.id, { memberId: member.id }), "startDate");
    expect(await storedHolders(office.id)).toBe(0);
  });

  it("refuses with 409 to appoint a member who already holds the office", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    await appointed(office.id, member.id);
    const again = await appoint(office.id, {
      memberId: member.id,
      startDate: "2025-03-01T00:00:00.000Z",
    });
    expectError(again, 409, "CONFLICT");
    expect(await storedHolders(office.id)).toBe(1);
    expect(await activeHolders(office.id)).toBe(1);
  });
});

describe("maxSlots", () => {
  it("refuses a third appointment to an office with two slots and stores nothing", async () => {
    const office = await createOffice({ maxSlots: 2 });
    const [first, second, third] = await approvedMembers(3, "Slot");
    await appointed(office.id, first.id);
    await appointed(office.id, second.id);

    const response = await appoint(office.id, {
      memberId: third.id,
      startDate: "2025-01-01T00:00:00.000Z",
    });

    expectError(response, 409, "CONFLICT");
    expect(response.body.message).toMatch(/slot/i);
    expect(await storedHolders(office.id)).toBe(2);
    expect(await activeHolders(office.id)).toBe(2);
    const officesOfThird = await officesOf(third.id, { includeEnded: true });
    expect(officesOfThird.body.data).toEqual([]);
  });

  it("lets an office without maxSlots have many holders", async () => {
    const office = await createOffice({ maxSlots: null });
    expect(office.maxSlots).toBeNull();
    const members = await approvedMembers(5, "Unlimited");
    for (const member of members) await appointed(office.id, member.id);
    expect(await activeHolders(office.id)).toBe(5);
    const list = await holdersOf(office.id);
    expect(list.body.pagination.totalCount).toBe(5);
  });

  it("does not count a term whose endDate has passed", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const [former, current] = await approvedMembers(2, "Term");

    const expired = await appointed(office.id, former.id, {
      startDate: "2020-01-01T00:00:00.000Z",
      endDate: "2021-01-01T00:00:00.000Z",
    });
    expect(expired.isActive).toBe(false);
    expect(expired.endedAt).toBeNull();
    expect(await activeHolders(office.id)).toBe(0);

    const holder = await appointed(office.id, current.id);
    expect(holder.isActive).toBe(true);
    expect(await activeHolders(office.id)).toBe(1);

    const active = await holdersOf(office.id);
    expect(idsOf(active)).toEqual([holder.id]);
    const all = await holdersOf(office.id, { includeEnded: true });
    expect(idsOf(all)).toEqual([holder.id, expired.id]);
  });

  it("lets the former holder of an expired term be appointed again", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const member = await approvedMember();
    await appointed(office.id, member.id, {
      startDate: "2020-01-01T00:00:00.000Z",
      endDate: "2021-01-01T00:00:00.000Z",
    });
    const again = await appointed(office.id, member.id);
    expect(again.isActive).toBe(true);
    expect(await activeHolders(office.id)).toBe(1);
  });
});

describe("parallel appointments for the last slot", () => {
  async function race(office: Office, racers: Member[]): Promise<Response[]> {
    return Promise.all(
      racers.map((member) =>
        appoint(office.id, { memberId: member.id, startDate: "2025-01-01T00:00:00.000Z" }),
      ),
    );
  }

  function expectOneWinner(responses: Response[]): Holder {
    const statuses = responses.map((response) => response.status).sort((a, b) => a - b);
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const lost of responses.filter((response) => response.status === 409)) {
      expect(lost.body.code).toBe("CONFLICT");
    }
    return responses.find((response) => response.status === 201)!.body.data as Holder;
  }

  it("of an office with one slot: exactly one of six succeeds", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const racers = await approvedMembers(6);

    const winner = expectOneWinner(await race(office, racers));

    const holders = await holdersOf(office.id);
    expect(holders.body.pagination.totalCount).toBe(1);
    expect(idsOf(holders)).toEqual([winner.id]);
    expect(racers.map((member) => member.id)).toContain(winner.member.id);
    expect(await storedHolders(office.id)).toBe(1);
    expect(await activeHolders(office.id)).toBe(1);
  });

  it("of an office with three slots already holding two: exactly one of six succeeds", async () => {
    const office = await createOffice({ maxSlots: 3 });
    const [first, second] = await approvedMembers(2, "Incumbent");
    const incumbents = [
      await appointed(office.id, first.id),
      await appointed(office.id, second.id),
    ];
    const racers = await approvedMembers(6);

    const winner = expectOneWinner(await race(office, racers));

    const holders = await holdersOf(office.id);
    expect(holders.body.pagination.totalCount).toBe(3);
    expect(new Set(idsOf(holders))).toEqual(
      new Set([winner.id, ...incumbents.map((holder) => holder.id)]),
    );
    expect(await storedHolders(office.id)).toBe(3);
    expect(await activeHolders(office.id)).toBe(3);
  });
});

describe("PATCH /offices/{id}/holders/{holderId}/end", () => {
  it("ends the appointment: 200 with endedAt set and isActive false, and the count drops", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id);
    expect(await activeHolders(office.id)).toBe(1);
    const before = officesNow(app).getTime();

    const response = await endHolder(office.id, holder.id);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    const ended = response.body.data;
    expect(Object.keys(ended).sort()).toEqual(HOLDER_KEYS);
    expect(ended).toMatchObject({
      id: holder.id,
      office: { id: office.id, name: office.name, level: office.level },
      member: { id: member.id, name: member.name },
      startDate: holder.startDate,
      isActive: false,
    });
    expect(new Date(ended.endedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(ended.endedAt).getTime()).toBeLessThanOrEqual(officesNow(app).getTime() + 1000);
    expect(await activeHolders(office.id)).toBe(0);
  });

  it("answers 409 when the appointment has already ended", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id);
    expect((await endHolder(office.id, holder.id)).status).toBe(200);
    expectError(await endHolder(office.id, holder.id), 409, "CONFLICT");
  });

  it("answers 404 for a holder of another office and for an unknown holder id", async () => {
    const office = await createOffice();
    const other = await createOffice();
    const member = await approvedMember();
    const holderElsewhere = await appointed(other.id, member.id);

    expectError(await endHolder(office.id, holderElsewhere.id), 404, "NOT_FOUND");
    expectError(await endHolder(office.id, UNKNOWN_ID), 404, "NOT_FOUND");
    expectError(await endHolder(UNKNOWN_ID, holderElsewhere.id), 404, "NOT_FOUND");
    expect(await activeHolders(other.id)).toBe(1);
  });

  it("frees the slot for another member", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const [first, second] = await approvedMembers(2, "Successor");
    const holder = await appointed(office.id, first.id);
    expectError(
      await appoint(office.id, { memberId: second.id, startDate: "2025-01-01T00:00:00.000Z" }),
      409,
      "CONFLICT",
    );

    expect((await endHolder(office.id, holder.id)).status).toBe(200);

    const successor = await appointed(office.id, second.id);
    expect(successor.isActive).toBe(true);
    expect(await activeHolders(office.id)).toBe(1);
  });
});

describe("GET /offices/{id}/holders", () => {
  let office: Office;
  let holders: Holder[];
  let surnames: string[];

  beforeAll(async () => {
    office = await createOffice();
    surnames = [unique("Aquino"), unique("Bautista"), unique("Castillo"), unique("Dimaculangan")];
    holders = [];
    for (const lastName of surnames) {
      const member = await approvedMember("Jose", lastName);
      holders.push(await appointed(office.id, member.id));
    }
    // The second appointment (Bautista) ends.
    expect((await endHolder(office.id, holders[1].id)).status).toBe(200);
  });

  it("lists the active holders only by default, newest appointment first", async () => {
    const response = await holdersOf(office.id, {}, reader);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect(idsOf(response)).toEqual([holders[3].id, holders[2].id, holders[0].id]);
    for (const holder of response.body.data as Holder[]) {
      expect(Object.keys(holder).sort()).toEqual(HOLDER_KEYS);
      expect(Object.keys(holder.member).sort()).toEqual(["id", "name"]);
      expect(holder.isActive).toBe(true);
    }
    expect(response.body.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 3,
      limit: 10,
      hasNextPage: false,
      hasPreviousPage: false,
    });
  });

  it("includes ended appointments with includeEnded=true", async () => {
    const response = await holdersOf(office.id, { includeEnded: true });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([...holders].reverse().map((holder) => holder.id));
    const ended = (response.body.data as Holder[]).find((holder) => holder.id === holders[1].id)!;
    expect(ended.isActive).toBe(false);
    expect(ended.endedAt).not.toBeNull();
    expect(response.body.pagination.totalCount).toBe(4);
  });

  it("pages the list", async () => {
    const first = await holdersOf(office.id, { includeEnded: true, limit: 3, page: 1 });
    const second = await holdersOf(office.id, { includeEnded: true, limit: 3, page: 2 });
    expect(idsOf(first)).toEqual([holders[3].id, holders[2].id, holders[1].id]);
    expect(idsOf(second)).toEqual([holders[0].id]);
    expect(first.body.pagination).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: 4,
      limit: 3,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    expect(second.body.pagination).toMatchObject({
      currentPage: 2,
      hasNextPage: false,
      hasPreviousPage: true,
    });
  });

  it("searches by the holder's name, case-insensitively", async () => {
    const castillo = await holdersOf(office.id, { search: surnames[2].toUpperCase() });
    expect(idsOf(castillo)).toEqual([holders[2].id]);
    const endedBautista = await holdersOf(office.id, { search: surnames[1] });
    expect(idsOf(endedBautista)).toEqual([]);
    const withEnded = await holdersOf(office.id, { search: surnames[1], includeEnded: true });
    expect(idsOf(withEnded)).toEqual([holders[1].id]);
    const byFirstName = await holdersOf(office.id, { search: "jose" });
    expect(byFirstName.body.pagination.totalCount).toBe(3);
  });

  it("answers 404 for an unknown office", async () => {
    expectError(await holdersOf(UNKNOWN_ID), 404, "NOT_FOUND");
  });
});

describe("GET /members/{id}/offices", () => {
  it("lists the member's appointments across offices, ended ones with includeEnded", async () => {
    const member = await approvedMember();
    const chaplaincy = await createOffice({ level: "BARANGAY_CHAPLAIN" });
    const directorate = await createOffice({ level: "REGIONAL_CHAPLAIN_DIRECTOR" });
    const former = await createOffice({ level: "MUNICIPAL_CHAPLAIN" });
    const first = await appointed(chaplaincy.id, member.id);
    const second = await appointed(directorate.id, member.id);
    const third = await appointed(former.id, member.id);
    expect((await endHolder(former.id, third.id)).status).toBe(200);

    const active = await officesOf(member.id, {}, member.user);
    expect(active.status).toBe(200);
    expect(idsOf(active)).toEqual([second.id, first.id]);
    expect(active.body.data[0]).toMatchObject({
      office: { id: directorate.id, name: directorate.name, level: "REGIONAL_CHAPLAIN_DIRECTOR" },
      member: { id: member.id, name: member.name },
    });
    expect(active.body.data[1].office).toEqual({
      id: chaplaincy.id,
      name: chaplaincy.name,
      level: "BARANGAY_CHAPLAIN",
    });

    const all = await officesOf(member.id, { includeEnded: true });
    expect(idsOf(all)).toEqual([third.id, second.id, first.id]);
    expect(all.body.pagination.totalCount).toBe(3);
    const paged = await officesOf(member.id, { includeEnded: true, limit: 1, page: 2 });
    expect(idsOf(paged)).toEqual([second.id]);
  });

  it("gives an empty page for a member who never held an office", async () => {
    const member = await pendingMember();
    const response = await officesOf(member.id);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.pagination.totalCount).toBe(0);
  });

  it("answers 404 for an unknown member record", async () => {
    expectError(await officesOf(UNKNOWN_ID), 404, "NOT_FOUND");
  });
});

describe("rules tying holders to member records, offices and accounts", () => {
  it("refuses to archive a member record that holds an office until the term ends", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id);
    const archive = () => api().patch(`${MEMBERS}/${member.id}/archive`).set(bearer(admin));

    expectError(await archive(), 409, "CONFLICT");
    const record = await rawDb(app).members.findById(member.id).lean();
    expect(record?.archivedAt).toBeNull();

    expect((await endHolder(office.id, holder.id)).status).toBe(200);
    const archived = await archive();
    expect(archived.status).toBe(200);
    expect(archived.body.data.archivedAt).not.toBeNull();
  });

  it("lets a record whose term has passed its end date be archived, with no read of offices between", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const now = officesNow(app).getTime();
    await appointed(office.id, member.id, {
      startDate: new Date(now - 86_400_000).toISOString(),
      endDate: new Date(now + 60_000).toISOString(),
    });
    const archive = () => api().patch(`${MEMBERS}/${member.id}/archive`).set(bearer(admin));
    expectError(await archive(), 409, "CONFLICT");

    app.internals.clock.advance(61);
    const archived = await archive();
    expect(archived.status).toBe(200);
    expect(await activeHolders(office.id)).toBe(0);
  });

  it("refuses to move a holder's record away from APPROVED until the term ends", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id);

    for (const status of ["REJECTED", "PENDING"]) {
      expectError(await setStatus(member.id, status), 409, "CONFLICT");
    }
    const record = await rawDb(app).members.findById(member.id).lean();
    expect(record?.status).toBe("APPROVED");

    expect((await endHolder(office.id, holder.id)).status).toBe(200);
    const changed = await setStatus(member.id, "REJECTED");
    expect(changed.status).toBe(200);
    expect(changed.body.data.status).toBe("REJECTED");
  });

  it("refuses to delete an office with an active holder; after ending, 204 and its holders are gone", async () => {
    const office = await createOffice();
    const member = await approvedMember();
    const holder = await appointed(office.id, member.id);
    const remove = () => api().delete(`${OFFICES}/${office.id}`).set(bearer(admin));

    expectError(await remove(), 409, "CONFLICT");
    expect(await activeHolders(office.id)).toBe(1);

    expect((await endHolder(office.id, holder.id)).status).toBe(200);
    const deleted = await remove();
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");

    expectError(await holdersOf(office.id, { includeEnded: true }), 404, "NOT_FOUND");
    expect(await storedHolders(office.id)).toBe(0);
    const history = await officesOf(member.id, { includeEnded: true });
    expect(history.body.data).toEqual([]);
  });

  it("removes the appointments of a deleted account along with its member record", async () => {
    const office = await createOffice({ maxSlots: 1 });
    const other = await createOffice();
    const [leaving, successor] = await approvedMembers(2, "Leaving");
    await appointed(office.id, leaving.id);
    await appointed(other.id, leaving.id);
    expect(await activeHolders(office.id)).toBe(1);

    const erased = await api().delete(`/api/v1/users/${leaving.user.id}`).set(bearer(admin));
    expect(erased.status).toBe(204);

    expect(await activeHolders(office.id)).toBe(0);
    expect(await activeHolders(other.id)).toBe(0);
    expect(await storedHolders(office.id)).toBe(0);
    expect(await storedHolders(other.id)).toBe(0);
    expectError(await officesOf(leaving.id), 404, "NOT_FOUND");
    const list = await holdersOf(office.id, { includeEnded: true });
    expect(list.body.data).toEqual([]);
    // The freed slot can be filled.
    await appointed(office.id, successor.id);
  });
});

describe("roles", () => {
  let office: Office;
  let member: Member;
  let holder: Holder;

  beforeAll(async () => {
    office = await createOffice({ maxSlots: 5 });
    member = await approvedMember();
    holder = await appointed(office.id, member.id);
  });

  it("answers 401 to anonymous callers on all four routes", async () => {
    const other = await approvedMember();
    const responses = [
      await appoint(office.id, { memberId: other.id, startDate: "2025-01-01T00:00:00.000Z" }, null),
      await holdersOf(office.id, {}, null),
      await endHolder(office.id, holder.id, null),
      await officesOf(member.id, {}, null),
    ];
    for (const response of responses) expectError(response, 401, "UNAUTHENTICATED");
    expect(await storedHolders(office.id)).toBe(1);
    expect(await activeHolders(office.id)).toBe(1);
  });

  it("lets a MEMBER read holders and a member's offices", async () => {
    const holders = await holdersOf(office.id, {}, reader);
    expect(holders.status).toBe(200);
    expect(idsOf(holders)).toEqual([holder.id]);
    const offices = await officesOf(member.id, {}, reader);
    expect(offices.status).toBe(200);
    expect(idsOf(offices)).toEqual([holder.id]);
  });

  it("answers 403 to a MEMBER who appoints or ends, changing nothing", async () => {
    const other = await approvedMember();
    expectError(
      await appoint(
        office.id,
        { memberId: other.id, startDate: "2025-01-01T00:00:00.000Z" },
        reader,
      ),
      403,
      "FORBIDDEN",
    );
    expectError(
      await appoint(
        office.id,
        { memberId: member.id, startDate: "2025-01-01T00:00:00.000Z" },
        member.user,
      ),
      403,
      "FORBIDDEN",
    );
    expectError(await endHolder(office.id, holder.id, reader), 403, "FORBIDDEN");
    expectError(await endHolder(office.id, holder.id, member.user), 403, "FORBIDDEN");

    expect(await storedHolders(office.id)).toBe(1);
    const list = await holdersOf(office.id);
    expect(idsOf(list)).toEqual([holder.id]);
    expect(list.body.data[0]).toMatchObject({ isActive: true, endedAt: null });
  });
});
