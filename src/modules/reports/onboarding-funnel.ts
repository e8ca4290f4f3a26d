import { DATE_INPUT_FORMS, parseDateInput } from "../../graphql/date-time";
import { ValidationError } from "../../errors/app-errors";
import { STEP_ORDER, type OnboardingStep } from "../onboarding/onboarding-steps";
import type { CountBy, StepDays } from "./report-ports";

/** One row of the funnel: who is at the step now, and how long it took those who left it. */
export interface FunnelStep {
  step: OnboardingStep;
  /** APPROVED members not archived at this step now. */
  members: number;
  /** How many members first moved past it in the range: those the median is taken of. */
  finished: number;
  /** The median of their whole days at it; null when none did. */
  medianDays: number | null;
}

/** The days the funnel's medians are taken over: [from, to), from null for "since ever". */
export interface FunnelRange {
  from: Date | null;
  to: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The instant a Manila calendar day begins, for the Manila day `instant` falls in. */
function manilaDayStart(instant: Date): Date {
  const manila = instant.getTime() + MANILA_OFFSET_MS;
  return new Date(manila - (manila % DAY_MS) - MANILA_OFFSET_MS);
}

function dayArg(name: "from" | "to", value: unknown): Date | null {
  if (value === undefined || value === null || value === "") return null;
  const date = parseDateInput(value);
  if (!date) throw ValidationError.field(name, `${name} must be ${DATE_INPUT_FORMS}`);
  return manilaDayStart(date);
}

/**
 * `from` and `to` as Manila calendar days, both included (as the interviews' list takes them);
 * without `to`, up to today; without `from`, since the first record. A range that ends before
 * it begins is refused.
 */
export function funnelRange(args: { from?: unknown; to?: unknown }, now: Date): FunnelRange {
  const from = dayArg("from", args.from);
  const lastDay = dayArg("to", args.to) ?? manilaDayStart(now);
  if (from && from > lastDay) {
    throw ValidationError.field("to", "to must be the same day as from or a later one");
  }
  return { from, to: new Date(lastDay.getTime() + DAY_MS) };
}

/** The median of the values a histogram counts (the mean of the middle two for an even count). */
export function medianOf(histogram: readonly { value: number; count: number }[]): number | null {
  const sorted = [...histogram].filter((bar) => bar.count > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, bar) => sum + bar.count, 0);
  if (total === 0) return null;
  // The values at 0-based positions ⌊(n-1)/2⌋ and ⌊n/2⌋: the same one when n is odd.
  const at = (position: number) => {
    let seen = 0;
    for (const bar of sorted) {
      seen += bar.count;
      if (position < seen) return bar.value;
    }
    return sorted[sorted.length - 1].value;
  };
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;
}

/** Every step in the wizard's order, with its count now and the days its leavers took. */
export function funnelOf(atStep: readonly CountBy[], days: readonly StepDays[]): FunnelStep[] {
  return STEP_ORDER.map((step) => {
    const bars = days
      .filter((row) => row.step === step)
      .map((row) => ({ value: row.days, count: row.count }));
    return {
      step,
      members: atStep.find((row) => row.key === step)?.count ?? 0,
      finished: bars.reduce((sum, bar) => sum + bar.count, 0),
      medianDays: medianOf(bars),
    };
  });
}
