import ICAL from "ical.js";
import { simpleParser } from "mailparser";
import type { InterviewRecord } from "../../src/modules/interviews/interview.model";
import { Role } from "../../src/modules/users/role";
import { approvedMemberOf, applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import type { ReceivedMail } from "../support/mailbox";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario({
  users: { officer: { role: Role.OFFICER, name: "Officer Reyes" }, other: { role: Role.OFFICER } },
});
const api = () => scenario().app.http();
const interviews = () => scenario().app.connection.model<InterviewRecord>("Interview");
const ALL_DAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

interface FreeSlot {
  date: string;
  timeSlot: string;
}

async function offer(userId: string, body: object, token = scenario().admin.token) {
  return api().put(`/api/v1/interviewers/${userId}`).set(bearer({ token })).send(body);
}

async function book(user: TestUser, body: object) {
  return api().put("/api/v1/members/current/online-interview").set(bearer(user)).send(body);
}

async function freeOf(interviewerId: string, user: TestUser): Promise<FreeSlot[]> {
  const response = await api().get("/api/v1/interviewers").set(bearer(user));
  expect(response.status).toBe(200);
  const found = (response.body.data as { id: string; nextFree: FreeSlot[] }[]).find(
    (interviewer) => interviewer.id === interviewerId,
  );
  return found?.nextFree ?? [];
}

/** A newly approved member booked into the interviewer's first free slot. */
async function bookedMember(interviewerId: string) {
  const { app, admin } = scenario();
  const member = await approvedMemberOf(app, admin);
  const [slot] = await freeOf(interviewerId, member.user);
  const body = { interviewerId, day: weekdayOf(slot.date), timeSlot: slot.timeSlot };
  expect((await book(member.user, body)).status).toBe(200);
  return { member, slot };
}

const weekdayOf = (date: string) => ALL_DAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];

/** The .ics attachment of a received mail, parsed. */
async function calendarIn(mail: ReceivedMail) {
  const parsed = await simpleParser(mail.raw);
  const ics = parsed.attachments.find((file) => file.filename === "interview.ics");
  expect(ics?.contentType).toBe("text/calendar");
  const calendar = new ICAL.Component(ICAL.parse(ics!.content.toString("utf8")));
  return { calendar, event: new ICAL.Event(calendar.getFirstSubcomponent("vevent")!) };
}

beforeAll(async () => {
  const { officer, other } = scenario();
  const slots = { active: true, days: ALL_DAYS, timeSlots: ["10:00 AM", "09:00 AM"] };
  expect((await offer(officer.id, slots)).status).toBe(200);
  expect((await offer(other.id, slots)).status).toBe(200);
});

describe("PUT /interviewers/{userId}", () => {
  it("keeps days and slots in order and shows the free slots", async () => {
    const { officer } = scenario();
    const response = await offer(officer.id, {
      active: true,
      days: ["SATURDAY", "MONDAY"],
      timeSlots: ["01:00 PM", "09:00 AM"],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: officer.id,
      name: "Officer Reyes",
      days: ["MONDAY", "SATURDAY"],
      timeSlots: ["09:00 AM", "01:00 PM"],
    });
    expect(response.body.data.nextFree).toHaveLength(4);
    expect(
      (
        await offer(officer.id, {
          active: true,
          days: ALL_DAYS,
          timeSlots: ["09:00 AM", "10:00 AM"],
        })
      ).status,
    ).toBe(200);
  });

  it("refuses a member account (409), bad days and slots (400), and non-administrators (403)", async () => {
    const member = await buildUser(scenario().app);
    const conflict = await offer(member.id, {
      active: true,
      days: ["MONDAY"],
      timeSlots: ["09:00 AM"],
    });
    expect(conflict.status).toBe(409);
    const badDay = await offer(scenario().officer.id, {
      active: true,
      days: ["FUNDAY"],
      timeSlots: ["09:00 AM"],
    });
    expect(badDay.status).toBe(400);
    const badSlot = await offer(scenario().officer.id, {
      active: true,
      days: ["MONDAY"],
      timeSlots: ["09:30 AM"],
    });
    expect(badSlot.status).toBe(400);
    expect(badSlot.body.errors[0].path).toMatch(/^timeSlots/);
    const forbidden = await offer(
      member.id,
      { active: true, days: ["MONDAY"], timeSlots: ["09:00 AM"] },
      member.token,
    );
    expect(forbidden.status).toBe(403);
    const stored = await rawDb(scenario().app)
      .connection.model("Interviewer")
      .findById(scenario().officer.id)
      .lean<{ timeSlots: string[] }>();
    expect(stored?.timeSlots).toEqual(["09:00 AM", "10:00 AM"]);
  });
});

