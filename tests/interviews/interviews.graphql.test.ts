import { Role } from "../../src/modules/users/role";
import { approvedMemberOf } from "../support/factories";
import { useScenario } from "../support/scenario";
import {
  BookOnlineInterviewDocument,
  CreateInterviewerDocument,
  CurrentOnlineInterviewDocument,
  DeactivateInterviewerDocument,
  DeleteInterviewerDocument,
  InterviewScheduleDocument,
  InterviewerRecordsDocument,
  InterviewersDocument,
  RecordInterviewOutcomeDocument,
  SetInterviewMeetingDocument,
  UpdateInterviewerEmailDocument,
} from "../graphql/generated";

const scenario = useScenario({ users: { officer: { role: Role.OFFICER, name: "Officer Cruz" } } });

it("keeps interviewer records through /graphql with the REST rules", async () => {
  const { app, admin, officer } = scenario();
  const made = await app.graphql(
    CreateInterviewerDocument,
    { key: "officer-cruz", name: "Officer Cruz", title: "Interviewer", userId: officer.id },
    admin.token,
  );
  expect(made.errors).toBeUndefined();
  expect(made.data!.createInterviewer).toMatchObject({
    code: "CREATED",
    data: { key: "officer-cruz", userId: officer.id, active: true, days: ["SATURDAY"] },
  });
  const taken = await app.graphql(
    CreateInterviewerDocument,
    { key: "ptr-rodel", name: "x", title: "y" },
    admin.token,
  );
  expect(taken.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
  const malformed = await app.graphql(
    CreateInterviewerDocument,
    { key: "Ptr Rodel", name: "x", title: "y" },
    admin.token,
  );
  expect(malformed.errors![0]).toMatchObject({
    message: expect.stringContaining("lower-case letters"),
    extensions: { code: "VALIDATION_ERROR", status: 400 },
  });
  const byOfficer = await app.graphql(
    CreateInterviewerDocument,
    { key: "by-officer", name: "x", title: "y" },
    officer.token,
  );
  expect(byOfficer.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });

  const updated = await app.graphql(
    UpdateInterviewerEmailDocument,
    { id: "ptr-maria", email: "Maria@Example.org" },
    admin.token,
  );
  expect(updated.data!.updateInterviewer.data).toMatchObject({
    key: "ptr-maria",
    email: "maria@example.org",
  });
  const unknown = await app.graphql(
    UpdateInterviewerEmailDocument,
    { id: "ptr-nobody", email: null },
    admin.token,
  );
  expect(unknown.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });

  const spare = await app.graphql(
    CreateInterviewerDocument,
    { key: "ptr-spare", name: "Ptr. Spare", title: "Interviewer" },
    admin.token,
  );
  const off = await app.graphql(DeactivateInterviewerDocument, { id: "ptr-spare" }, admin.token);
  expect(off.data!.deactivateInterviewer.data).toMatchObject({ active: false });
  const records = await app.graphql(InterviewerRecordsDocument, {}, admin.token);
  expect(records.data!.interviewerRecords.data).toContainEqual(
    expect.objectContaining({ key: "ptr-spare", active: false }),
  );
  const deleted = await app.graphql(
    DeleteInterviewerDocument,
    { id: spare.data!.createInterviewer.data.id },
    admin.token,
  );
  expect(deleted.data!.deleteInterviewer).toMatchObject({ code: "OK", data: { key: "ptr-spare" } });
});

it("books by key, sets the meeting, decides and lists through /graphql with the REST rules", async () => {
  const { app, admin, officer } = scenario();
  const member = await approvedMemberOf(app, admin);
  expect(
    (await app.graphql(CurrentOnlineInterviewDocument, {}, member.user.token)).data!
      .currentOnlineInterview.data,
  ).toBeNull();
  const listed = await app.graphql(InterviewersDocument, {}, member.user.token);
  const cruz = listed.data!.interviewers.data.find((one) => one.key === "officer-cruz")!;
  const [slot] = cruz.nextFree;
  expect(new Date(`${slot.date}T00:00:00Z`).getUTCDay()).toBe(6);

  const booked = await app.graphql(
    BookOnlineInterviewDocument,
    { interviewerId: "officer-cruz", day: "saturday", timeSlot: "09:00 AM" },
    member.user.token,
  );
  expect(booked.errors).toBeUndefined();
  expect(booked.data!.bookOnlineInterview.data).toMatchObject({
    date: slot.date,
    outcome: "PENDING",
    interviewerName: "Officer Cruz",
    interviewerKey: "officer-cruz",
  });
  const second = await approvedMemberOf(app, admin);
  const taken = await app.graphql(
    BookOnlineInterviewDocument,
    { interviewerId: cruz.id, day: "SATURDAY", timeSlot: "09:00 AM" },
    second.user.token,
  );
  expect(taken.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });
  const unknown = await app.graphql(
    BookOnlineInterviewDocument,
    { interviewerId: "ptr-nobody", day: "Saturday", timeSlot: "09:00 AM" },
    second.user.token,
  );
  expect(unknown.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });
  const badDay = await app.graphql(
    BookOnlineInterviewDocument,
    { interviewerId: "ptr-rodel", day: "Sabado", timeSlot: "09:00 AM" },
    second.user.token,
  );
  expect(badDay.errors![0]).toMatchObject({
    message: expect.stringContaining("any letter case"),
    extensions: { code: "VALIDATION_ERROR", status: 400 },
  });

  const link = "https://zoom.us/j/555";
  const memberMeeting = await app.graphql(
    SetInterviewMeetingDocument,
    { id: member.id, zoomLink: link },
    member.user.token,
  );
  expect(memberMeeting.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
  const meeting = await app.graphql(
    SetInterviewMeetingDocument,
    { id: member.id, zoomLink: link },
    officer.token,
  );
  expect(meeting.data!.setInterviewMeeting.data).toMatchObject({
    zoomLink: link,
    outcome: "PENDING",
  });
  const noBooking = await app.graphql(
    SetInterviewMeetingDocument,
    { id: second.id, zoomLink: link },
    admin.token,
  );
  expect(noBooking.errors![0].extensions).toMatchObject({ code: "NOT_FOUND", status: 404 });

  const forbidden = await app.graphql(
    RecordInterviewOutcomeDocument,
    { id: member.id, outcome: "PASSED" },
    member.user.token,
  );
  expect(forbidden.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
  const decided = await app.graphql(
    RecordInterviewOutcomeDocument,
    { id: member.id, outcome: "PASSED" },
    officer.token,
  );
  expect(decided.data!.recordInterviewOutcome.data?.outcome).toBe("PASSED");

  const schedule = await app.graphql(
    InterviewScheduleDocument,
    { interviewerId: "officer-cruz" },
    admin.token,
  );
  expect(schedule.data!.interviews.pagination.totalCount).toBe(1);
  expect(schedule.data!.interviews.data[0].memberId).toBe(member.id);
  const own = await app.graphql(InterviewScheduleDocument, {}, officer.token);
  expect(own.data!.interviews.pagination.totalCount).toBe(1);
  const anonymous = await app.graphql(InterviewersDocument, {});
  expect(anonymous.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
});
