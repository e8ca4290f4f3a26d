import { TIME_SLOTS, Weekday } from "./interview-calendar";

/** The default offer of an interviewer (shared/spec/onboarding-defaults.md, "Interview slots"). */
export const DEFAULT_DAYS: readonly Weekday[] = [Weekday.SATURDAY, Weekday.SUNDAY];
export const DEFAULT_SLOTS: readonly string[] = TIME_SLOTS;

/**
 * The three interviewers the organisation's site offers by key (onboarding-defaults.md). Their
 * ids are fixed, so seeding is an insert-only upsert by id that two instances starting at once
 * cannot double.
 */
export const DEFAULT_INTERVIEWERS = [
  {
    _id: "01941f29-7c00-7000-8000-000000000001",
    key: "ptr-rodel",
    name: "Bishop Dr. Rodel Manzo",
    title: "Chief Chaplain",
  },
  {
    _id: "01941f29-7c00-7000-8000-000000000002",
    key: "ptr-maria",
    name: "Ptr. Maria Santos",
    title: "Formation Interviewer",
  },
  {
    _id: "01941f29-7c00-7000-8000-000000000003",
    key: "ptr-jose",
    name: "Ptr. Jose Dela Cruz",
    title: "Ministry Interviewer",
  },
] as const;

/** The title a record written before titles existed gets. */
export const FORMER_TITLE = "Interviewer";
