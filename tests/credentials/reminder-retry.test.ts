/**
 * A reminder whose mail could not go is not lost: an instance that claims it while the mail
 * server is down gives it back, and the next instance with a working server sends it, once.
 * Both the membership year's reminder and the interview's day-before reminder.
 */
import { randomBytes } from "node:crypto";
import { bearer, buildAdmin, type TestUser } from "../support/factories";
import { freePort } from "../support/free-port";
import { startTestApp, type TestApp } from "../support/test-app";
import { API, memberBeforeOath, oathDayEndingIn, swornMember } from "../support/membership-year";
import { nextRunsOf } from "../support/scheduler-runs";

jest.setTimeout(600_000);

const dbName = `t_reminder_retry_${randomBytes(3).toString("hex")}`;
const DAY_S = 24 * 3600;
const IN_30 = /^Your membership ends in 30 days$/;
const INTERVIEW = /^Reminder: your membership interview is tomorrow$/;

let app: TestApp | undefined;

/** One instance at `offsetSeconds` on the shared database, its mail to `smtpUrl` when given. */
async function start(offsetSeconds: number, smtpUrl?: string): Promise<TestApp> {
  await app?.close();
  app = await startTestApp(
    {
      DB_NAME: dbName,
      TEST_CLOCK_OFFSET_SECONDS: String(offsetSeconds),
      ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    },
    undefined,
    { keepDatabase: true },
  );
  return app;
}

/** An SMTP address where nothing listens: every send fails at once. */
const deadMailServer = async () => `smtp://127.0.0.1:${await freePort()}`;

/** Whole runs of both reminder sweeps on `instance`, begun after this call. */
const looks = (instance: TestApp) =>
  nextRunsOf(instance, ["membership.reminders", "interviews.reminders"]);

afterAll(async () => {
  await app?.close();
  const last = await startTestApp({ DB_NAME: dbName });
  await last.close();
});

it("sends a reminder that failed to go at a later look, once", async () => {
  const first = await start(0);
  const admin = await buildAdmin(first);
  const member = await swornMember(first, admin, oathDayEndingIn(40));
  const interviewee: TestUser = (
    await memberBeforeOath(first, admin, {}, { decideInterview: false })
  ).user;
  const booking = await first
    .http()
    .get(`${API}/members/current/online-interview`)
    .set(bearer(interviewee));
  expect(booking.status).toBe(200);
  const scheduledAt = new Date(booking.body.data.scheduledAt as string).getTime();
  // Twelve hours before the interview: its reminder is due, the year's 30-day one is not yet.
  const interviewDay = Math.ceil((scheduledAt - Date.now()) / 1000) - 12 * 3600;
  expect(interviewDay).toBeGreaterThan(0);
  expect(interviewDay).toBeLessThan(10 * DAY_S);

  // The mail server is down when the interview reminder falls due: nothing goes.
  const down = await start(interviewDay, await deadMailServer());
  await looks(down);
  expect(down.mail.messages).toHaveLength(0);

  // Up again: the reminder goes, once, to the member and the interviewer.
  const up = await start(interviewDay);
  await up.mail.waitFor(interviewee.email, { subject: INTERVIEW, timeoutMs: 30_000 });
  await looks(up);
  expect(up.mail.to(interviewee.email).filter((mail) => INTERVIEW.test(mail.subject))).toHaveLength(
    1,
  );
  expect(
    up.mail.to(admin.email).filter((mail) => /^Reminder: interview with /.test(mail.subject)),
  ).toHaveLength(1);
  expect(up.mail.to(member.user.email)).toHaveLength(0);

  // The year's 30-day reminder falls due while the mail server is down, then it is back.
  const downAgain = await start(15 * DAY_S, await deadMailServer());
  await looks(downAgain);
  expect(downAgain.mail.messages).toHaveLength(0);
  const upAgain = await start(15 * DAY_S);
  const reminder = await upAgain.mail.waitFor(member.user.email, {
    subject: IN_30,
    timeoutMs: 30_000,
  });
  expect(reminder.text).toContain("Renew it with your payment until");
  // Headed by the organisation's own name, as its From says, not the software's.
  const organisation = /^"?([^"<]+?)"?\s*</.exec(reminder.from)![1];
  expect(organisation).toContain("Pearl of the Orient");
  expect(reminder.html).toContain(`color:#52525b">${organisation}</p>`);
  expect(reminder.html).not.toContain("Chaplaincy Membership");
  await looks(upAgain);
  expect(
    upAgain.mail.to(member.user.email).filter((mail) => IN_30.test(mail.subject)),
  ).toHaveLength(1);
  // The interview was yesterday by now: not reminded again.
  expect(
    upAgain.mail.to(interviewee.email).filter((mail) => INTERVIEW.test(mail.subject)),
  ).toHaveLength(0);
});
