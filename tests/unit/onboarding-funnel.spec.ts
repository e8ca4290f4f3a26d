import { OnboardingStep as S } from "../../src/modules/onboarding/onboarding-steps";
import { stepsMovedPast, type StepTaken } from "../../src/modules/onboarding/step-times";
import { funnelOf, funnelRange, medianOf } from "../../src/modules/reports/onboarding-funnel";

const DAY = 24 * 3600 * 1000;
const start = new Date("2027-03-01T02:00:00Z");
const after = (days: number, hours = 0) =>
  new Date(start.getTime() + days * DAY + hours * 3600_000);

describe("the times of onboarding steps", () => {
  it("times the step left from its arrival, in whole days", () => {
    const taken = stepsMovedPast(
      { startedAt: start, taken: [] },
      S.REQUIREMENTS,
      S.PRE_ORIENTATION,
      after(3, 23),
    );
    expect(taken).toEqual([{ step: S.REQUIREMENTS, days: 3, at: after(3, 23) }]);
  });

  it("counts a step from the first move past the one before, and jumped steps as 0 days", () => {
    const times = { startedAt: start, taken: [{ step: S.REQUIREMENTS, days: 2, at: after(2) }] };
    expect(stepsMovedPast(times, S.PRE_ORIENTATION, S.ONLINE_INTERVIEW, after(7))).toEqual([
      { step: S.PRE_ORIENTATION, days: 5, at: after(7) },
      { step: S.PAYMENT_CHECKOUT, days: 0, at: after(7) },
    ]);
  });

  it("adds nothing moving back, or past a step already timed", () => {
    const taken: StepTaken[] = [
      { step: S.REQUIREMENTS, days: 1, at: after(1) },
      { step: S.PRE_ORIENTATION, days: 1, at: after(2) },
    ];
    const times = { startedAt: start, taken };
    expect(stepsMovedPast(times, S.PAYMENT_CHECKOUT, S.REQUIREMENTS, after(3))).toEqual([]);
    // Back at the first step, forward again: only the step never left before is timed.
    expect(stepsMovedPast(times, S.REQUIREMENTS, S.ONLINE_INTERVIEW, after(4))).toEqual([
      { step: S.PAYMENT_CHECKOUT, days: 2, at: after(4) },
    ]);
  });

  it("times every step left at the oath, the last one included", () => {
    const times = { startedAt: start, taken: [] };
    const taken = stepsMovedPast(times, S.REQUIREMENTS, "DONE", after(10));
    expect(taken.map((entry) => [entry.step, entry.days])).toEqual([
      [S.REQUIREMENTS, 10],
      [S.PRE_ORIENTATION, 0],
      [S.PAYMENT_CHECKOUT, 0],
      [S.ONLINE_INTERVIEW, 0],
      [S.ID_GENERATION, 0],
      [S.CHAPLAINCY_101, 0],
      [S.OATH_TAKING, 0],
    ]);
  });

  it("guesses nothing for a record whose start was not kept", () => {
    const times = { startedAt: null, taken: [] };
    expect(stepsMovedPast(times, S.PAYMENT_CHECKOUT, "DONE", after(10))).toEqual([]);
  });
});

describe("the funnel's figures", () => {
  it("takes the median of a histogram, the mean of the middle two for an even count", () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([{ value: 4, count: 1 }])).toBe(4);
    expect(
      medianOf([
        { value: 2, count: 1 },
        { value: 5, count: 1 },
      ]),
    ).toBe(3.5);
    expect(
      medianOf([
        { value: 9, count: 1 },
        { value: 1, count: 3 },
        { value: 4, count: 2 },
      ]),
    ).toBe(2.5);
    expect(
      medianOf([
        { value: 0, count: 2 },
        { value: 30, count: 1 },
      ]),
    ).toBe(0);
  });

  it("lists every step in order, with zeros where no one is or was", () => {
    const rows = funnelOf(
      [
        { key: S.PAYMENT_CHECKOUT, count: 4 },
        { key: S.REQUIREMENTS, count: 2 },
      ],
      [
        { step: S.REQUIREMENTS, days: 3, count: 2 },
        { step: S.REQUIREMENTS, days: 8, count: 1 },
      ],
    );
    expect(rows.map((row) => row.step)).toEqual(Object.values(S));
    expect(rows[0]).toEqual({ step: S.REQUIREMENTS, members: 2, finished: 3, medianDays: 3 });
    expect(rows[2]).toEqual({
      step: S.PAYMENT_CHECKOUT,
      members: 4,
      finished: 0,
      medianDays: null,
    });
  });

  it("reads the range as Manila days, both included, up to today by default", () => {
    const now = new Date("2027-03-10T20:00:00Z"); // 11 March in Manila
    expect(funnelRange({}, now)).toEqual({
      from: null,
      to: new Date("2027-03-11T16:00:00Z"),
    });
    expect(funnelRange({ from: "2027-03-01", to: "2027-03-01" }, now)).toEqual({
      from: new Date("2027-02-28T16:00:00Z"),
      to: new Date("2027-03-01T16:00:00Z"),
    });
  });

  it("refuses a range that ends before it begins, or a date that is none", () => {
    const now = new Date("2027-03-10T00:00:00Z");
    expect(() => funnelRange({ from: "2027-03-05", to: "2027-03-04" }, now)).toThrow(/^to must/);
    expect(() => funnelRange({ from: "2027-02-30" }, now)).toThrow(/^from must be a calendar/);
    expect(() => funnelRange({ to: ["2027-03-01"] }, now)).toThrow(/^to must be/);
  });
});
