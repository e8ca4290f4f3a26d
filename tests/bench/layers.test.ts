import { measureLayers } from "../../bench/layers";

// A few short rounds: this checks that the harness measures the same answer on each pair of
// sides and reports CPU per request, not how fast any is.
it("answers a title by id through REST, /graphql and their express routes alike, and measures each", async () => {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const result = await measureLayers({ rounds: 2, requests: 20 });
    for (const one of [result.rest, result.graphql]) {
      expect(one.viaMicros).toBeGreaterThan(0);
      expect(one.floorMicros).toBeGreaterThan(0);
      expect(Number.isFinite(one.addedMicros)).toBe(true);
    }
  } finally {
    process.env.NODE_ENV = previous;
  }
}, 120_000);
