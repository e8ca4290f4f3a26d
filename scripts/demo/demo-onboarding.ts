import bcrypt from "bcryptjs";
import { DUPLICATE } from "../../src/db/errors";
import { uuidv7 } from "../../src/db/uuid";
import {
  CivilStatus,
  Gender,
  MemberStatus,
  MemberType,
} from "../../src/modules/members/member.enums";
import { Course } from "../../src/modules/onboarding/course.model";
import { OnboardingStep, STEP_ORDER } from "../../src/modules/onboarding/onboarding-steps";
import { PaymentMethod, PaymentStatus } from "../../src/modules/onboarding/payment.model";
import { RequirementType, ReviewStatus } from "../../src/modules/onboarding/requirement.model";
import { Outcome } from "../../src/modules/interviews/interview.type";
import { Role } from "../../src/modules/users/role";
import type { UserRepository } from "../../src/modules/users/user.repository";
import type { Services } from "../../src/services";
import { callerOf, uploadAs, type DemoCaller } from "./demo-callers";
import { clearancePng, portraitJpeg, receiptPng } from "./demo-images";

const DAY = 86_400_000;
const WEEKDAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"];

interface Persona {
  firstName: string;
  lastName: string;
  gender: Gender;
  province: string;
  town: string;
  barangay: string;
  region: string;
  church: string;
  /** How many onboarding steps are done (7: sworn in); the current step is the last one done. */
  stepsDone: number;
  /** Listed among the service chaplains as a certified specialist, with this badge. */
  badge?: string;
}

const person = (
  firstName: string,
  lastName: string,
  gender: Gender,
  [barangay, town, province, region]: [string, string, string, string],
  church: string,
  stepsDone: number,
  badge?: string,
): Persona => ({
  firstName,
  lastName,
  gender,
  barangay,
  town,
  province,
  region,
  church,
  stepsDone,
  badge,
});

/** One member at each step of onboarding, then three certified chaplains who list themselves. */
export const DEMO_PERSONAS: Persona[] = [
  person(
    "Angelica",
    "Villanueva",
    Gender.FEMALE,
    ["Sampaloc", "Manila", "Metro Manila", "National Capital Region"],
    "Jesus Is Lord Church",
    1,
  ),
  person(
    "Rommel",
    "Bautista",
    Gender.MALE,
    ["Poblacion", "Tagum City", "Davao del Norte", "Davao Region"],
    "Davao Baptist Church",
    2,
  ),
  person(
    "Cristina",
    "Navarro",
    Gender.FEMALE,
    ["Jaro", "Iloilo City", "Iloilo", "Western Visayas"],
    "Jaro Evangelical Church",
    3,
  ),
  person(
    "Eduardo",
    "Ramos",
    Gender.MALE,
    ["San Roque", "Legazpi City", "Albay", "Bicol Region"],
    "Legazpi Christian Fellowship",
    4,
  ),
  person(
    "Lorna",
    "Castillo",
    Gender.FEMALE,
    ["Carmen", "Cagayan de Oro City", "Misamis Oriental", "Northern Mindanao"],
    "Christ the King Community Church",
    5,
  ),
  person(
    "Fernando",
    "Aquino",
    Gender.MALE,
    ["Malate", "Batangas City", "Batangas", "CALABARZON"],
    "Batangas Bible Church",
    6,
  ),
  person(
    "Teresita",
    "Mendoza",
    Gender.FEMALE,
    ["Lahug", "Cebu City", "Cebu", "Central Visayas"],
    "Victory Christian Fellowship",
    7,
  ),
  person(
    "Ramon",
    "Dizon",
    Gender.MALE,
    ["Dolores", "San Fernando City", "Pampanga", "Central Luzon"],
    "Pampanga Alliance Church",
    7,
    "CSTOI-0001",
  ),
  person(
    "Marites",
    "Ocampo",
    Gender.FEMALE,
    ["Session Road", "Baguio City", "Benguet", "Cordillera Administrative Region"],
    "Baguio Evangelical Church",
    7,
    "CSTOI-0002",
  ),
  person(
    "Virgilio",
    "Saldana",
    Gender.MALE,
    ["Tetuan", "Zamboanga City", "Zamboanga del Sur", "Zamboanga Peninsula"],
    "Zamboanga Gospel Church",
    7,
    "CSTOI-0003",
  ),
];

