import type { InterviewOutcome } from "./onboarding-facts";
import { OnboardingStep, type StepState } from "./onboarding-steps";

export type PaymentStatus = "SUBMITTED" | "VERIFIED" | "REJECTED";

/** What the step rules read of a member's onboarding, gathered from every module. */
export interface OnboardingSnapshot {
  photo2x2: "MISSING" | "PENDING" | "APPROVED" | "REJECTED";
  preOrientation: { completed: boolean; remainingTitles: string[] };
  payment: PaymentStatus | null;
  interview: InterviewOutcome | null;
  assetsGenerated: boolean;
  chaplaincy: { completed: boolean; remainingTitles: string[]; unanswered: number };
  oathRecorded: boolean;
}

/** At most this many lesson titles are named in one sentence; the rest are counted. */
const NAMED_TITLES = 2;

function remainingLessons(course: string, titles: string[]): string {
  if (titles.length === 0) return `Mark the ${course} as completed`;
  const named = titles.slice(0, NAMED_TITLES).map((title) => `"${title}"`);
  const more = titles.length - named.length;
  return `Complete the ${course} lesson${titles.length === 1 ? "" : "s"} ${named.join(", ")}${
    more > 0 ? ` and ${more} more` : ""
  }`;
}

/** Each step, done or with what it still misses (what marks it done), in order. */
export function stepStates(s: OnboardingSnapshot): StepState[] {
  const requirements: string[] = [];
  if (s.photo2x2 === "MISSING") requirements.push("Upload your 2x2 photo");
  if (s.photo2x2 === "REJECTED") {
    requirements.push("Your 2x2 photo was not accepted: upload a new one");
  }

  const preOrientation = s.preOrientation.completed
    ? []
    : [remainingLessons("pre-orientation", s.preOrientation.remainingTitles)];

  const payment: string[] = [];
  if (s.payment === null) payment.push("Submit your membership fee payment");
  if (s.payment === "REJECTED") {
    payment.push("Your payment was not accepted: submit it again");
  }

  const interview = s.interview === null ? ["Book your online interview"] : [];

  const idGeneration: string[] = [];
  if (s.payment !== "VERIFIED") {
    idGeneration.push("Wait for an administrator to verify your payment");
  }
  if (!s.assetsGenerated) idGeneration.push("Generate your ID card and certificate");

  const chaplaincy: string[] = [];
  if (!s.chaplaincy.completed) {
    if (s.chaplaincy.remainingTitles.length > 0 || s.chaplaincy.unanswered === 0) {
      chaplaincy.push(remainingLessons("Chaplaincy 101", s.chaplaincy.remainingTitles));
    }
    if (s.chaplaincy.unanswered > 0) {
      const n = s.chaplaincy.unanswered;
      chaplaincy.push(`Answer the ${n} remaining essay question${n === 1 ? "" : "s"}`);
    }
  }

  const oath: string[] = [];
  if (s.interview !== "PASSED") oath.push("Pass your online interview");
  if (!s.oathRecorded) oath.push("Take your oath with an administrator");

  const rows: [OnboardingStep, string[]][] = [
    [OnboardingStep.REQUIREMENTS, requirements],
    [OnboardingStep.PRE_ORIENTATION, preOrientation],
    [OnboardingStep.PAYMENT_CHECKOUT, payment],
    [OnboardingStep.ONLINE_INTERVIEW, interview],
    [OnboardingStep.ID_GENERATION, idGeneration],
    [OnboardingStep.CHAPLAINCY_101, chaplaincy],
    [OnboardingStep.OATH_TAKING, oath],
  ];
  return rows.map(([step, missing]) => ({ step, done: missing.length === 0, missing }));
}
