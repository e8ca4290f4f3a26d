import { STEP_ORDER, type OnboardingStep } from "./onboarding-steps";

/** The first time a member moved past a step: the whole days they were at it, and when. */
export interface StepTaken {
  step: OnboardingStep;
  days: number;
  at: Date;
}

/** What a member record keeps of its onboarding's times. */
export interface StepTimes {
  /** When onboarding began (the approval that set the first step); null: not known. */
  startedAt: Date | null;
  taken: readonly StepTaken[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The steps a member moves past for the first time by going from `from` to `to` at `now`
 * ("DONE": past the last step, as the oath does), each with the whole days since they first
 * reached it. A step is first reached when the one before it is first moved past, the first
 * step when onboarding began; steps jumped over were reached and left at once (0 days). Moving
 * back adds nothing. Where a step's arrival is not known (a record approved before the times
 * were kept) it gets no time: nothing is guessed.
 */
export function stepsMovedPast(
  times: StepTimes,
  from: OnboardingStep,
  to: OnboardingStep | "DONE",
  now: Date,
): StepTaken[] {
  const end = to === "DONE" ? STEP_ORDER.length : STEP_ORDER.indexOf(to);
  const left = new Map(times.taken.map((entry) => [entry.step, entry.at]));
  const added: StepTaken[] = [];
  for (let index = STEP_ORDER.indexOf(from); index < end; index += 1) {
    const step = STEP_ORDER[index];
    const reached = index === 0 ? times.startedAt : left.get(STEP_ORDER[index - 1]);
    if (left.has(step) || !reached) continue;
    const days = Math.max(0, Math.floor((now.getTime() - reached.getTime()) / DAY_MS));
    added.push({ step, days, at: now });
    left.set(step, now);
  }
  return added;
}
