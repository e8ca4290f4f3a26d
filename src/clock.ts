import type { Config } from "./config";

/**
 * The time the service sees. The membership year, its renewals and reminders see it moved by
 * TEST_CLOCK_OFFSET_SECONDS in tests (src/config.ts refuses it in production), so a test can
 * stand days before a membership ends without waiting for them. Outside production a test can
 * also `advance` it while the app runs, so an expiry or a schedule comes without a sleep; the
 * `unshifted` view (sessions, tokens, news) follows those moves but not the offset, since
 * instances at different offsets share one database and the tokens signed there.
 */
export class Clock {
  constructor(
    private readonly offsetSeconds = 0,
    /** Run-time moves, shared with the unshifted view; absent in production. */
    private readonly moved?: { seconds: number },
  ) {}

  now(): Date {
    return new Date(Date.now() + (this.offsetSeconds + (this.moved?.seconds ?? 0)) * 1000);
  }

  /** Whole seconds since the epoch, as JWTs count them. */
  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** The same clock and its moves without the configured offset. */
  unshifted(): Clock {
    return new Clock(0, this.moved);
  }

  /** Moves this clock and its views forward; refused where the clock cannot move (production). */
  advance(seconds: number): void {
    if (!this.moved) throw new Error("The clock moves only outside production");
    this.moved.seconds += seconds;
  }
}

/** The app's clock: moved by the configured offset, and movable at run time except in production. */
export function clockOf(config: Pick<Config, "nodeEnv" | "clockOffsetSeconds">): Clock {
  const moves = config.nodeEnv === "production" ? undefined : { seconds: 0 };
  return new Clock(config.clockOffsetSeconds, moves);
}
