import { nextAttemptAfter, RETRY_WINDOW_MS } from "../../src/modules/webhooks/retry-rule";
import { isSpecialAddress } from "../../src/modules/webhooks/webhook-target";

describe("webhook retries", () => {
  const start = new Date("2027-01-01T00:00:00Z");
  it("waits the base delay after the first failure, doubling after each", () => {
    const delays = [1, 2, 3, 4].map(
      (attempt) => nextAttemptAfter(start, attempt, start, 30)!.getTime() - start.getTime(),
    );
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000]);
  });

  it("gives up once the next attempt would fall past three days", () => {
    let now = start;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const next = nextAttemptAfter(start, attempts, now, 30);
      if (!next) break;
      now = next;
    }
    expect(now.getTime() - start.getTime()).toBeLessThanOrEqual(RETRY_WINDOW_MS);
    expect(attempts).toBe(14);
  });
});

describe("webhook target addresses", () => {
  it.each([
    "127.0.0.1",
    "10.0.0.8",
    "172.31.255.1",
    "192.168.0.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd12::3",
    "::ffff:10.0.0.1",
    "not-an-address",
  ])("refuses %s", (address) => expect(isSpecialAddress(address)).toBe(true));

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.215.14"])(
    "admits %s",
    (address) => expect(isSpecialAddress(address)).toBe(false),
  );
});
