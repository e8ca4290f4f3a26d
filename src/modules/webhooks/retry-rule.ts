const DAY_MS = 24 * 3600 * 1000;

/** A delivery is retried for this long after its change, then failed. */
export const RETRY_WINDOW_MS = 3 * DAY_MS;
/** An endpoint failing for this long is disabled and its owner told. */
export const DISABLE_AFTER_MS = 5 * DAY_MS;

/**
 * When a delivery that has just failed its `attempts`-th attempt is tried again: `baseSeconds`
 * after the first failure, doubling after each; null once that would be past the retry window.
 */
export function nextAttemptAfter(
  occurredAt: Date,
  attempts: number,
  now: Date,
  baseSeconds: number,
): Date | null {
  const delay = baseSeconds * 1000 * 2 ** Math.max(0, attempts - 1);
  const at = now.getTime() + delay;
  return at - occurredAt.getTime() > RETRY_WINDOW_MS ? null : new Date(at);
}
