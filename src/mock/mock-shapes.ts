import { DEFAULT_HEADQUARTERS } from "../config";
import { DEFAULT_INTERVIEWERS } from "../modules/interviews/interviewer-defaults";
import { DEFAULT_ESSAY_QUESTIONS, DEFAULT_LESSONS } from "../modules/onboarding/course-defaults";
import { Course } from "../modules/onboarding/course.model";
import { OnboardingStep, STEP_ORDER } from "../modules/onboarding/onboarding-steps";
import { stepStates } from "../modules/onboarding/step-rules";
import { fullName, type Persona } from "./persona";

type Row = Record<string, unknown>;

export interface ShapeContext {
  index: number;
  persona: Persona;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The mock's "now": fixed, so every start answers the same dates. */
const MOCK_NOW = Date.UTC(2026, 0, 1);
const MEMBERSHIP_FEE_PHP = 500;

const EVENT_NAMES = [
  "Chaplains' National Convention",
  "Hospital Chaplaincy Orientation",
  "Feeding Program and Prayer Walk",
  "Trauma-Informed Care Seminar",
  "Day of Prayer for the Uniformed Services",
  "Regional Fellowship Night",
  "Psychological First Aid Training",
  "Prison Ministry Worship Service",
];
const EVENT_VENUES = ["Provincial Capitol grounds", "City Sports Complex", "Cathedral parish hall"];
const ORGANIZERS = [
  "National Chaplain Directorate",
  "Formation Office",
  "Regional Chaplain Directorate",
];

const NEWS_TITLES = [
  "New associate chaplains take their oath",
  "Chaplains serve evacuees after the typhoon",
  "Registration for the National Convention is open",
  "Hospital chaplains honoured by the Department of Health",
  "Prison ministry reaches 1,200 inmates this quarter",
  "Regional directors meet to plan the year",
];

/**
 * The records of the newer parts of the schema made to agree with themselves and with the
 * contract: an event's place follows its type and its end its start; a post's dates follow its
 * status; a payment is the membership fee in pesos; onboarding shows its seven steps in order.
 * Each runs after every field of its record is made (src/mock/mock-records.ts).
 */
export const SHAPES: Record<string, (record: Row, c: ShapeContext) => void> = {
  Event: (record, c) => eventShape(record, c),
  PublicEvent: (record, c) => {
    eventShape(record, c);
    record.visibility = "PUBLIC";
  },
  NewsPost: (record, c) => {
    const title = NEWS_TITLES[c.index % NEWS_TITLES.length];
    record.title = `${title} in ${c.persona.town}`;
    record.caption = `<p>${title} in <strong>${c.persona.town}, ${c.persona.province}</strong>.</p>`;
    record.platform = c.index % 3 === 1 ? "FACEBOOK" : "WEBSITE";
    record.hashtags = ["PearlChaplaincy", c.persona.province.replace(/\W/g, "")];
    record.scheduledAt = null;
    publishedShape(record, c);
  },
  NewsMedia: (record, c) => {
    record.kind = "IMAGE";
    record.fileName = `photo-${c.index + 1}.jpg`;
    record.fileUrl = `https://example.org/news/photo-${c.index + 1}.jpg`;
    record.sortOrder = c.index;
  },
  TaggedMember: (record, c) => {
    record.fullName = fullName(c.persona);
  },
  Headquarters: (record) => Object.assign(record, DEFAULT_HEADQUARTERS),
  MembershipPayment: (record, c) => paymentShape(record, c),
  SubmittedPayment: (record, c) => {
    paymentShape(record, c);
    record.fullName = fullName(c.persona);
  },
  Requirement: (record, c) => requirementShape(record, c),
  PendingRequirement: (record, c) => {
    requirementShape(record, c);
    record.fullName = fullName(c.persona);
  },
  OnboardingProgress: (record) => progressShape(record),
  // A median of whole days is a whole or a half day.
  ReportFunnelStep: (record) => {
    record.medianDays = Math.round(Number(record.medianDays) * 2) / 2;
  },
  Interviewer: (record, c) => {
    const known = DEFAULT_INTERVIEWERS[c.index % DEFAULT_INTERVIEWERS.length];
    Object.assign(record, { key: known.key, name: known.name, title: known.title, active: true });
    record.days = ["SATURDAY", "SUNDAY"];
    record.timeSlots = ["08:00 AM", "09:00 AM", "10:00 AM", "01:00 PM", "02:00 PM"];
  },
  FreeSlot: (record, c) => {
    // Saturdays after the mock's "now" (2026-01-01 is a Thursday).
    record.date = new Date(MOCK_NOW + (2 + 7 * c.index) * DAY).toISOString().slice(0, 10);
    record.timeSlot = "09:00 AM";
  },
  Lesson: (record, c) => {
    const course =
      record.course === Course.CHAPLAINCY_101 ? Course.CHAPLAINCY_101 : Course.PRE_ORIENTATION;
    const titles = DEFAULT_LESSONS[course];
    record.id = (c.index % titles.length) + 1;
    record.order = record.id;
    record.title = titles[c.index % titles.length];
    record.contentUrl = null;
  },
  EssayQuestion: (record, c) => {
    record.id = (c.index % DEFAULT_ESSAY_QUESTIONS.length) + 1;
    record.order = record.id;
    record.prompt = DEFAULT_ESSAY_QUESTIONS[c.index % DEFAULT_ESSAY_QUESTIONS.length];
  },
};

function eventShape(record: Row, c: ShapeContext): void {
  const name = EVENT_NAMES[c.index % EVENT_NAMES.length];
  record.name = record.type === "ONLINE" ? name : `${name}, ${c.persona.town}`;
  record.organizer = ORGANIZERS[c.index % ORGANIZERS.length];
  record.description = `${name}: chaplains of ${c.persona.province} and their guests are welcome.`;
  record.thumbnailUrl = `https://example.org/events/${c.index + 1}.png`;
  if (record.type === "ONLINE") {
    Object.assign(record, {
      location: null,
      onlineLink: `https://zoom.us/j/8341224${String(5600 + c.index)}`,
      meetingPlatform: "ZOOM",
    });
    if ("meetingId" in record)
      Object.assign(record, {
        meetingId: `834 1224 ${5600 + c.index}`,
        meetingPassword: "Pearl2026",
      });
  } else {
    Object.assign(record, {
      location: `${EVENT_VENUES[c.index % EVENT_VENUES.length]}, ${c.persona.town}, ${c.persona.province}`,
      onlineLink: null,
      meetingPlatform: null,
    });
    if ("meetingId" in record) Object.assign(record, { meetingId: null, meetingPassword: null });
  }
  // Spread over the weeks around the mock's "now", 9 AM in Manila, lasting a few hours.
  const startsAt = MOCK_NOW + (c.index * 9 - 60) * DAY + HOUR;
  record.startsAt = new Date(startsAt).toISOString();
  record.endsAt = new Date(startsAt + (2 + (c.index % 3) * 3) * HOUR).toISOString();
  if (record.status !== "CANCELLED")
    record.status = startsAt < MOCK_NOW ? "COMPLETED" : "SCHEDULED";
  record.createdAt = new Date(Math.min(startsAt, MOCK_NOW) - (30 + c.index) * DAY).toISOString();
  record.updatedAt = record.createdAt;
}

/** The membership fee in pesos, its proof by method, its dates and note by status. */
function paymentShape(record: Row, c: ShapeContext): void {
  record.amount = MEMBERSHIP_FEE_PHP;
  record.currency = "PHP";
  const cash = record.paymentMethod === "CASH";
  record.isPromissoryNote = false;
  record.promissoryNoteUrl = null;
  record.promissoryNoteFileId = null;
  if (cash) Object.assign(record, { proofOfPaymentUrl: null, proofFileId: null });
  else record.proofOfPaymentUrl = `https://example.org/files/receipt-${c.index + 1}.jpg`;
  const submitted = Date.parse(String(record.submittedAt));
  record.verifiedAt =
    record.status === "VERIFIED" ? new Date(submitted + 2 * DAY).toISOString() : null;
  record.reviewNote =
    record.status === "REJECTED" ? "The reference number does not match a transfer" : null;
}

/** A document as uploaded: a photo or a scanned certificate. */
function requirementShape(record: Row, c: ShapeContext): void {
  const photo = record.type === "PHOTO_2X2";
  record.fileName = photo ? "2x2.jpg" : `${String(record.type).toLowerCase()}.pdf`;
  record.mimeType = photo ? "image/jpeg" : "application/pdf";
  record.fileUrl = `https://example.org/files/${c.index + 1}/${String(record.fileName)}`;
  record.reviewNote = record.reviewStatus === "REJECTED" ? "The scan is too blurred to read" : null;
}

function publishedShape(record: Row, c: ShapeContext): void {
  const created = MOCK_NOW - (c.index * 4 + 1) * DAY;
  record.createdAt = new Date(created).toISOString();
  record.updatedAt = new Date(created + HOUR).toISOString();
  record.publishedAt = record.status === "PUBLISHED" ? record.updatedAt : null;
}

/** The seven steps as the service reports them: those before the current one done. */
function progressShape(record: Row): void {
  const at = STEP_ORDER.indexOf(record.currentStep as OnboardingStep);
  const past = (step: OnboardingStep) => STEP_ORDER.indexOf(step) < at;
  const states = stepStates({
    photo2x2: past(OnboardingStep.REQUIREMENTS) ? "APPROVED" : "MISSING",
    preOrientation: {
      completed: past(OnboardingStep.PRE_ORIENTATION),
      remainingTitles: past(OnboardingStep.PRE_ORIENTATION) ? [] : DEFAULT_LESSONS.PRE_ORIENTATION,
    },
    payment: past(OnboardingStep.PAYMENT_CHECKOUT) ? "VERIFIED" : null,
    interview: past(OnboardingStep.ONLINE_INTERVIEW) ? "PENDING" : null,
    assetsGenerated: past(OnboardingStep.ID_GENERATION),
    chaplaincy: {
      completed: past(OnboardingStep.CHAPLAINCY_101),
      remainingTitles: past(OnboardingStep.CHAPLAINCY_101) ? [] : DEFAULT_LESSONS.CHAPLAINCY_101,
      unanswered: past(OnboardingStep.CHAPLAINCY_101) ? 0 : DEFAULT_ESSAY_QUESTIONS.length,
    },
    oathRecorded: false,
  });
  record.steps = states.map((state) => ({ ...state, missing: [...state.missing] }));
  const preDone = past(OnboardingStep.PRE_ORIENTATION);
  record.preOrientationCompletedLessonIds = preDone ? [1, 2, 3, 4, 5] : [];
  if (!preDone) record.preOrientationCompletedAt = null;
  record.completedAt = null;
}
