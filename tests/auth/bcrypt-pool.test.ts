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
