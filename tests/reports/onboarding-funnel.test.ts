/**
 * The onboarding funnel's figures against steps the test made members take at known times:
 * instances of the service on one database with the clock moved on (TEST_CLOCK_OFFSET_SECONDS)
 * move members on 2 and 5 days after their approval; every figure is compared, in JSON,
 * GraphQL and CSV, with and without a range, and a bad range is a 400.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { upload } from "../support/file-samples";
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import { startTestApp, type TestApp } from "../support/test-app";
import { STEP_ORDER } from "../../src/modules/onboarding/onboarding-steps";

jest.setTimeout(300_000);

const API = "/api/v1";
const DAY_S = 24 * 3600;
const PHOTO = readFileSync(path.join(__dirname, "../fixtures/photos/portrait-2x2.jpg"));
/** The funnel lists every step in the wizard's order (tests/onboarding/progress.test.ts). */
const STEPS = STEP_ORDER;

let app: TestApp;
let admin: TestUser;
/** The same database, the clock 2 and 5 days on. */
let later: Record<2 | 5, TestApp>;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
  const at = (days: number) =>
    startTestApp(
      { DB_NAME: app.config.dbName, TEST_CLOCK_OFFSET_SECONDS: String(days * DAY_S) },
      undefined,
      { keepDatabase: true },
    );
  later = { 2: await at(2), 5: await at(5) };
}, 120_000);
afterAll(async () => {
  for (const instance of Object.values(later ?? {})) await instance.close();
  await app?.close();
});

/** The Manila calendar day `days` from now. */
const manilaDay = (days: number) =>
  new Date(Date.now() + days * DAY_S * 1000 + 8 * 3600_000).toISOString().slice(0, 10);

type Row = { step: string; members: number; finished: number; medianDays: number | null };

/** The funnel the test expects: every step with nothing, except what `rows` names. */
function expected(rows: Record<string, Partial<Row>>): Row[] {
  return STEPS.map((step) => ({ step, members: 0, finished: 0, medianDays: null, ...rows[step] }));
}

async function moveTo(instance: TestApp, member: TestUser, step: string) {
  const moved = await instance
    .http()
    .put(`${API}/members/current/onboarding-progress/step`)
    .set(bearer(member))
    .send({ currentStep: step });
  expect(moved.status).toBe(200);
  expect(moved.body.data.currentStep).toBe(step);
}

async function attachPhoto(member: TestUser) {
  const photo = await upload(app, member, PHOTO, { filename: "photo.jpg" });
  expect(photo.status).toBe(201);
  const attached = await app
    .http()
    .put(`${API}/members/current/requirements`)
    .set(bearer(member))
    .send({ attachments: [{ type: "PHOTO_2X2", fileId: photo.body.data.id as string }] });
  expect(attached.status).toBe(200);
}

async function finishPreOrientation(member: TestUser) {
  const lessons = await app.http().get(`${API}/lessons?course=PRE_ORIENTATION`).set(bearer(member));
  const done = await app
    .http()
    .put(`${API}/members/current/onboarding-progress/pre-orientation`)
    .set(bearer(member))
    .send({
      completedLessonIds: (lessons.body.data as { id: number }[]).map((lesson) => lesson.id),
      isCompleted: true,
    });
  expect(done.status).toBe(200);
}

const funnel = (instance: TestApp, query = "") =>
  instance.http().get(`${API}/reports/onboarding-funnel${query}`).set(bearer(admin));

