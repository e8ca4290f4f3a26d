/**
 * Password hashing runs in worker threads: the event loop stays free while bcrypt works, and
 * the results are real bcrypt hashes.
 */
import bcrypt from "bcryptjs";
import { BcryptPool } from "../../src/modules/auth/bcrypt-pool";

const pools: BcryptPool[] = [];
const pool = (workers?: number) => {
  const made = new BcryptPool(workers);
  pools.push(made);
  return made;
};
afterAll(() => Promise.all(pools.map((made) => made.close())));

it("hashes with the requested cost and compares, interchangeably with bcryptjs", async () => {
  const hasher = pool();
  const hash = await hasher.hash("Secret#123", 5);
  expect(hash).toMatch(/^\$2[aby]\$05\$/);
  expect(await bcrypt.compare("Secret#123", hash)).toBe(true);
  expect(await hasher.compare("Secret#123", await bcrypt.hash("Secret#123", 4))).toBe(true);
  expect(await hasher.compare("Secret#124", hash)).toBe(false);
});

it("keeps the event loop turning while cost-12 hashes run", async () => {
  const hasher = pool(1);
  let last = Date.now();
  let longestPause = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    longestPause = Math.max(longestPause, now - last);
    last = now;
  }, 5);
  const started = Date.now();
  await Promise.all([hasher.hash("Secret#123", 12), hasher.hash("Secret#456", 12)]);
  const hashingMs = (Date.now() - started) / 2;
  clearInterval(ticker);
  // On the event loop, each hash would have stopped the ticker for its whole duration.
  expect(longestPause).toBeLessThan(hashingMs / 2);
});

it("answers many callers with one worker, each with its own result", async () => {
  const hasher = pool(1);
  const hashes = await Promise.all(
    Array.from({ length: 6 }, (_, index) => hasher.hash(`password-${index}`, 4)),
  );
  const checks = await Promise.all(
    hashes.map((hash, index) => hasher.compare(`password-${index}`, hash)),
  );
  expect(checks).toEqual([true, true, true, true, true, true]);
  expect(new Set(hashes).size).toBe(6);
});

it("refuses work once closed and rejects what was still queued", async () => {
  const hasher = new BcryptPool(1);
  const queued = Promise.allSettled([hasher.hash("a", 10), hasher.hash("b", 10)]);
  await hasher.close();
  expect((await queued).map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
  await expect(hasher.hash("c", 4)).rejects.toThrow("shut down");
});

describe("the bounded, fair queue in front of the threads", () => {
  const limits = { waiting: 6, perClient: 3, perAccount: 2 };

  it("refuses a client past its share with 429 and Retry-After, and takes others meanwhile", async () => {
    const hasher = new BcryptPool(1, limits);
    pools.push(hasher);
    const flood = Array.from({ length: 3 }, (_, i) =>
      hasher.hash(`flood-${i}`, 8, { client: "203.0.113.7", account: `n${i}@example.org` }),
    );
    const refused = hasher.hash("one more", 8, { client: "203.0.113.7" });
    await expect(refused).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      headers: { "Retry-After": expect.stringMatching(/^\d+$/) },
    });
    const other = hasher.hash("member", 8, { client: "198.51.100.2" });
    await expect(other).resolves.toMatch(/^\$2/);
    await Promise.all(flood);
  });

  it("refuses one account past its share whichever clients ask", async () => {
    const hasher = new BcryptPool(1, limits);
    pools.push(hasher);
    const account = "ada@example.org";
    const first = [1, 2].map((i) => hasher.hash("x", 8, { client: `10.0.0.${i}`, account }));
    await expect(hasher.hash("x", 8, { client: "10.0.0.3", account })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
    await Promise.all(first);
    await expect(hasher.hash("x", 8, { client: "10.0.0.3", account })).resolves.toMatch(/^\$2/);
  });

  it("lets the lanes take turns: a client arriving behind a backlog is served next", async () => {
    const hasher = new BcryptPool(1, limits);
    pools.push(hasher);
    const finished: string[] = [];
    const track = (label: string, client: string) =>
      hasher.hash(label, 8, { client }).then(() => finished.push(label));
    const work = [track("a1", "a"), track("a2", "a"), track("a3", "a"), track("b1", "b")];
    await Promise.all(work);
    // a1 was already running when b1 came; b1 is next, before a's backlog.
    expect(finished).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("never refuses the service's own work, which names no client", async () => {
    const hasher = new BcryptPool(1, limits);
    pools.push(hasher);
    const own = await Promise.all(Array.from({ length: 8 }, () => hasher.hash("own", 4)));
    expect(own).toHaveLength(8);
  });
});
