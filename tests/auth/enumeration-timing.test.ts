import { buildUser, uniqueEmail } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * Issue 35, point 2: forgot-password and resend-verification answer as fast for an address
 * with an account as for one without, yet the account's mail still goes out.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const ROUNDS = 30;
/** |z| past this happens by chance about once in ten thousand runs. */
const Z_LIMIT = 3.9;

/** One request's time to its answer, in milliseconds; the work it started is then let finish. */
async function timed(path: string, email: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await app.http().post(`/api/v1/auth/${path}`).send({ email });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  expect(response.status).toBe(200);
  // An attacker can pace requests too: each is measured on a quiet service.
  await app.internals.background.drain();
  await app.internals.mailer.flush();
  // The SMTP connection of a mail just sent is still closing; let it, or it slows the next one.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return elapsed;
}

/**
 * The Mann–Whitney U test's z score (normal approximation, ties counted half): about 0 when
 * the two samples come from one distribution; ±6.6 for 30 against 30 fully separated. Before
 * the work moved after the answer, 20 against 20 gave -4.6 (the most is ±5.4).
 */
function mannWhitneyZ(a: number[], b: number[]): number {
  let u = 0;
  for (const x of a) for (const y of b) u += x < y ? 1 : x === y ? 0.5 : 0;
  const mean = (a.length * b.length) / 2;
  const sd = Math.sqrt((a.length * b.length * (a.length + b.length + 1)) / 12);
  return (u - mean) / sd;
}

/** Known and unknown interleaved in the order K U U K, so each follows the other as often. */
async function sample(
  path: string,
  known: string,
): Promise<{ known: number[]; unknown: number[] }> {
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const unknown = uniqueEmail("nobody");
    const order =
      Math.random() < 0.5 ? (["known", "unknown"] as const) : (["unknown", "known"] as const);
    for (const which of order) {
      times[which].push(await timed(path, which === "known" ? known : unknown));
    }
  }
  return times;
}

describe("no account enumeration by timing", () => {
  it("forgot-password takes as long for a known address as for an unknown one", async () => {
    const user = await buildUser(app);
    await app.internals.mailer.flush();
    const mailsBefore = app.mail.to(user.email).length;
    const times = await sample("forgot-password", user.email);
    const z = mannWhitneyZ(times.known, times.unknown);
    expect(Math.abs(z)).toBeLessThan(Z_LIMIT);
    // The work was done all the same: a reset mail for every request of the known address.
    const resets = app.mail.to(user.email).slice(mailsBefore);
    expect(resets.filter((mail) => /reset/i.test(mail.subject))).toHaveLength(ROUNDS);
  });

  it("resend-email-verification takes as long for an unverified address as for an unknown one", async () => {
    const user = await buildUser(app, { verified: false });
    await app.mail.waitFor(user.email, { subject: /verification code/i });
    const mailsBefore = app.mail.to(user.email).length;
    const times = await sample("resend-email-verification", user.email);
    const z = mannWhitneyZ(times.known, times.unknown);
    expect(Math.abs(z)).toBeLessThan(Z_LIMIT);
    const codes = app.mail.to(user.email).slice(mailsBefore);
    expect(codes.filter((mail) => /verification code/i.test(mail.subject))).toHaveLength(ROUNDS);
  });
});

describe("work left after the answer", () => {
  it("is finished before the service shuts down: the mail of a request just answered goes out", async () => {
    const own = await startTestApp();
    const user = await buildUser(own);
    const response = await own
      .http()
      .post("/api/v1/auth/forgot-password")
      .send({ email: user.email });
    expect(response.status).toBe(200);
    const mailbox = own.mail;
    await own.close();
    expect(mailbox.to(user.email).some((mail) => /reset/i.test(mail.subject))).toBe(true);
  });
});
