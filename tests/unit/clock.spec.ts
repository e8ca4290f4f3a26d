import { Clock, clockOf } from "../../src/clock";

describe("the clock tests move instead of sleeping", () => {
  it("moves forward, and its unshifted view follows the move but not the offset", () => {
    const clock = new Clock(3600, { seconds: 0 });
    const view = clock.unshifted();
    const before = view.now().getTime();
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(3600_000);
    clock.advance(90);
    expect(view.now().getTime() - before).toBeGreaterThanOrEqual(90_000);
    expect(view.now().getTime() - before).toBeLessThan(3600_000);
    expect(view.nowSeconds()).toBe(Math.floor(view.now().getTime() / 1000));
  });

  it("cannot move in production", () => {
    const production = clockOf({ nodeEnv: "production", clockOffsetSeconds: 0 });
    expect(() => production.advance(1)).toThrow(/only outside production/);
    expect(() => production.unshifted().advance(1)).toThrow(/only outside production/);
    expect(() => clockOf({ nodeEnv: "test", clockOffsetSeconds: 0 }).advance(1)).not.toThrow();
    expect(() => new Clock().advance(1)).toThrow(/only outside production/);
    expect(() => new Clock().unshifted().advance(1)).toThrow(/only outside production/);
  });
});