export const personaEmail = (p: { firstName: string; lastName: string }) =>
  `${p.firstName}.${p.lastName}@demo.example.org`.toLowerCase();

export interface DemoPeopleResult {
  added: number;
  /** The member records of those sworn in (new or from an earlier run): the news tags them. */
  sworn: string[];
}

/**
 * Each persona as the member would go: an account, an application the administrator
 * approves, then the wizard's steps one by one, each through the service its route calls.
 * A persona whose account exists already came from an earlier run and is left as it is.
 */
export async function seedDemoPeople(
  services: Services,
  users: UserRepository,
  admin: DemoCaller,
  options: { password: string; bcryptCost: number; noticeVersion: string },
): Promise<DemoPeopleResult> {
  const passwordHash = await bcrypt.hash(options.password, options.bcryptCost);
  const branches = (await services.branchServices.list({ page: 1, limit: 100 })).items;
  const result: DemoPeopleResult = { added: 0, sworn: [] };
  for (const [index, persona] of DEMO_PERSONAS.entries()) {
    const existing = await users.findByEmail(personaEmail(persona));
    if (existing) {
      const own = await services.members.reads.listOwn(callerOf(existing), { page: 1, limit: 1 });
      if (persona.stepsDone === 7 && own.items[0]) result.sworn.push(own.items[0].id);
      continue;
    }
    const user = await users.create({
      _id: uuidv7(),
      name: `${persona.firstName} ${persona.lastName}`,
      email: personaEmail(persona),
      passwordHash,
      role: Role.MEMBER,
      isEmailVerified: true,
    });
    // Another seed run took the address since the look-up above: let that one fill it.
    if (user === DUPLICATE) throw new Error(`${personaEmail(persona)} was created meanwhile`);
    const branch = branches[index % branches.length];
    const memberId = await walk(services, admin, callerOf(user), persona, index, {
      ...options,
      branchIds: branch ? [branch.id] : [],
    });
    if (persona.stepsDone === 7) result.sworn.push(memberId);
    result.added += 1;
  }
  return result;
}

async function walk(
  services: Services,
  admin: DemoCaller,
  me: DemoCaller,
  persona: Persona,
  index: number,
  options: { noticeVersion: string; branchIds: string[] },
): Promise<string> {
  const applied = await services.members.applications.apply(me, {
    firstName: persona.firstName,
    lastName: persona.lastName,
    mobilePhoneNumber: `0917${String(5550100 + index).padStart(7, "0")}`,
    homeAddress: `${12 + index * 7} Rizal Street, ${persona.barangay}, ${persona.town}`,
    civilStatus: index % 3 === 0 ? CivilStatus.SINGLE : CivilStatus.MARRIED,
    gender: persona.gender,
    nationality: "Filipino",
    dateOfBirth: new Date(Date.UTC(1970 + index * 2, index % 12, 10 + index)),
    region: persona.region,
    province: persona.province,
    municipalityCity: persona.town,
    barangay: persona.barangay,
    emergencyContactName: `Rosa ${persona.lastName}`,
    emergencyContactMobile: `0918${String(5550200 + index).padStart(7, "0")}`,
    churchAffiliation: persona.church,
    churchAddress: `${persona.barangay}, ${persona.town}`,
    currentPositionRole: index % 2 === 0 ? "Pastor" : "Elder",
    preferredBranchIds: options.branchIds,
    privacyConsent: { noticeVersion: options.noticeVersion },
  });
  const memberId = applied.id;
  await services.members.reviews.updateStatus(admin, {
    id: memberId,
    status: MemberStatus.APPROVED,
    reason: "Complete application, references called",
  });
  const steps = STEP_ORDER.slice(0, persona.stepsDone);
  for (const [position, step] of steps.entries()) {
    if (position > 0) await services.onboarding.progress.moveTo(me, step);
    await STEP_ACTIONS[step]({ services, admin, me, memberId, persona, index });
  }
  if (persona.badge) {
    await services.memberPublic.setMemberType(
      memberId,
      MemberType.CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR,
      persona.badge,
    );
    await services.memberPublic.setPublicProfile(me, {
      listed: true,
      showPhoto: true,
      showLocation: true,
      showBranches: true,
      showChurch: true,
    });
  }
  return memberId;
}