describe("the onboarding funnel", () => {
  it("gives members at each step now and the median days each step took, over a range", async () => {
    // Three approved now; two attach their photo (the first step done), one waits.
    const [first, second] = [
      await approvedMemberOf(app, admin),
      await approvedMemberOf(app, admin),
      await approvedMemberOf(app, admin),
    ];
    await attachPhoto(first.user);
    await attachPhoto(second.user);

    // The first moves on 2 days after approval, the second 5 days after.
    await moveTo(later[2], first.user, "PRE_ORIENTATION");
    await moveTo(later[5], second.user, "PRE_ORIENTATION");
    // Day 5: the first leaves pre-orientation after 3 days; the second finishes it and pays
    // at once and jumps to the interview (0 days at pre-orientation and at the payment).
    await finishPreOrientation(first.user);
    await moveTo(later[5], first.user, "PAYMENT_CHECKOUT");
    await finishPreOrientation(second.user);
    const paid = await app
      .http()
      .put(`${API}/members/current/payment-checkout`)
      .set(bearer(second.user))
      .send({ paymentMethod: "CASH" });
    expect(paid.status).toBe(200);
    await moveTo(later[5], second.user, "ONLINE_INTERVIEW");
    // Back and forward again: the steps keep their first times.
    await moveTo(later[5], first.user, "REQUIREMENTS");
    await moveTo(later[5], first.user, "PAYMENT_CHECKOUT");

    const now = { REQUIREMENTS: 1, PAYMENT_CHECKOUT: 1, ONLINE_INTERVIEW: 1 };
    const members = (step: keyof typeof now) => ({ members: now[step] });
    const everything = expected({
      REQUIREMENTS: { ...members("REQUIREMENTS"), finished: 2, medianDays: 3.5 },
      PRE_ORIENTATION: { finished: 2, medianDays: 1.5 },
      PAYMENT_CHECKOUT: { ...members("PAYMENT_CHECKOUT"), finished: 1, medianDays: 0 },
      ONLINE_INTERVIEW: members("ONLINE_INTERVIEW"),
    });
    // Without a range: every step left up to today, today as the service's clock reads it.
    const all = await funnel(later[5]);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual(everything);

    // Days 1 to 3: only the first member's first step; days 4 to 6: the rest.
    const early = await funnel(app, `?from=${manilaDay(1)}&to=${manilaDay(3)}`);
    expect(early.body.data).toEqual(
      expected({
        REQUIREMENTS: { ...members("REQUIREMENTS"), finished: 1, medianDays: 2 },
        PAYMENT_CHECKOUT: members("PAYMENT_CHECKOUT"),
        ONLINE_INTERVIEW: members("ONLINE_INTERVIEW"),
      }),
    );
    const lateRows = expected({
      REQUIREMENTS: { ...members("REQUIREMENTS"), finished: 1, medianDays: 5 },
      PRE_ORIENTATION: { finished: 2, medianDays: 1.5 },
      PAYMENT_CHECKOUT: { ...members("PAYMENT_CHECKOUT"), finished: 1, medianDays: 0 },
      ONLINE_INTERVIEW: members("ONLINE_INTERVIEW"),
    });
    const late = await funnel(app, `?from=${manilaDay(4)}&to=${manilaDay(6)}`);
    expect(late.body.data).toEqual(lateRows);
    // Before anyone moved: the counts now, no times.
    const before = await funnel(app, `?to=${manilaDay(0)}`);
    expect(before.body.data).toEqual(
      expected({
        REQUIREMENTS: members("REQUIREMENTS"),
        PAYMENT_CHECKOUT: members("PAYMENT_CHECKOUT"),
        ONLINE_INTERVIEW: members("ONLINE_INTERVIEW"),
      }),
    );

    // GraphQL, the range as arguments; and the whole report's part, which has no range.
    const graphql = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({
        query: `{ reports { onboardingFunnel(from: "${manilaDay(4)}", to: "${manilaDay(6)}") {
          step members finished medianDays } } }`,
      });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.reports.onboardingFunnel).toEqual(lateRows);
    const whole = await later[5].http().get(`${API}/reports`).set(bearer(admin));
    expect(whole.body.onboardingFunnel).toEqual(everything);

    // CSV: one line a step, an empty cell where no one took it.
    const csv = await funnel(later[5], "?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      "\uFEFFstep,members,finished,medianDays\r\n" +
        everything
          .map((row) => `${row.step},${row.members},${row.finished},${row.medianDays ?? ""}\r\n`)
          .join(""),
    );
  });

  it("refuses a range that ends before it begins, or a date that is none, with a 400", async () => {
    for (const query of [
      `?from=${manilaDay(3)}&to=${manilaDay(1)}`,
      "?from=2027-02-30",
      "?to=soon",
    ]) {
      for (const suffix of ["", "&format=csv"]) {
        const refused = await funnel(app, `${query}${suffix}`);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: "VALIDATION_ERROR" });
        expect(refused.body.message).toMatch(/^(from|to) must/);
      }
    }
    const graphql = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({ query: `{ reports { onboardingFunnel(from: "2027-03-05", to: "2027-03-04") { step } } }` });
    expect(graphql.body.errors?.[0]).toMatchObject({
      message: "to must be the same day as from or a later one",
      extensions: { code: "VALIDATION_ERROR" },
    });
  });
});
