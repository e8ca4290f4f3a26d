import { every } from "../../background-tasks";
import type { Logger } from "../../logger";
import type { OfficeSlots } from "./office-slots";

/**
 * Gives back the slots of terms past their end date, in the background: reads leave them
 * alone (they judge a term by its dates), and an appointment that wants a slot settles its
 * own office first, so this only keeps stored counts close to the running terms, and takes
 * the terms over for a whole period, leaving the newly lapsed to the writes that want their
 * slots. Every instance may sweep; each release is a conditional update one of them wins.
 */
export function startLapsedSweep(
  slots: OfficeSlots,
  log: Logger,
  everyMs: number,
  now: () => Date,
) {
  return every(everyMs, async () => {
    try {
      await slots.releaseLapsed({}, new Date(now().getTime() - everyMs));
    } catch (error) {
      log.warn({ err: error }, "lapsed terms not released");
    }
  });
}
