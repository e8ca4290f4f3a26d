import { approvedMemberOf, applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import { OnboardingStep } from "../../src/modules/onboarding/onboarding-steps";
import type { TestApp } from "../support/test-app";

const API = "/api/v1";
const CEBU = "Region VII (Central Visayas)";
const NCR = "National Capital Region (NCR)";

let app: TestApp;
let admin: TestUser;
const thisMonth = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);

beforeAll(async () => {
  ({ app, admin } = await startScenario());
}, 90_000);
afterAll(() => app?.close());

const get = (path: string) => app.http().get(`${API}${path}`).set(bearer(admin));

type FreeSlot = { date: string; timeSlot: string };
const DAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

/** Books the member into the interviewer's first free slot; answers the interviewer's id. */
async function book(member: TestUser, interviewerKey: string): Promise<string> {
  const list = await app.http().get(`${API}/interviewers`).set(bearer(member));
  const interviewer = (
    list.body.data as { id: string; key: string; nextFree: FreeSlot[] }[]
  ).find((candidate) => candidate.key === interviewerKey)!;
  const [slot] = interviewer.nextFree;
  const day = DAYS[new Date(`${slot.date}T00:00:00Z`).getUTCDay()];
  const booked = await app
    .http()
    .put(`${API}/members/current/online-interview`)
    .set(bearer(member))
    .send({ interviewerId: interviewer.id, day, timeSlot: slot.timeSlot });
  expect(booked.status).toBe(200);
  return interviewer.id;
}

describe("reports", () => {
  it("counts exactly the records the test made, in JSON, GraphQL and CSV", async () => {
    // Members: three approved in Cebu, one in NCR, one archived, one pending, one rejected.
    const cebu = [];
    for (let i = 0; i < 3; i += 1) cebu.push(await approvedMemberOf(app, admin, { region: CEBU }));
    const ncr = await approvedMemberOf(app, admin, { region: NCR });
    const archived = await approvedMemberOf(app, admin, { region: NCR });
    await app
      .http()
      .patch(`${API}/members/${archived.id}/archive`)
      .set(bearer(admin))
      .expect(200);
    await applyAs(app, await buildUser(app));
    const rejected = await applyAs(app, await buildUser(app));
    await app
      .http()
      .patch(`${API}/members/${rejected.id}/status`)
      .set(bearer(admin))
      .send({ status: "REJECTED", reason: "Incomplete" })
      .expect(200);

    // Payments: two verified (the fee, 500 each), one submitted only.
    for (const member of [cebu[0], cebu[1], ncr]) {
      await app
        .http()
        .put(`${API}/members/current/payment-checkout`)
        .set(bearer(member.user))
        .send({ paymentMethod: "CASH" })
        .expect(200);
    }
    for (const member of [cebu[0], cebu[1]]) {
      await app
        .http()
        .patch(`${API}/members/${member.id}/payment`)
        .set(bearer(admin))
        .send({ status: "VERIFIED" })
        .expect(200);
    }

    // Interviews: two with one interviewer (one passed), one with another.
    const rodel = await book(cebu[0].user, "ptr-rodel");
    await book(cebu[1].user, "ptr-rodel");
    const maria = await book(ncr.user, "ptr-maria");
    await app
      .http()
      .patch(`${API}/members/${cebu[0].id}/interview`)
      .set(bearer(admin))
      .send({ outcome: "PASSED" })
      .expect(200);

    const byStatus = await get("/reports/members-by-status");
    expect(byStatus.status).toBe(200);
    expect(byStatus.body.data).toEqual([
      { key: "APPROVED", count: 4 },
      { key: "PENDING", count: 1 },
      { key: "REJECTED", count: 1 },
    ]);
    // Regions are kept under their official names, whatever form the application used.
    expect((await get("/reports/members-by-region")).body.data).toEqual([
      { key: "Central Visayas", count: 3 },
      { key: "National Capital Region", count: 1 },
    ]);
    expect((await get("/reports/members-by-approval-month")).body.data).toEqual([
      { key: thisMonth(), count: 5 },
    ]);
    // The four approved and active members are at the first step; no one has moved past one
    // (tests/reports/onboarding-funnel.test.ts times the steps).
    expect((await get("/reports/onboarding-funnel")).body.data).toEqual(
      Object.values(OnboardingStep).map((step) => ({
        step,
        members: step === OnboardingStep.REQUIREMENTS ? 4 : 0,
        finished: 0,
        medianDays: null,
      })),
    );
    expect((await get("/reports/payments-by-month")).body.data).toEqual([
      { month: thisMonth(), count: 2, total: 1000 },
    ]);
    expect((await get("/reports/renewals-by-month")).body.data).toEqual([]);
    const interviews = (await get("/reports/interviews-by-interviewer")).body.data;
    expect(interviews).toEqual(
      expect.arrayContaining([
        { interviewerId: rodel, interviewer: expect.any(String), outcome: "PASSED", count: 1 },
        { interviewerId: rodel, interviewer: expect.any(String), outcome: "PENDING", count: 1 },
        { interviewerId: maria, interviewer: expect.any(String), outcome: "PENDING", count: 1 },
      ]),
    );
    expect(interviews).toHaveLength(3);

    // The same through GraphQL, in one query.
    const graphql = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({
        query:
          "{ reports { membersByStatus { key count } paymentsByMonth { month count total } " +
          "renewalsByMonth { month } interviewsByInterviewer { interviewerId outcome count } } }",
      });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.reports.membersByStatus).toEqual(byStatus.body.data);
    expect(graphql.body.data.reports.paymentsByMonth).toEqual([
      { month: thisMonth(), count: 2, total: 1000 },
    ]);
    expect(graphql.body.data.reports.interviewsByInterviewer).toHaveLength(3);

    // And as CSV, by query or by Accept.
    const csv = await get("/reports/members-by-status?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.text).toBe("\uFEFFkey,count\r\nAPPROVED,4\r\nPENDING,1\r\nREJECTED,1\r\n");
    const accepted = await get("/reports/payments-by-month").set("accept", "text/csv");
    expect(accepted.text).toBe(`\uFEFFmonth,count,total\r\n${thisMonth()},2,1000\r\n`);
  }, 180_000);

  it("is for administrators only, as JSON and as CSV", async () => {
    const member = await buildUser(app);
    for (const path of ["/reports", "/reports/members-by-status", "/reports/members-by-status?format=csv"]) {
      expect((await app.http().get(`${API}${path}`).set(bearer(member))).status).toBe(403);
      expect((await app.http().get(`${API}${path}`)).status).toBe(401);
    }
  });
});
