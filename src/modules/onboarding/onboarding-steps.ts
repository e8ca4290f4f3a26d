import { registerEnumType } from "type-graphql";

/** The organisation's wizard, in order: the site shows these steps in this order. */
export enum OnboardingStep {
  REQUIREMENTS = "REQUIREMENTS",
  PRE_ORIENTATION = "PRE_ORIENTATION",
  PAYMENT_CHECKOUT = "PAYMENT_CHECKOUT",
  ONLINE_INTERVIEW = "ONLINE_INTERVIEW",
  ID_GENERATION = "ID_GENERATION",
  CHAPLAINCY_101 = "CHAPLAINCY_101",
  OATH_TAKING = "OATH_TAKING",
}

registerEnumType(OnboardingStep, {
  name: "OnboardingStep",
  description: "A step of the onboarding wizard, in the order the member walks them",
});

export const STEP_ORDER: readonly OnboardingStep[] = Object.values(OnboardingStep);

/** One step as the progress shows it: done, or what the member still has to do. */
export interface StepState {
  step: OnboardingStep;
  done: boolean;
  /** Sentences a person can act on ("Upload your 2x2 photo"); empty when done. */
  missing: string[];
}

/**
 * Whether the member may move from wherever they are to `target`: back (or staying) is always
 * allowed, forward only when every step before `target` is done. Answers null when allowed,
 * else the sentence the 409 shows ("Upload your 2x2 photo first").
 */
export function refusalOfMove(states: readonly StepState[], target: OnboardingStep): string | null {
  const before = STEP_ORDER.slice(0, STEP_ORDER.indexOf(target));
  for (const step of before) {
    const state = states.find((candidate) => candidate.step === step);
    if (!state || state.done) continue;
    const first = state.missing[0] ?? `Finish the ${stepLabel(step)} step`;
    return `${first.replace(/[.\s]+$/, "")} first`;
  }
  return null;
}

/** "PAYMENT_CHECKOUT" → "payment checkout", for messages. */
export function stepLabel(step: OnboardingStep): string {
  return step.toLowerCase().replace(/_/g, " ");
}

/** The first step that is not done (the one an administrator's list shows), or the last. */
export function firstOpenStep(states: readonly StepState[]): OnboardingStep {
  return states.find((state) => !state.done)?.step ?? STEP_ORDER[STEP_ORDER.length - 1];
}
