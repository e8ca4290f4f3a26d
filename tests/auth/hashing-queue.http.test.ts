import { defaultBcryptWorkers, HASHING_QUEUE_LIMITS } from "../../src/modules/auth/bcrypt-pool";
import { buildUser, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * A stranger flooding sign-ins for unknown addresses from one client keeps at most its share of
 * the hashing queue; a member signing in from another client waits for at most the hash that
 * is running, then its own. Clients are told apart by X-Forwarded-For (TRUST_PROXY=loopback).
 */
let app: TestApp;
beforeAll(async () => {
  // A production-like cost, so one hash dominates a sign-in's time.
  app = await startTestApp({ TRUST_PROXY: "loopback", BCRYPT_COST: "12" });
});
afterAll(() => app.close());

const STRANGER = "203.0.113.7";
const MEMBER = "198.51.100.2";

const login = (client: string, email: string, password: string) =>
  app.http().post("/api/v1/auth/login").set("x-forwarded-for", client).send({ email, password });

async function timedLogin(email: string, password: string): Promise<number> {
  const started = performance.now();
  const response = await login(MEMBER, email, password);
  expect(response.status).toBe(200);
  return performance.now() - started;
}

it("answers a member after at most the running hashes while a stranger floods from another client", async () => {
  const member = await buildUser(app);
  // One sign-in on a quiet service: one hash and the rest of the request (the median of three).
  const quiet: number[] = [];
  for (let i = 0; i < 3; i += 1) quiet.push(await timedLogin(member.email, member.password));
  const oneSignIn = quiet.sort((a, b) => a - b)[1];

  // The flood the queue had no bound for: 60 sign-ins for unknown addresses sent at once.
  const strangerHashed: number[] = [];
  let strangerAnswered = 0;
  const flood = Array.from({ length: 60 }, () =>
    login(STRANGER, uniqueEmail("nobody"), "Wrong#Pass1").then((response) => {
      strangerAnswered += 1;
      if (response.status === 401) strangerHashed.push(performance.now());
      return response;
    }),
  );
  // The member comes once the flood's refusals are answered (the machine is quiet again but
  // for the hashing) or after 5 s, when an unbounded queue would still be holding them all.
  const floodSent = performance.now();
  while (
    strangerAnswered < 60 - HASHING_QUEUE_LIMITS.perClient &&
    performance.now() - floodSent < 5000
  ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const sentAt = performance.now();
  const during = await timedLogin(member.email, member.password);
  const answeredAt = sentAt + during;
  const answers = await Promise.all(flood);

  // The stranger's share was hashed and the rest refused with a Retry-After.
  const refused = answers.filter((response) => response.status === 429);
  expect(strangerHashed.length).toBeGreaterThanOrEqual(1);
  expect(strangerHashed.length + refused.length).toBe(60);
  for (const response of refused) expect(response.headers["retry-after"]).toMatch(/^\d+$/);
  // The member's hash took the first thread to come free: before its answer, the hashes running
  // when it came end (one per thread), and the other threads may each end one more meanwhile.
  const threads = defaultBcryptWorkers();
  const beforeMember = strangerHashed.filter((at) => at > sentAt && at < answeredAt);
  expect(beforeMember.length).toBeLessThanOrEqual(2 * threads - 1);
  // Two hashes' time, with headroom for a loaded machine.
  expect(during).toBeLessThan(2.5 * oneSignIn);
});
