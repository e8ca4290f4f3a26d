import { Course } from "./course.model";

/** What a fresh database starts with (the organisation's wizard; shared/spec/onboarding-defaults.md). */
export const DEFAULT_LESSONS: Record<Course, string[]> = {
  [Course.PRE_ORIENTATION]: [
    "Mission and Vision of Pearl of the Orient",
    "History of Pearl of the Orient Chaplaincy",
    "Core Functions and Ministry Areas",
    "Biblical Principles in Chaplaincy Service",
    "Code of Conduct and Ethical Standards",
  ],
  [Course.CHAPLAINCY_101]: [
    "The Chaplaincy",
    "What Is a Chaplain",
    "What Does a Pearl Chaplain Do",
    "Chaplain vs. Pastor",
    "Types of Chaplaincies",
    "Professional Ethics for Pearl Chaplaincy",
    "Chaplains Courtesy and Discipline",
    "Pearl Chaplaincy Membership",
  ],
};

export const DEFAULT_ESSAY_QUESTIONS = [
  "What sets chaplaincy apart from ministry inside a congregation?",
  "How can you care in a Christ-centred way for people of other beliefs or of none?",
  "What is one practical way you would meet a person in emotional crisis?",
  "Which boundaries would you keep in one-to-one counselling, and why?",
  "How would you answer questions about suffering and God from someone in grief?",
  "How does trauma-informed care change the way you speak with survivors?",
  "How would you record a ministry encounter while keeping it confidential?",
  "How do you know when to refer a person to a licensed professional?",
  "Which habits keep a chaplain from burning out?",
  "How would you support a family through terminal illness and end-of-life decisions?",
];
