/**
 * The renewals-by-month report against renewals the test made through the public API: sworn
 * members submit renewals, an administrator verifies two (one on an instance whose clock is 40
 * days on, so they fall in two months) and rejects one; every figure of the report, in JSON,
 * GraphQL and CSV, is the one the decisions' answers add up to.
 */
import { bearer, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import { startTestApp, type TestApp } from "../support/test-app";
import { API, oathDayEndingIn, swornMember } from "../support/membership-year";

// Each member is walked through onboarding by the API: slow on a shared machine.
jest.setTimeout(600_000);

/** Not the default fee, so the sums show they are the renewals' own amounts. */
const FEE = "750";
const LATER_DAYS = 40;

let app: TestApp;
let admin: TestUser;
/** The same database, the clock LATER_DAYS on. */
let later: TestApp;

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: { MEMBERSHIP_FEE_PHP: FEE } }));
  later = await startTestApp(
    {
      DB_NAME: app.config.dbName,
      MEMBERSHIP_FEE_PHP: FEE,
      TEST_CLOCK_OFFSET_SECONDS: String(LATER_DAYS * 24 * 3600),
    },
    undefined,
    { keepDatabase: true },
  );
}, 120_000);
afterAll(async () => {
  await later?.close();
  await app?.close();
});

type Decided = { status: string; amount: number; decidedAt: string };
type MonthRow = { month: string; count: number; total: number };

async function submitRenewal(member: TestUser): Promise<string> {
  const submitted = await app
    .http()
    .post(`${API}/members/current/renewal`)
    .set(bearer(member))
    .send({ paymentMethod: "CASH" });
  expect(submitted.status).toBe(201);
  return submitted.body.data.id as string;
}

async function decide(instance: TestApp, id: string, status: string): Promise<Decided> {
  const decided = await instance
    .http()
    .patch(`${API}/renewals/${id}`)
    .set(bearer(admin))
    .send({ status, note: status === "REJECTED" ? "The receipt is not ours" : "Paid" });
  expect(decided.status).toBe(200);
  return decided.body.data as Decided;
}

/** What the verified renewals add up to, a row per month (Asia/Manila) of their decision. */
function monthsOf(decisions: Decided[], upTo: Date): MonthRow[] {
  const rows = new Map<string, MonthRow>();
  for (const decision of decisions) {
    const at = new Date(decision.decidedAt);
    if (decision.status !== "VERIFIED" || at > upTo) continue;
    const month = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 7);
    const row = rows.get(month) ?? { month, count: 0, total: 0 };
    row.count += 1;
    row.total += decision.amount;
    rows.set(month, row);
  }
  return [...rows.values()].sort((a, b) => a.month.localeCompare(b.month));
}

async function expectReport(instance: TestApp, rows: MonthRow[]) {
  const rest = await instance.http().get(`${API}/reports/renewals-by-month`).set(bearer(admin));
  expect(rest.status).toBe(200);
  expect(rest.body.data).toEqual(rows);
  const graphql = await instance
    .http()
    .post("/graphql")
    .set(bearer(admin))
    .send({
      query:
        "{ reports { renewalsByMonth { month count total } } " +
        "renewalsByMonthReport { data { month count total } } }",
    });
  expect(graphql.body.errors).toBeUndefined();
  expect(graphql.body.data.reports.renewalsByMonth).toEqual(rows);
  expect(graphql.body.data.renewalsByMonthReport.data).toEqual(rows);
  const csv = await instance
    .http()
    .get(`${API}/reports/renewals-by-month?format=csv`)
    .set(bearer(admin));
  expect(csv.text).toBe(
    "\uFEFFmonth,count,total\r\n" +
      rows.map((row) => `${row.month},${row.count},${row.total}\r\n`).join(""),
  );
}

describe("the renewals report", () => {
  it("counts and sums exactly the renewals verified, by month of verification", async () => {
    // Three members whose year ends in 20 days: their renewal window is open.
    const members: TestUser[] = [];
    for (let i = 0; i < 3; i += 1) {
      members.push((await swornMember(app, admin, oathDayEndingIn(20))).user);
    }
    const [now, afterEnd, refused] = await Promise.all(members.map(submitRenewal));
    await expectReport(app, []);

    const decisions = [
      await decide(app, now, "VERIFIED"),
      await decide(app, refused, "REJECTED"),
      // Verified 40 days on, after the year ended: another month.
      await decide(later, afterEnd, "VERIFIED"),
    ];
    expect(decisions.map((decision) => decision.amount)).toEqual([750, 750, 750]);

    // Each instance reports up to its own today: the first does not see the later decision.
    const thisMonth = monthsOf(decisions, new Date());
    expect(thisMonth).toEqual([expect.objectContaining({ count: 1, total: 750 })]);
    await expectReport(app, thisMonth);
    const both = monthsOf(decisions, new Date(Date.now() + LATER_DAYS * 24 * 3600_000));
    expect(both).toHaveLength(2);
    await expectReport(later, both);
  });
});
