import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { parse } from "graphql";
import { Role } from "../../src/modules/users/role";
import { approvedMemberOf } from "../support/factories";
import { useScenario } from "../support/scenario";

// Written here rather than in the generated operations, which the lead regenerates at merge.
const doc = <R>(source: string) => parse(source) as TypedDocumentNode<R, Record<string, unknown>>;
interface Slot {
  date: string;
  timeSlot: string;
}
interface Booking {
  id: string;
  date: string;
  outcome: string;
  interviewerName: string;
}

const SET_INTERVIEWER = doc<{
  setInterviewer: { data: { name: string; days: string[] } };
}>(`
  mutation ($userId: UUID!, $days: [Weekday!]!, $timeSlots: [String!]!) {
    setInterviewer(userId: $userId, active: true, days: $days, timeSlots: $timeSlots) {
      code data { id name days timeSlots nextFree { date timeSlot } }
    }
  }`);
const INTERVIEWERS = doc<{ interviewers: { data: { nextFree: Slot[] }[] } }>(
  `{ interviewers { code data { id nextFree { date timeSlot } } } }`,
);
const CURRENT = doc<{ currentOnlineInterview: { data: Booking | null } }>(
  `{ currentOnlineInterview { code data { id outcome scheduledAt interviewerName } } }`,
);
const BOOK = doc<{ bookOnlineInterview: { data: Booking } }>(`
  mutation ($interviewerId: UUID!, $day: Weekday!, $timeSlot: String!) {
    bookOnlineInterview(interviewerId: $interviewerId, day: $day, timeSlot: $timeSlot) {
      code data { id date timeSlot outcome interviewerName scheduledAt }
    }
  }`);
const OUTCOME = doc<{ recordInterviewOutcome: { data: { outcome: string } } }>(`
  mutation ($id: UUID!, $outcome: InterviewOutcome!) {
    recordInterviewOutcome(id: $id, outcome: $outcome) { code data { outcome } }
  }`);
const SCHEDULE = doc<{
  interviews: { pagination: { totalCount: number }; data: { memberId: string }[] };
}>(`{ interviews(limit: 5) { pagination { totalCount } data { memberId } } }`);

const scenario = useScenario({ users: { officer: { role: Role.OFFICER, name: "Officer Cruz" } } });
const WEEKDAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

it("offers, books, decides and lists through /graphql with the REST rules", async () => {
  const { app, admin, officer } = scenario();
  const set = await app.graphql(
    SET_INTERVIEWER,
    { userId: officer.id, days: ["SATURDAY"], timeSlots: ["09:00 AM"] },
    admin.token,
  );
  expect(set.errors).toBeUndefined();
  expect(set.data!.setInterviewer.data).toMatchObject({ name: "Officer Cruz", days: ["SATURDAY"] });

  const member = await approvedMemberOf(app, admin);
  expect(
    (await app.graphql(CURRENT, {}, member.user.token)).data!.currentOnlineInterview.data,
  ).toBeNull();
  const listed = await app.graphql(INTERVIEWERS, {}, member.user.token);
  const [slot] = listed.data!.interviewers.data[0].nextFree;
  expect(WEEKDAYS[new Date(`${slot.date}T00:00:00Z`).getUTCDay()]).toBe("SATURDAY");

  const booked = await app.graphql(
    BOOK,
    { interviewerId: officer.id, day: "SATURDAY", timeSlot: "09:00 AM" },
    member.user.token,
  );
  expect(booked.errors).toBeUndefined();
  expect(booked.data!.bookOnlineInterview.data).toMatchObject({
    date: slot.date,
    outcome: "PENDING",
    interviewerName: "Officer Cruz",
  });
  const second = await approvedMemberOf(app, admin);
  const taken = await app.graphql(
    BOOK,
    { interviewerId: officer.id, day: "SATURDAY", timeSlot: "09:00 AM" },
    second.user.token,
  );
  expect(taken.errors![0].extensions).toMatchObject({ code: "CONFLICT", status: 409 });

  const forbidden = await app.graphql(
    OUTCOME,
    { id: member.id, outcome: "PASSED" },
    member.user.token,
  );
  expect(forbidden.errors![0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
  const decided = await app.graphql(OUTCOME, { id: member.id, outcome: "PASSED" }, officer.token);
  expect(decided.data!.recordInterviewOutcome.data.outcome).toBe("PASSED");

  const schedule = await app.graphql(SCHEDULE, {}, admin.token);
  expect(schedule.data!.interviews.pagination.totalCount).toBe(1);
  expect(schedule.data!.interviews.data[0].memberId).toBe(member.id);
  const anonymous = await app.graphql(INTERVIEWERS, {});
  expect(anonymous.errors![0].extensions).toMatchObject({ code: "UNAUTHENTICATED", status: 401 });
});
