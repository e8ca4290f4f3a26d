import { formatUniqueId, manilaYear, UNIQUE_ID_PATTERN } from "../../src/modules/members/unique-id";
import {
  firstOpenStep,
  OnboardingStep,
  refusalOfMove,
  STEP_ORDER,
} from "../../src/modules/onboarding/onboarding-steps";
import { stepStates, type OnboardingSnapshot } from "../../src/modules/onboarding/step-rules";

const nothingDone: OnboardingSnapshot = {
  photo2x2: "MISSING",
  preOrientation: { completed: false, remainingTitles: ["A", "B", "C"] },
  payment: null,
  interview: null,
  assetsGenerated: false,
  chaplaincy: { completed: false, remainingTitles: ["X"], unanswered: 10 },
  oathRecorded: false,
};

const everythingDone: OnboardingSnapshot = {
  photo2x2: "APPROVED",
  preOrientation: { completed: true, remainingTitles: [] },
  payment: "VERIFIED",
  interview: "PASSED",
  assetsGenerated: true,
  chaplaincy: { completed: true, remainingTitles: [], unanswered: 0 },
  oathRecorded: true,
};

describe("uniqueId", () => {
  it("pads the running number to five digits and keeps more when the year needs them", () => {
    expect(formatUniqueId(2026, 1)).toBe("POI-2026-00001");
    expect(formatUniqueId(2026, 42)).toBe("POI-2026-00042");
    expect(formatUniqueId(2027, 123456)).toBe("POI-2027-123456");
    expect(formatUniqueId(2026, 7)).toMatch(UNIQUE_ID_PATTERN);
    expect(() => formatUniqueId(2026, 0)).toThrow(RangeError);
  });

  it("takes the year in Asia/Manila (UTC+8), not UTC", () => {
    expect(manilaYear(new Date("2026-12-31T15:59:59Z"))).toBe(2026);
    expect(manilaYear(new Date("2026-12-31T16:00:00Z"))).toBe(2027);
    expect(manilaYear(new Date("2027-01-01T00:00:00+08:00"))).toBe(2027);
  });
});

describe("step states", () => {
  it("lists the steps in the wizard's order", () => {
    expect(stepStates(nothingDone).map((state) => state.step)).toEqual(STEP_ORDER);
    expect(STEP_ORDER[0]).toBe(OnboardingStep.REQUIREMENTS);
    expect(STEP_ORDER.at(-1)).toBe(OnboardingStep.OATH_TAKING);
  });

  it("says what each step misses in sentences a person can act on", () => {
    const states = stepStates(nothingDone);
    expect(states.every((state) => !state.done)).toBe(true);
    const missing = Object.fromEntries(states.map((state) => [state.step, state.missing]));
    expect(missing.REQUIREMENTS).toEqual(["Upload your 2x2 photo"]);
    expect(missing.PRE_ORIENTATION).toEqual([
      'Complete the pre-orientation lessons "A", "B" and 1 more',
    ]);
    expect(missing.PAYMENT_CHECKOUT).toEqual(["Submit your membership fee payment"]);
    expect(missing.ONLINE_INTERVIEW).toEqual(["Book your online interview"]);
    expect(missing.ID_GENERATION).toContain("Wait for an administrator to verify your payment");
    expect(missing.CHAPLAINCY_101).toContain("Answer the 10 remaining essay questions");
    expect(missing.OATH_TAKING).toContain("Pass your online interview");
  });

  it("a rejected photo or payment asks for a new one; a pending photo counts", () => {
    const states = stepStates({ ...everythingDone, photo2x2: "REJECTED", payment: "REJECTED" });
    expect(states[0].missing[0]).toMatch(/not accepted: upload a new one/);
    expect(states[2].missing[0]).toMatch(/not accepted: submit it again/);
    expect(stepStates({ ...everythingDone, photo2x2: "PENDING" })[0].done).toBe(true);
  });

  it("marks every step done when everything is", () => {
    expect(stepStates(everythingDone).every((state) => state.done)).toBe(true);
    expect(firstOpenStep(stepStates(everythingDone))).toBe(OnboardingStep.OATH_TAKING);
    expect(firstOpenStep(stepStates(nothingDone))).toBe(OnboardingStep.REQUIREMENTS);
  });
});

describe("moving between steps", () => {
  const states = stepStates({ ...nothingDone, photo2x2: "PENDING" });

  it("allows staying, going back and the next step when the earlier ones are done", () => {
    expect(refusalOfMove(states, OnboardingStep.REQUIREMENTS)).toBeNull();
    expect(refusalOfMove(states, OnboardingStep.PRE_ORIENTATION)).toBeNull();
  });

  it("refuses a jump naming the first thing missing, as an instruction", () => {
    expect(refusalOfMove(stepStates(nothingDone), OnboardingStep.PRE_ORIENTATION)).toBe(
      "Upload your 2x2 photo first",
    );
    expect(refusalOfMove(states, OnboardingStep.OATH_TAKING)).toBe(
      'Complete the pre-orientation lessons "A", "B" and 1 more first',
    );
  });
});
