import { measureRestLayers } from "../../bench/rest-layers";

// A few short rounds: this checks that the harness measures the same answer on both sides and
// reports CPU per request, not how fast either is.
it("answers a title by id through REST and through express alike, and measures both", async () => {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const result = await measureRestLayers({ rounds: 2, requests: 20 });
    expect(result.restMicros).toBeGreaterThan(0);
    expect(result.floorMicros).toBeGreaterThan(0);
    expect(Number.isFinite(result.addedMicros)).toBe(true);
  } finally {
    process.env.NODE_ENV = previous;
  }
}, 120_000);