interface StepContext {
  services: Services;
  admin: DemoCaller;
  me: DemoCaller;
  memberId: string;
  persona: Persona;
  index: number;
}

/** What a member (and an administrator, where one decides) does to get each step done. */
const STEP_ACTIONS: Record<OnboardingStep, (c: StepContext) => Promise<void>> = {
  [OnboardingStep.REQUIREMENTS]: async ({ services, admin, me, memberId, persona }) => {
    const colours =
      persona.gender === Gender.FEMALE ? ["#dbe8f5", "#8e2447"] : ["#e6eef0", "#1f3b5a"];
    const photo = await uploadAs(services, me, "REQUIREMENT", "2x2.jpg", () =>
      portraitJpeg(colours[0], colours[1]),
    );
    const clearance = await uploadAs(services, me, "REQUIREMENT", "nbi-clearance.png", () =>
      clearancePng("NBI Clearance"),
    );
    await services.onboarding.requirements.save(me, {
      attachments: [
        { type: RequirementType.PHOTO_2X2, fileId: photo.id },
        { type: RequirementType.CLEARANCE_NBI, fileId: clearance.id },
      ],
    });
    // The first persona's documents wait for review; the others' photo was approved.
    if (persona.stepsDone > 1)
      await services.onboarding.requirements.review(admin, {
        id: memberId,
        type: RequirementType.PHOTO_2X2,
        reviewStatus: ReviewStatus.APPROVED,
      });
  },
  [OnboardingStep.PRE_ORIENTATION]: async ({ services, me }) => {
    const lessons = await services.onboarding.catalogue.lessons(Course.PRE_ORIENTATION);
    await services.onboarding.training.savePreOrientation(me, {
      completedLessonIds: lessons.map((lesson) => lesson.id),
      isCompleted: true,
    });
  },
  [OnboardingStep.PAYMENT_CHECKOUT]: async ({ services, me, index }) => {
    const reference = `${8010 + index}-${4412 + index * 3}-${1290 + index}`;
    const proof = await uploadAs(services, me, "PAYMENT_PROOF", "gcash-receipt.png", () =>
      receiptPng(reference, 500),
    );
    await services.onboarding.payments.save(me, {
      paymentMethod: PaymentMethod.E_WALLET,
      proofFileId: proof.id,
      isPromissoryNote: false,
    });
  },
  [OnboardingStep.ONLINE_INTERVIEW]: async ({ services, me, index }) => {
    const offers = await services.interviewers.offers();
    const interviewer = offers[index % offers.length];
    const slot = interviewer.nextFree[0];
    await services.interviews.book(me, {
      interviewerId: interviewer.key,
      day: WEEKDAYS[new Date(`${slot.date}T00:00:00Z`).getUTCDay()],
      timeSlot: slot.timeSlot,
    });
  },
  [OnboardingStep.ID_GENERATION]: async ({ services, admin, me, memberId }) => {
    await services.onboarding.payments.decide(admin, {
      id: memberId,
      status: PaymentStatus.VERIFIED,
      note: "GCash reference matched",
    });
    await services.idCredentials.generate(me.id);
  },
  [OnboardingStep.CHAPLAINCY_101]: async ({ services, me, persona }) => {
    const lessons = await services.onboarding.catalogue.lessons(Course.CHAPLAINCY_101);
    const questions = await services.onboarding.catalogue.questions();
    await services.onboarding.training.saveChaplaincy(me, {
      completedLessonIds: lessons.map((lesson) => lesson.id),
      essayAnswers: Object.fromEntries(
        questions.map((question) => [
          String(question.id),
          `From my years serving at ${persona.church}: I listen first, pray with the person when asked, and refer them when their need is beyond what a chaplain should handle.`,
        ]),
      ),
      isCompleted: true,
    });
  },
  [OnboardingStep.OATH_TAKING]: async ({ services, admin, memberId, persona }) => {
    await services.interviews.recordOutcome(admin, {
      id: memberId,
      outcome: Outcome.PASSED,
      note: "Clear sense of calling; ready to serve",
    });
    await services.onboarding.admin.recordOath(admin, {
      id: memberId,
      takenAt: new Date(Date.now() - 14 * DAY),
      place: `${persona.town} chapel`,
      officiant: "Bishop Dr. Rodel Manzo",
    });
  },
};
