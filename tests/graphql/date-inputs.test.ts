import { parseDateInput } from "../../src/graphql/date-time";
import {
  applyAs,
  approvedMemberOf,
  bearer,
  buildAdmin,
  buildOffice,
  buildUser,
  minimalApplication,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

describe("parseDateInput", () => {
  it("takes a calendar date as midnight UTC", () => {
    expect(parseDateInput("1985-06-12")?.toISOString()).toBe("1985-06-12T00:00:00.000Z");
    expect(parseDateInput("2024-02-29")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });

  it("takes a full ISO 8601 date-time, with Z or an offset", () => {
    expect(parseDateInput("2026-01-15T08:30:00Z")?.toISOString()).toBe("2026-01-15T08:30:00.000Z");
    expect(parseDateInput("2026-01-15T08:30:00+08:00")?.toISOString()).toBe(
      "2026-01-15T00:30:00.000Z",
    );
    expect(parseDateInput("2026-01-15T08:30:00.250Z")?.toISOString()).toBe(
      "2026-01-15T08:30:00.250Z",
    );
  });

  it("refuses what is neither, and dates not on the calendar", () => {
    for (const bad of [
      "12/06/1985",
      "1985-6-12",
      "2026-02-30",
      "2025-02-29",
      "2026-13-01",
      "2026-01-15T08:30",
      "June 12, 1985",
      "",
      42,
      null,
    ])
      expect(parseDateInput(bad)).toBeUndefined();
  });
});

/** The refusal names both accepted forms. */
const BOTH_FORMS = expect.stringMatching(/YYYY-MM-DD.*ISO 8601 date-time/);

describe("date arguments over HTTP", () => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await buildAdmin(app);
  });
  afterAll(() => app?.close());

  it("REST: an application takes a plain dateOfBirth and answers a full date-time", async () => {
    const applicant = await buildUser(app);
    const record = await applyAs(app, applicant, { dateOfBirth: "1985-06-12" });
    expect(record.dateOfBirth).toBe("1985-06-12T00:00:00.000Z");
  });

  it("REST: anything else is a VALIDATION_ERROR on the field naming both forms", async () => {
    const applicant = await buildUser(app);
    const response = await app
      .http()
      .post("/api/v1/members/apply")
      .set(bearer(applicant))
      .send(minimalApplication({ dateOfBirth: "12/06/1985" }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "dateOfBirth", message: BOTH_FORMS }],
    });
  });

  it("REST: a term takes plain start and end dates", async () => {
    const office = await buildOffice(app, admin);
    const member = await approvedMemberOf(app, admin);
    const response = await app
      .http()
      .post(`/api/v1/offices/${office.id}/holders`)
      .set(bearer(admin))
      .send({ memberId: member.id, startDate: "2026-01-15", endDate: "2027-01-14T23:59:59Z" });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      startDate: "2026-01-15T00:00:00.000Z",
      endDate: "2027-01-14T23:59:59.000Z",
    });
    const bad = await app
      .http()
      .post(`/api/v1/offices/${office.id}/holders`)
      .set(bearer(admin))
      .send({ memberId: member.id, startDate: "2026-02-30" });
    expect([bad.status, bad.body.errors]).toEqual([
      400,
      [{ path: "startDate", message: BOTH_FORMS }],
    ]);
  });

  it("/graphql: the same, through variables and inline", async () => {
    const office = await buildOffice(app, admin);
    const member = await approvedMemberOf(app, admin);
    const mutation = `mutation ($id: UUID!, $memberId: UUID!, $startDate: DateTimeISO!) {
      appointOfficeHolder(id: $id, memberId: $memberId, startDate: $startDate) { data { startDate } }
    }`;
    const send = (startDate: string, query = mutation) =>
      app
        .http()
        .post("/graphql")
        .set(bearer(admin))
        .send({ query, variables: { id: office.id, memberId: member.id, startDate } });
    const ok = await send("2026-03-01");
    expect(ok.body.data.appointOfficeHolder.data.startDate).toBe("2026-03-01T00:00:00.000Z");
    const bad = await send("March 1st");
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [{ path: "startDate", message: BOTH_FORMS }],
    });
    const audit = await send("", '{ auditLogs(from: "2026-01-01", limit: 1) { code } }');
    expect(audit.body).toMatchObject({ data: { auditLogs: { code: "OK" } } });
  });
});
