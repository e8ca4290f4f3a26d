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

/** The interviewer records the officers are linked to, made in beforeAll. */
const desks: Record<"officer" | "other", { id: string; key: string }> = {
  officer: { id: "", key: "officer-reyes" },
  other: { id: "", key: "officer-other" },
};

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

const weekdayOf = (date: string) => ALL_DAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];

/** A newly approved member booked into the interviewer's first free slot. */
async function bookedMember(interviewerId: string) {
  const { app, admin } = scenario();
  const member = await approvedMemberOf(app, admin);
  const [slot] = await freeOf(interviewerId, member.user);
  const body = { interviewerId, day: weekdayOf(slot.date), timeSlot: slot.timeSlot };
  expect((await book(member.user, body)).status).toBe(200);
  return { member, slot };
}

/** The .ics attachment of a received mail, parsed. */
async function calendarIn(mail: ReceivedMail) {
  const parsed = await simpleParser(mail.raw);
  const ics = parsed.attachments.find((file) => file.filename === "interview.ics");
  expect(ics?.contentType).toBe("text/calendar");
  const calendar = new ICAL.Component(ICAL.parse(ics!.content.toString("utf8")));
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

beforeAll(async () => {
  const { admin } = scenario();
  for (const name of ["officer", "other"] as const) {
    const account = scenario()[name];
    const created = await api()
      .post("/api/v1/interviewers/create")
      .set(bearer(admin))
      .send({
        key: desks[name].key,
        name: account.name,
        title: "Interviewer",
        email: account.email,
        userId: account.id,
        days: ALL_DAYS,
        timeSlots: ["10:00 AM", "09:00 AM"],
      });
    expect(created.status).toBe(201);
    desks[name].id = created.body.data.id;
  }
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

    const [slot] = await freeOf(desks.officer.id, member.user);
    const mailsBefore = app.mail.messages.length;
    const response = await book(member.user, {
      interviewerId: desks.officer.id,
      day: weekdayOf(slot.date),
      timeSlot: slot.timeSlot,
      zoomLink: "https://zoom.us/j/123456789",
      meetingId: "123 456 789",
      passcode: "faith",
    });
    expect(response.status).toBe(200);
    const booked = response.body.data;
    expect(booked).toMatchObject({
      interviewerId: desks.officer.id,
      interviewerKey: desks.officer.key,
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
    expect(await freeOf(desks.officer.id, member.user)).not.toContainEqual(slot);
  });

  it("books by key with the day in any letter case, as the organisation's site does", async () => {
    const { app, admin } = scenario();
    const member = await approvedMemberOf(app, admin);
    const listed = await api().get("/api/v1/interviewers").set(bearer(member.user));
    const rodel = (listed.body.data as { id: string; key: string; nextFree: FreeSlot[] }[]).find(
      (one) => one.key === "ptr-rodel",
    )!;
    const [slot] = rodel.nextFree;
    const mixed = weekdayOf(slot.date).charAt(0) + weekdayOf(slot.date).slice(1).toLowerCase();
    const mailsBefore = app.mail.messages.length;
    const response = await book(member.user, {
      interviewerId: "ptr-rodel",
      day: mixed,
      timeSlot: slot.timeSlot,
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      interviewerId: rodel.id,
      interviewerKey: "ptr-rodel",
      interviewerName: "Bishop Dr. Rodel Manzo",
      day: weekdayOf(slot.date),
      date: slot.date,
    });
    // ptr-rodel has no address yet: the member alone is mailed, and is the only attendee.
    const mail = await app.mail.waitFor(member.user.email, {
      subject: /booked/i,
      after: mailsBefore,
    });
    const { event } = await calendarIn(mail);
    expect(event.attendees.map((person) => person.getFirstValue())).toEqual([
      `mailto:${member.user.email}`,
    ]);
    await app.internals.mailer.flush();
    const sent = app.mail.messages
      .slice(mailsBefore)
      .filter((one) => /interview/i.test(one.subject));
    expect(sent.map((one) => one.to)).toEqual([[member.user.email]]);

    const lower = await approvedMemberOf(app, admin);
    const taken = await book(lower.user, {
      interviewerId: "PTR-RODEL",
      day: weekdayOf(slot.date).toLowerCase(),
      timeSlot: slot.timeSlot,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/just taken|choose another/);
  });

  it("gives a taken slot to one member only (409 for the others), also in a race", async () => {
    const { app, admin } = scenario();
    const [first, second, third] = await Promise.all([
      approvedMemberOf(app, admin),
      approvedMemberOf(app, admin),
      approvedMemberOf(app, admin),
    ]);
    const slots = await freeOf(desks.officer.id, first.user);
    const body = {
      interviewerId: desks.officer.key,
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
        interviewerId: desks.officer.id,
        date: slots[0].date,
        timeSlot: slots[0].timeSlot,
      }),
    ).toBe(1);
  });

  it("frees the old slot when a member books again, and tells the former interviewer", async () => {
    const { app, admin, officer } = scenario();
    const mover = await approvedMemberOf(app, admin);
    const waiting = await approvedMemberOf(app, admin);
    const [slot] = await freeOf(desks.officer.id, mover.user);
    const first = {
      interviewerId: desks.officer.id,
      day: weekdayOf(slot.date),
      timeSlot: slot.timeSlot,
    };
    expect((await book(mover.user, first)).status).toBe(200);
    expect((await book(waiting.user, first)).status).toBe(409);

    const [elsewhere] = await freeOf(desks.other.id, mover.user);
    const mailsBefore = app.mail.messages.length;
    const moved = await book(mover.user, {
      interviewerId: desks.other.key,
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

  it("refuses an applicant not approved, unknown and malformed keys, a day not offered, bad input, storing nothing", async () => {
    const { app, admin, officer } = scenario();
    const pending = await buildUser(app);
    await applyAs(app, pending);
    const body = { interviewerId: desks.officer.id, day: "MONDAY", timeSlot: "09:00 AM" };
    expect((await book(pending, body)).status).toBe(409);
    const nobody = await buildUser(app);
    expect((await book(nobody, body)).status).toBe(409);
    const none = await api().get("/api/v1/members/current/online-interview").set(bearer(nobody));
    expect(none.body).toMatchObject({ code: "OK", data: null });

    const member = await approvedMemberOf(app, admin);
    const unknown = await book(member.user, { ...body, interviewerId: "ptr-nobody" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("ptr-nobody");
    expect((await book(member.user, { ...body, interviewerId: officer.id })).status).toBe(404);
    const malformed = await book(member.user, { ...body, interviewerId: "ptr rodel!" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      code: "VALIDATION_ERROR",
      message: malformed.body.errors[0].message,
      errors: [{ path: "interviewerId", message: expect.stringContaining("key") }],
    });
    const funday = await book(member.user, { ...body, day: "Funday" });
    expect(funday.status).toBe(400);
    expect(funday.body.errors).toEqual([{ path: "day", message: funday.body.message }]);
    expect(funday.body.message).toMatch(/SATURDAY.*any letter case/);
    expect((await book(member.user, { ...body, timeSlot: "01:00 PM" })).status).toBe(409);
    const notOffered = await book(member.user, {
      interviewerId: "ptr-maria",
      day: "monday",
      timeSlot: "09:00 AM",
    });
    expect(notOffered.status).toBe(409);
    expect(notOffered.body.message).toMatch(/does not interview on MONDAY/);
    const bad = await book(member.user, {
      ...body,
      timeSlot: "9am",
      zoomLink: "javascript:alert(1)",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("The request has invalid fields");
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual([
      "timeSlot",
      "zoomLink",
    ]);
    expect(await interviews().countDocuments({ memberId: member.id })).toBe(0);
  });
});

describe("the meeting link", () => {
  it("the interviewer sets it: both sides get the updated invitation, no word of an outcome", async () => {
    const { app, officer } = scenario();
    const { member } = await bookedMember(desks.officer.id);
    const before = await interviews().findOne({ memberId: member.id }).lean();
    const mailsBefore = app.mail.messages.length;
    const response = await api()
      .patch(`/api/v1/members/${member.id}/interview/meeting`)
      .set(bearer(officer))
      .send({
        zoomLink: "https://zoom.us/j/987654321",
        meetingId: "987 654 321",
        passcode: "hope",
      });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      zoomLink: "https://zoom.us/j/987654321",
      meetingId: "987 654 321",
      passcode: "hope",
      outcome: "PENDING",
    });
    for (const to of [member.user.email, officer.email]) {
      const mail = await app.mail.waitFor(to, { subject: /meeting link/i, after: mailsBefore });
      expect(mail.text).toContain("https://zoom.us/j/987654321");
      expect(mail.text).toContain("Passcode: hope");
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/outcome|pending/i);
      const { calendar, vevent } = await calendarIn(mail);
      expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
      expect(vevent.getFirstPropertyValue("uid")).toBe(
        `interview-${before!._id}@chaplaincy-membership`,
      );
      expect(vevent.getFirstPropertyValue("sequence")).toBe(before!.sequence + 1);
      expect(vevent.getFirstPropertyValue("url")).toBe("https://zoom.us/j/987654321");
      expect(vevent.getFirstPropertyValue("location")).toBe("https://zoom.us/j/987654321");
    }
    await app.internals.mailer.flush();
    const sent = app.mail.messages.slice(mailsBefore);
    expect(sent.some((mail) => /outcome/i.test(mail.subject))).toBe(false);

    // Left out: kept; null: removed.
    const relinked = await api()
      .patch(`/api/v1/members/${member.id}/interview/meeting`)
      .set(bearer(scenario().admin))
      .send({ zoomLink: "https://meet.example.org/abc", passcode: null });
    expect(relinked.body.data).toMatchObject({
      zoomLink: "https://meet.example.org/abc",
      meetingId: "987 654 321",
      passcode: null,
    });
    const entries = await rawDb(app)
      .auditLogs.find({ action: "interview.meeting", targetId: member.id })
      .lean();
    expect(entries).toHaveLength(2);
  });

  it("refuses the member, another officer, an unknown member, a bad link and a decided interview", async () => {
    const { admin, officer, other } = scenario();
    const { member } = await bookedMember(desks.officer.id);
    const patch = (token: string, id: string, body: object) =>
      api().patch(`/api/v1/members/${id}/interview/meeting`).set(bearer({ token })).send(body);
    const link = { zoomLink: "https://zoom.us/j/1" };
    expect((await patch(member.user.token, member.id, link)).status).toBe(403);
    expect((await patch(other.token, member.id, link)).status).toBe(403);
    const unknown = await patch(admin.token, "01900000-0000-7000-8000-000000000000", link);
    expect(unknown.status).toBe(404);
    expect((await patch(admin.token, "not-a-uuid", link)).status).toBe(400);
    const bad = await patch(officer.token, member.id, { zoomLink: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("zoomLink must be an http(s) URL");
    expect((await patch(officer.token, member.id, {})).status).toBe(400);
    const stored = await interviews().findOne({ memberId: member.id }).lean();
    expect(stored!.zoomLink).toBeNull();

    await api()
      .patch(`/api/v1/members/${member.id}/interview`)
      .set(bearer(officer))
      .send({ outcome: "FAILED" });
    expect((await patch(officer.token, member.id, link)).status).toBe(409);
  });
});

describe("outcomes and the schedule", () => {
  it("lets the interviewer's account or an administrator record the outcome, audited and mailed", async () => {
    const { app, admin, officer, other } = scenario();
    const { member, slot } = await bookedMember(desks.officer.id);

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
      interviewerId: desks.other.id,
      day: weekdayOf(slot.date),
      timeSlot: slot.timeSlot,
    });
    expect(rebook.status).toBe(409);
    expect(rebook.body.message).toMatch(/passed already/);
    expect((await patch(admin.token, { outcome: "NO_SHOW" })).status).toBe(200);
    const unknown = await api()
      .patch(`/api/v1/members/${other.id}/interview`)
      .set(bearer(admin))
      .send({ outcome: "PASSED" });
    expect(unknown.status).toBe(404);
  });

  it("lists interviews by date for administrators (by id or key), and an officer's own for an officer", async () => {
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
    for (const item of own.body.data) expect(item.interviewerId).toBe(desks.officer.id);
    const theirs = await api()
      .get(`/api/v1/interviews?interviewerId=${desks.other.key}`)
      .set(bearer(officer));
    expect(theirs.status).toBe(403);
    const byKey = await api()
      .get(`/api/v1/interviews?interviewerId=ptr-rodel&limit=100`)
      .set(bearer(admin));
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.length).toBeGreaterThan(0);
    for (const item of byKey.body.data) expect(item.interviewerKey).toBe("ptr-rodel");
    const unknownKey = await api()
      .get(`/api/v1/interviews?interviewerId=ptr-nobody`)
      .set(bearer(admin));
    expect(unknownKey.status).toBe(404);
    const malformed = await api()
      .get(`/api/v1/interviews?interviewerId=Ptr_Rodel`)
      .set(bearer(admin));
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe("interviewerId");
    // An officer no interviewer is linked to holds none.
    expect(
      (
        await api()
          .get("/api/v1/interviews")
          .set(bearer(await officerWithoutDesk()))
      ).body,
    ).toMatchObject({ data: [], pagination: { totalCount: 0 } });

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
    expect(other.id).toBeTruthy();
  });
});

async function officerWithoutDesk(): Promise<TestUser> {
  return buildUser(scenario().app, { role: Role.OFFICER });
}

describe("privacy", () => {
  it("exports a member's bookings with the notes and erases them with the account", async () => {
    const { officer } = scenario();
    const { member, slot } = await bookedMember(desks.officer.id);
    await api()
      .patch(`/api/v1/members/${member.id}/interview`)
      .set(bearer(officer))
      .send({ outcome: "FAILED", note: "Not yet ready" });

    const exported = await api().get("/api/v1/users/current/export").set(bearer(member.user));
    expect(exported.status).toBe(200);
    expect(exported.body.data.interviews).toEqual([
      expect.objectContaining({ memberId: member.id, outcome: "FAILED", note: "Not yet ready" }),
    ]);
    expect(exported.body.data.interviewerRecords).toEqual([]);
    expect((await api().delete("/api/v1/users/current").set(bearer(member.user))).status).toBe(204);
    expect(await interviews().countDocuments({ userId: member.user.id })).toBe(0);
    expect(await freeOf(desks.officer.id, officer)).toContainEqual(slot);
  });
});