describe("booking an online interview", () => {
  it("answers null until booked, then books the next such day and mails both sides an invitation", async () => {
    const { app, admin, officer } = scenario();
    const member = await approvedMemberOf(app, admin);
    const before = await api()
      .get("/api/v1/members/current/online-interview")
      .set(bearer(member.user));
    expect(before.status).toBe(200);
    expect(before.body.data).toBeNull();

    const [slot] = await freeOf(officer.id, member.user);
    const mailsBefore = app.mail.messages.length;
    const response = await book(member.user, {
      interviewerId: officer.id,
      day: weekdayOf(slot.date),
      timeSlot: slot.timeSlot,
      zoomLink: "https://zoom.us/j/123456789",
      meetingId: "123 456 789",
      passcode: "faith",
    });
    expect(response.status).toBe(200);
    const booked = response.body.data;
    expect(booked).toMatchObject({
      interviewerId: officer.id,
      interviewerName: "Officer Reyes",
      day: weekdayOf(slot.date),
      date: slot.date,
      timeSlot: slot.timeSlot,
      outcome: "PENDING",
      zoomLink: "https://zoom.us/j/123456789",
      confirmedAt: expect.any(String),
    });
    const hour = (Number(slot.timeSlot.slice(0, 2)) % 12) + (slot.timeSlot.endsWith("PM") ? 12 : 0);
    const expected = new Date(Date.parse(`${slot.date}T00:00:00Z`) + (hour - 8) * 3_600_000);
    expect(booked.scheduledAt).toBe(expected.toISOString());
    expect(Date.parse(booked.scheduledAt) - Date.now()).toBeGreaterThanOrEqual(
      24 * 3_600_000 - 60_000,
    );

    const again = await api()
      .get("/api/v1/members/current/online-interview")
      .set(bearer(member.user));
    expect(again.body.data).toMatchObject({ id: booked.id, scheduledAt: booked.scheduledAt });

    for (const to of [member.user.email, officer.email]) {
      const mail = await app.mail.waitFor(to, {
        subject: /interview.*booked/i,
        after: mailsBefore,
      });
      expect(mail.text).toContain("https://zoom.us/j/123456789");
      const { calendar, event } = await calendarIn(mail);
      expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
      expect(event.startDate.toJSDate().toISOString()).toBe(booked.scheduledAt);
      expect(event.endDate.toJSDate().getTime() - Date.parse(booked.scheduledAt)).toBe(3_600_000);
      expect(event.attendees.map((person) => person.getFirstValue())).toEqual([
        `mailto:${member.user.email}`,
        `mailto:${officer.email}`,
      ]);
    }
    expect(await freeOf(officer.id, member.user)).not.toContainEqual(slot);
  });

  it("gives a taken slot to one member only (409 for the others), also in a race", async () => {
    const { app, admin, officer } = scenario();
    const [first, second, third] = await Promise.all([
      approvedMemberOf(app, admin),
      approvedMemberOf(app, admin),
      approvedMemberOf(app, admin),
    ]);
    const slots = await freeOf(officer.id, first.user);
    const body = {
      interviewerId: officer.id,
      day: weekdayOf(slots[0].date),
      timeSlot: slots[0].timeSlot,
    };
    const answers = await Promise.all([
      book(first.user, body),
      book(second.user, body),
      book(third.user, body),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(
      await interviews().countDocuments({
        interviewerId: officer.id,
        date: slots[0].date,
        timeSlot: slots[0].timeSlot,
      }),
    ).toBe(1);
  });

  it("frees the old slot when a member books again, and tells the former interviewer", async () => {
    const { app, admin, officer, other } = scenario();
    const mover = await approvedMemberOf(app, admin);
    const waiting = await approvedMemberOf(app, admin);
    const [slot] = await freeOf(officer.id, mover.user);
    const first = { interviewerId: officer.id, day: weekdayOf(slot.date), timeSlot: slot.timeSlot };
    expect((await book(mover.user, first)).status).toBe(200);
    expect((await book(waiting.user, first)).status).toBe(409);

    const [elsewhere] = await freeOf(other.id, mover.user);
    const mailsBefore = app.mail.messages.length;
    const moved = await book(mover.user, {
      interviewerId: other.id,
      day: weekdayOf(elsewhere.date),
      timeSlot: elsewhere.timeSlot,
    });
    expect(moved.status).toBe(200);
    expect(await interviews().countDocuments({ memberId: mover.id })).toBe(1);
    const cancelled = await app.mail.waitFor(officer.email, {
      subject: /cancelled/i,
      after: mailsBefore,
    });
    expect((await calendarIn(cancelled)).calendar.getFirstPropertyValue("method")).toBe("CANCEL");

    expect((await book(waiting.user, first)).status).toBe(200);
  });

  it("refuses an applicant who is not approved, an unknown interviewer, a day not offered, bad input", async () => {
    const { app, admin, officer } = scenario();
    const pending = await buildUser(app);
    await applyAs(app, pending);
    const body = { interviewerId: officer.id, day: "MONDAY", timeSlot: "09:00 AM" };
    expect((await book(pending, body)).status).toBe(409);
    const nobody = await buildUser(app);
    expect((await book(nobody, body)).status).toBe(409);
    const none = await api().get("/api/v1/members/current/online-interview").set(bearer(nobody));
    expect(none.body).toMatchObject({ code: "OK", data: null });

    const member = await approvedMemberOf(app, admin);
    expect((await book(member.user, { ...body, interviewerId: admin.id })).status).toBe(404);
    expect((await book(member.user, { ...body, timeSlot: "01:00 PM" })).status).toBe(409);
    const bad = await book(member.user, {
      ...body,
      timeSlot: "9am",
      zoomLink: "javascript:alert(1)",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      "timeSlot",
      "zoomLink",
    ]);
    expect(await interviews().countDocuments({ memberId: member.id })).toBe(0);
  });
});

describe("outcomes and the schedule", () => {
  it("lets the interviewer or an administrator record the outcome, audited and mailed", async () => {
    const { app, admin, officer, other } = scenario();
    const { member, slot } = await bookedMember(officer.id);

    const patch = (token: string, body: object) =>
      api().patch(`/api/v1/members/${member.id}/interview`).set(bearer({ token })).send(body);
    expect((await patch(other.token, { outcome: "PASSED" })).status).toBe(403);
    expect((await patch(member.user.token, { outcome: "PASSED" })).status).toBe(403);
    expect((await patch(officer.token, { outcome: "MAYBE" })).status).toBe(400);

    const mailsBefore = app.mail.messages.length;
    const decided = await patch(officer.token, {
      outcome: "PASSED",
      note: "Clear sense of calling",
    });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({ outcome: "PASSED", note: "Clear sense of calling" });
    const mail = await app.mail.waitFor(member.user.email, {
      subject: /outcome/i,
      after: mailsBefore,
    });
    expect(mail.text).toContain("Clear sense of calling");
    const entry = await rawDb(app)
      .auditLogs.findOne({ action: "interview.outcome", targetId: member.id })
      .lean();
    expect(entry).not.toBeNull();

    const rebook = await book(member.user, {
      interviewerId: other.id,
      day: weekdayOf(slot.date),
      timeSlot: slot.timeSlot,
    });
    expect(rebook.status).toBe(409);
    expect((await patch(admin.token, { outcome: "NO_SHOW" })).status).toBe(200);
    const unknown = await api()
      .patch(`/api/v1/members/${other.id}/interview`)
      .set(bearer(admin))
      .send({ outcome: "PASSED" });
    expect(unknown.status).toBe(404);
  });

  it("lists interviews by date for administrators, and an officer's own for an officer", async () => {
    const { admin, officer, other } = scenario();
    const all = await api().get("/api/v1/interviews?limit=100").set(bearer(admin));
    expect(all.status).toBe(200);
    const dates = (all.body.data as { date: string; scheduledAt: string }[]).map(
      (item) => item.scheduledAt,
    );
    expect(dates).toEqual([...dates].sort());
    expect(all.body.pagination.totalCount).toBe(await interviews().estimatedDocumentCount());

    const own = await api().get("/api/v1/interviews?limit=100").set(bearer(officer));
    expect(own.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    for (const item of own.body.data) expect(item.interviewerId).toBe(officer.id);
    const theirs = await api()
      .get(`/api/v1/interviews?interviewerId=${other.id}`)
      .set(bearer(officer));
    expect(theirs.status).toBe(403);

    const first = all.body.data[0] as { date: string };
    const oneDay = await api()
      .get(`/api/v1/interviews?from=${first.date}&to=${first.date}`)
      .set(bearer(admin));
    expect(oneDay.status).toBe(200);
    for (const item of oneDay.body.data) expect(item.date).toBe(first.date);
    expect(oneDay.body.data.length).toBeGreaterThan(0);
    const badDate = await api().get("/api/v1/interviews?from=tomorrow").set(bearer(admin));
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors).toEqual([
      { path: "from", message: expect.stringContaining("YYYY-MM-DD") },
    ]);
    const member = await buildUser(scenario().app);
    expect((await api().get("/api/v1/interviews").set(bearer(member))).status).toBe(403);
  });
});

describe("privacy", () => {
  it("exports a member's bookings with the notes and erases them with the account", async () => {
    const { officer } = scenario();
    const { member, slot } = await bookedMember(officer.id);
    await api()
      .patch(`/api/v1/members/${member.id}/interview`)
      .set(bearer(officer))
      .send({ outcome: "FAILED", note: "Not yet ready" });

    const exported = await api().get("/api/v1/users/current/export").set(bearer(member.user));
    expect(exported.status).toBe(200);
    expect(exported.body.data.interviews).toEqual([
      expect.objectContaining({ memberId: member.id, outcome: "FAILED", note: "Not yet ready" }),
    ]);
    expect((await api().delete("/api/v1/users/current").set(bearer(member.user))).status).toBe(204);
    expect(await interviews().countDocuments({ userId: member.user.id })).toBe(0);
    expect(await freeOf(officer.id, officer)).toContainEqual(slot);
  });
});
