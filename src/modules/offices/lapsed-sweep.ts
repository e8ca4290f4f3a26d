import type { Logger } from "../../logger";
import type { OfficeSlots } from "./office-slots";

/** How often lapsed terms give their slots back when no appointment asked for one meanwhile. */
export const LAPSED_SWEEP_MS = 60_000;

/**
 * Gives back the slots of terms past their end date, in the background: reads leave them
 * alone (they judge a term by its dates), and an appointment that wants a slot settles its
 * own office first, so this only keeps stored counts close to the running terms. Every
 * instance may sweep; each release is a conditional update that one of them wins.
 */
export function startLapsedSweep(slots: OfficeSlots, log: Logger, everyMs = LAPSED_SWEEP_MS) {
  let running: Promise<void> | null = null;
  const sweep = () => {
    running ??= slots
      .releaseLapsed()
      .catch((error: unknown) => log.warn({ err: error }, "lapsed terms not released"))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return {
    /** Stops the timer and waits for a sweep under way. */
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
