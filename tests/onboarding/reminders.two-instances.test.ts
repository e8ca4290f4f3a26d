/**
 * Issue 49, point 4: reminders 30 and 7 days before a membership year ends, on the day, and 24
 * hours before an interview, each sent exactly once by two instances on one database looking
 * every 2 seconds, also when every instance was down at its time (instances started again
 * with the clock moved on, TEST_CLOCK_OFFSET_SECONDS, find it at their first look).
 */
import { randomBytes } from "node:crypto";
import { bearer, buildAdmin, type TestUser } from "../support/factories";
import type { ReceivedMail } from "../support/mailbox";
import { startTestApp, type TestApp } from "../support/test-app";
import { API, memberBeforeOath, oathDayEndingIn, swornMember } from "../support/membership-year";
import { nextRunsOf } from "../support/scheduler-runs";
import { until } from "../support/until";

jest.setTimeout(600_000);

const dbName = `t_reminders_${randomBytes(3).toString("hex")}`;
const DAY_S = 24 * 3600;
/** Every instance of the file, closed or not: their mailboxes together are the outbox. */
const instances: TestApp[] = [];
let running: TestApp[] = [];

async function startBoth(offsetSeconds: number): Promise<void> {
  const env = { DB_NAME: dbName, TEST_CLOCK_OFFSET_SECONDS: String(offsetSeconds) };
  running = [
    await startTestApp(env, undefined, { keepDatabase: true }),
    await startTestApp(env, undefined, { keepDatabase: true }),
  ];
  instances.push(...running);
}

async function stopBoth(): Promise<void> {
  for (const app of running) await app.close();
  running = [];
}

const allMail = (): ReceivedMail[] => instances.flatMap((app) => app.mail.messages);
const mailTo = (email: string, subject: RegExp) =>
  allMail().filter((mail) => mail.to.includes(email.toLowerCase()) && subject.test(mail.subject));

const mailArrives = (done: () => boolean) =>
  until(
    done,
    () =>
      `not in time; mail so far:\n${allMail()
        .map((m) => `${m.to.join(",")}: ${m.subject}`)
        .join("\n")}`,
    60_000,
    250,
  );

/** Two more whole runs of both reminder sweeps by the running instances: a second send shows. */
const moreLooks = () => nextRunsOf(running, ["membership.reminders", "interviews.reminders"]);

/** No reminder reached anyone twice. */
function expectNoRepeats(): void {
  const keys = allMail()
    .filter((mail) => /^Your membership ends|^Reminder: /.test(mail.subject))
    .map((mail) => `${mail.to.join(",")} | ${mail.subject}`);
  const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
  expect(repeated).toEqual([]);
}

const IN_30 = /^Your membership ends in 30 days$/;
const IN_7 = /^Your membership ends in 7 days$/;
const TODAY = /^Your membership ends today$/;
const INTERVIEW = /^Reminder: your membership interview is tomorrow$/;

afterAll(async () => {
  await stopBoth();
  const last = await startTestApp({ DB_NAME: dbName });
  await last.close();
});

it("sends each reminder once with two instances, and once more what fell due while both were down", async () => {
  await startBoth(0);
  const [first] = running;
  const admin = await buildAdmin(first);
  const in30 = await swornMember(first, admin, oathDayEndingIn(20));
  const in7 = await swornMember(first, admin, oathDayEndingIn(3));
  const today = await swornMember(first, admin, oathDayEndingIn(0));
  const later = await swornMember(first, admin, oathDayEndingIn(60));
  // A booked interview still PENDING, with the administrator as its interviewer.
  const interviewee: TestUser = (await memberBeforeOathPending(first, admin)).user;
  const booking = await first
    .http()
    .get(`${API}/members/current/online-interview`)
    .set(bearer(interviewee));
  const scheduledAt = new Date(booking.body.data.scheduledAt as string).getTime();

  await mailArrives(
    () =>
      mailTo(in30.user.email, IN_30).length > 0 &&
      mailTo(in7.user.email, IN_7).length > 0 &&
      mailTo(today.user.email, TODAY).length > 0,
  );
  await moreLooks();
  expect(mailTo(in30.user.email, IN_30)).toHaveLength(1);
  expect(mailTo(in7.user.email, IN_7)).toHaveLength(1);
  // Overtaken while nobody was reminded: not sent late beside the 7-day one.
  expect(mailTo(in7.user.email, IN_30)).toHaveLength(0);
  expect(mailTo(today.user.email, TODAY)).toHaveLength(1);
  expect(mailTo(later.user.email, /^Your membership ends/)).toHaveLength(0);
  // Every reminder went from one of the two, signed by the organisation.
  const reminder = mailTo(in30.user.email, IN_30)[0];
  expect(reminder.from).toContain("Pearl of the Orient");
  expect(reminder.text).toContain("until");
  expectNoRepeats();

  // Both down; the interview's day before comes meanwhile (when it is still ahead).
  await stopBoth();
  const interviewAhead = scheduledAt - Date.now() > DAY_S * 1000;
  if (interviewAhead) {
    await startBoth(Math.ceil((scheduledAt - Date.now()) / 1000) - 12 * 3600);
    await mailArrives(() => mailTo(interviewee.email, INTERVIEW).length > 0);
    await moreLooks();
    await stopBoth();
  }
  expect(mailTo(interviewee.email, INTERVIEW)).toHaveLength(1);
  expect(mailTo(admin.email, /^Reminder: interview with /)).toHaveLength(1);

  // Both down while `later`'s 30-day reminder falls due: the first look after finds it, once.
  await startBoth(35 * DAY_S);
  await mailArrives(() => mailTo(later.user.email, IN_30).length > 0);
  await moreLooks();
  expect(mailTo(later.user.email, IN_30)).toHaveLength(1);
  // The others moved on to their next reminders, each once too.
  expect(mailTo(in30.user.email, IN_30)).toHaveLength(1);
  expect(mailTo(in30.user.email, TODAY)).toHaveLength(1);
  expect(mailTo(today.user.email, TODAY)).toHaveLength(1);
  expectNoRepeats();
});

/** An approved member whose interview is booked and still PENDING (the oath far off). */
const memberBeforeOathPending = (app: TestApp, admin: TestUser) =>
  memberBeforeOath(app, admin, {}, { decideInterview: false });
