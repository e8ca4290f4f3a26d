import { defaultBcryptWorkers, type HashTiming } from "../../src/modules/auth/bcrypt-pool";
import { buildUser, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * A stranger flooding sign-ins for unknown addresses from one client keeps at most its share of
 * the hashing queue; a member signing in from another client waits for at most the hash that
 * is running, then its own: two hashes' time. Clients are told apart by X-Forwarded-For
 * (TRUST_PROXY=loopback).
 */
let app: TestApp;
beforeAll(async () => {
  // A production-like cost, so one hash dominates a sign-in's time.
  app = await startTestApp({ TRUST_PROXY: "loopback", BCRYPT_COST: "12" });
});
afterAll(() => app?.close());

const STRANGER = "203.0.113.7";
const MEMBER = "198.51.100.2";
const FLOOD = 60;

const login = (client: string, email: string, password: string) =>
  app.http().post("/api/v1/auth/login").set("x-forwarded-for", client).send({ email, password });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("hashes a member's sign-in on the first thread to come free, within two hashes' time, while a stranger floods from another client", async () => {
  const member = await buildUser(app);
  // Once on a quiet service: the threads are up and the unknown addresses' throwaway hash made.
  expect((await login(MEMBER, member.email, member.password)).status).toBe(200);

  // The flood the queue had no bound for: sign-ins for unknown addresses sent at once.
  const strangerHashed: number[] = [];
  const strangerAnswered: number[] = [];
  const flood = Array.from({ length: FLOOD }, () =>
    login(STRANGER, uniqueEmail("nobody"), "Wrong#Pass1").then((response) => {
      strangerAnswered.push(performance.now());
      if (response.status === 401) strangerHashed.push(performance.now());
      return response;
    }),
  );
  // The member comes while the flood is being hashed: once its first answers have come and
  // paused (the refusals, or without any the first hashes), or after 5 s.
  const floodSent = performance.now();
  const paused = () =>
    strangerAnswered.length > 0 && performance.now() - strangerAnswered.at(-1)! > 50;
  while (!paused() && performance.now() - floodSent < 5000) await sleep(10);
  const signedIn = await login(MEMBER, member.email, member.password);
  const answeredAt = performance.now();
  expect(signedIn.status).toBe(200);
  const answers = await Promise.all(flood);

  // Seen by the clients: the member was answered while the stranger's backlog was still being
  // hashed, not after it.
  expect(strangerHashed.filter((at) => at > answeredAt).length).toBeGreaterThanOrEqual(1);
  // The stranger's share was hashed and the rest refused at once, with a Retry-After.
  const refused = answers.filter((response) => response.status === 429);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  expect(strangerHashed.length).toBeGreaterThanOrEqual(1);
  expect(strangerHashed.length + refused.length).toBe(FLOOD);
  for (const response of refused) expect(response.headers["retry-after"]).toMatch(/^\d+$/);

  // Seen by the queue, which timed every hash under this very load.
  const timings = app.internals.hashing.recentTimings();
  const mine = timings.filter((task) => task.client === MEMBER).at(-1)!;
  const strangers = timings.filter((task) => task.client === STRANGER);
  // No waiting stranger's hash got a thread between the member's arrival and its start.
  const overtook = strangers.filter(
    (task) => task.startedAt > mine.queuedAt && task.startedAt < mine.startedAt,
  );
  expect(overtook).toEqual([]);
  // Before the member's hash ended, the hashes running when it came end (one per thread) and
  // the other threads may each end one more meanwhile; never the stranger's backlog. Counted on
  // the queue's own clock: the member's answer also waits for its sign-in's database work
  // after the hash, during which the threads go on hashing the backlog.
  const threads = defaultBcryptWorkers();
  const endedBeforeMine = strangers.filter(
    (task) => task.endedAt > mine.queuedAt && task.endedAt <= mine.endedAt,
  );
  expect(endedBeforeMine.length).toBeLessThanOrEqual(2 * threads - 1);
  // One hash's time, under this very load: the longest of the hashes the member's lived beside
  // (those running when it came, and its own). By design it waits for one of the running ones
  // to end, then hashes: at most twice that. The rest of its answer is the sign-in's own
  // database work, outside the queue.
  const duration = (task: HashTiming) => task.endedAt - task.startedAt;
  const runningWhenCame = strangers.filter(
    (task) => task.startedAt <= mine.queuedAt && task.endedAt > mine.queuedAt,
  );
  const oneHash = Math.max(...[...runningWhenCame, mine].map(duration));
  expect(mine.endedAt - mine.queuedAt).toBeLessThanOrEqual(2 * oneHash);
}, 120_000);
