import bcrypt from "bcryptjs";
import type { Connection } from "mongoose";
import type { FieldCipher } from "../../src/db/field-cipher";
import { oneOf } from "../../src/db/operators";
import { searchableText } from "../../src/db/search-text";
import { uuidv7 } from "../../src/db/uuid";
import { createBranchServiceModel } from "../../src/modules/branch-services/branch-service.model";
import {
  CivilStatus,
  Gender,
  MemberStatus,
  SignatureType,
} from "../../src/modules/members/member.enums";
import {
  createMemberModel,
  openKeyOf,
  choiceOf,
  sealed,
  searchTextOf,
  type MemberRecord,
} from "../../src/modules/members/member.model";
import { manilaMonth } from "../../src/modules/reports/report-ports";
import { duplicateKeysOf, type DuplicateKeys } from "../../src/modules/members/member-duplicates";
import {
  createMemberCounterModel,
  type MemberCounterModel,
} from "../../src/modules/members/member-identity.repository";
import { canonicalRegion } from "../../src/modules/members/regions";
import { formatUniqueId, manilaYear } from "../../src/modules/members/unique-id";
import { OnboardingStep } from "../../src/modules/onboarding/onboarding-steps";
import { Role } from "../../src/modules/users/role";
import { createUserModel, type UserRecord } from "../../src/modules/users/user.model";
import {
  BRANCHES,
  CHURCHES,
  FIRST_NAMES,
  LAST_NAMES,
  MINISTRIES,
  POSITIONS,
  SCHOOLS,
  SKILLS,
} from "../../src/mock/people";
import { seedDemoOffices, type DemoAppointee } from "./demo-offices";
import { BARANGAYS, REGIONS, STREETS } from "../../src/mock/places";

/** Every demo account signs in with this password (the data is fiction, the hash real). */
export const DEMO_PASSWORD = "Demo#Member1";
export const DEMO_EMAIL_DOMAIN = "demo.example.org";

export interface DemoSeedOptions {
  members: number;
  /** Same seed, same people: benchmarks compare like with like. */
  seed: number;
  bcryptCost: number;
  /** Seals the SSS and TIN numbers, as the service would (the deployment's data key). */
  cipher: FieldCipher;
  batchSize?: number;
  /** Records spread over this many days before now. */
  spanDays?: number;
  progress?: (done: number, total: number) => void;
}

export interface DemoSeedResult {
  branches: number;
  users: number;
  members: number;
  /** Demo people of this seed an earlier run had put there already: not added again. */
  skipped: number;
  offices: number;
  holders: number;
  /** The administrator the demo's decisions are made by. */
  reviewerId: string;
}

/** Enough approved members to staff every demo office. */
const MAX_APPOINTEES = 2000;

/** A small deterministic PRNG (mulberry32), so a seed always yields the same people. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const digits = (count: number) => Array.from({ length: count }, () => String(int(0, 9))).join("");
  return { next, int, pick, digits };
}

type Random = ReturnType<typeof randomSource>;

/**
 * Fills a database with the branches of service, one verified MEMBER account per applicant and
 * its membership application, in batches, then the office titles, staffed by approved members. Writes the stored shape directly (as the service
 * would have), because going through the API with bcrypt per account would take hours.
 */
export async function seedDemo(
  connection: Connection,
  options: DemoSeedOptions,
): Promise<DemoSeedResult> {
  const users = createUserModel(connection);
  const members = createMemberModel(connection);
  const counters = createMemberCounterModel(connection);
  const branches = createBranchServiceModel(connection);
  await Promise.all([users.init(), members.init(), branches.init()]);

  const branchIds = await ensureBranches(branches);
  const random = randomSource(options.seed);
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, options.bcryptCost);
  const reviewerId = await ensureReviewer(users, passwordHash);
  const appointees: DemoAppointee[] = [];
  let added = 0;
  const batchSize = options.batchSize ?? 1000;
  const spanMs = (options.spanDays ?? 3 * 365) * 86_400_000;
  const start = Date.now() - spanMs;

  for (let first = 0; first < options.members; first += batchSize) {
    const count = Math.min(batchSize, options.members - first);
    const people = Array.from({ length: count }, (_, index) => {
      const position = first + index;
      // Spread evenly over the span, oldest first, so ids (UUID v7) follow createdAt.
      const at = new Date(start + Math.floor((position / options.members) * spanMs));
      return demoPerson(random, position, at, passwordHash, branchIds, reviewerId);
    });
    // A person's email follows from the seed and their place in it: one that exists already
    // came from an earlier run with this seed, so running again adds nobody twice.
    const existing = await users
      .find({ email: oneOf(people.map((person) => person.user.email)) }, { email: 1 })
      .lean();
    const there = new Set(existing.map((user) => user.email));
    const fresh = people.filter((person) => !there.has(person.user.email));
    added += fresh.length;
    if (fresh.length === 0) {
      options.progress?.(first + count, options.members);
      continue;
    }
    await users.insertMany(
      fresh.map((person) => person.user),
      { lean: true },
    );
    await giveUniqueIds(
      counters,
      fresh.map((person) => person.member),
    );
    await members.insertMany(
      fresh.map((person) => ({
        ...sealed(person.member, options.cipher),
        ...duplicateKeysOf(person.member, options.cipher),
      })),
      { lean: true },
    );
    for (const { member } of fresh) {
      if (
        appointees.length < MAX_APPOINTEES &&
        member.status === MemberStatus.APPROVED &&
        !member.archivedAt
      ) {
        appointees.push({
          memberId: member._id,
          userId: member.userId,
          name: `${member.firstName} ${member.lastName}`,
        });
      }
    }
    options.progress?.(first + count, options.members);
  }
  const staffed = await seedDemoOffices(connection, appointees, reviewerId);
  return {
    branches: branchIds.length,
    users: added,
    members: added,
    skipped: options.members - added,
    offices: staffed.offices,
    holders: staffed.holders,
    reviewerId,
  };
}

/** Decisions need a reviewer: the first administrator, or a demo one when there is none. */
async function ensureReviewer(model: ReturnType<typeof createUserModel>, passwordHash: string) {
  const admin = await model.findOne({ deletingSince: null, role: Role.ADMIN }, { _id: 1 }).lean();
  if (admin) return admin._id;
  const reviewer = await model.create({
    name: "Demo Reviewer",
    email: `reviewer@${DEMO_EMAIL_DOMAIN}`,
    passwordHash,
    role: Role.ADMIN,
    isEmailVerified: true,
  });
  return reviewer._id;
}

async function ensureBranches(
  model: ReturnType<typeof createBranchServiceModel>,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [title, description] of BRANCHES) {
    const titleKey = title.toLowerCase();
    const existing = await model.findOne({ titleKey }, { _id: 1 }).lean();
    if (existing) {
      ids.push(existing._id);
      continue;
    }
    const created = await model.create({
      title,
      titleKey,
      description,
      searchText: searchableText(title, description),
      sections: [],
    });
    ids.push(created._id);
  }
  return ids;
}

/** A demo record before its duplicate keys, which need the cipher (see seedDemo). */
type DemoMember = Omit<MemberRecord, keyof DuplicateKeys>;

function demoPerson(
  random: Random,
  serial: number,
  createdAt: Date,
  passwordHash: string,
  branchIds: string[],
  reviewerId: string,
): { user: UserRecord; member: DemoMember } {
  const gender = random.next() < 0.5 ? Gender.MALE : Gender.FEMALE;
  const firstName = random.pick(FIRST_NAMES[gender]);
  const lastName = random.pick(LAST_NAMES);
  const email = `${slug(firstName)}.${slug(lastName)}.${serial}@${DEMO_EMAIL_DOMAIN}`;
  const userId = uuidv7(createdAt.getTime());
  const memberId = uuidv7(createdAt.getTime() + 1);
  const region = random.pick(REGIONS);
  const province = random.pick(region.provinces);
  const town = random.pick(province.towns);
  const barangay = random.pick(BARANGAYS);
  const mobilePhoneNumber = `09${random.pick(["17", "18", "19", "27", "28", "39", "66", "77", "95", "98"])}${random.digits(7)}`;
  const { status, archivedAt, statusHistory } = demoReview(random, userId, reviewerId, createdAt);
  const user: UserRecord = {
    _id: userId,
    name: `${firstName} ${lastName}`,
    email,
    passwordHash,
    avatar: null,
    role: Role.MEMBER,
    isEmailVerified: true,
    verificationCodeHash: null,
    verificationExpiresAt: null,
    resetTokenHash: null,
    resetExpiresAt: null,
    mfaEnabled: false,
    mfaSecret: null,
    mfaPendingSecret: null,
    mfaLastStep: null,
    deletingSince: null,
    createdAt,
    updatedAt: createdAt,
  };
  const member: DemoMember = {
    _id: memberId,
    userId,
    status,
    firstName,
    middleInitial: null,
    lastName,
    extensionName: null,
    mobilePhoneNumber,
    homeAddress: `${random.int(1, 999)} ${random.pick(STREETS)}, ${barangay}, ${town}`,
    nationality: "Filipino",
    // Stored as applying stores it: under the official name.
    region: canonicalRegion(region.name),
    province: province.name,
    municipalityCity: town,
    barangay,
    emergencyContactName: `${random.pick(FIRST_NAMES.FEMALE)} ${lastName}`,
    emergencyContactMobile: `09${random.digits(9)}`,
    churchAffiliation: random.pick(CHURCHES),
    churchAddress: `${random.pick(STREETS)}, ${random.pick(BARANGAYS)}, ${town}`,
    currentPositionRole: random.pick(POSITIONS),
    recentIdPhotoUrl: null,
    currentPositionRoleOther: null,
    height: `${random.int(150, 185)} cm`,
    weight: `${random.int(45, 95)} kg`,
    bloodType: random.pick(["O+", "A+", "B+", "AB+", "O-"]),
    colorOfEyes: random.pick(["Brown", "Dark brown", "Black"]),
    colorOfSkin: random.pick(["Fair", "Morena", "Kayumanggi"]),
    sssNumber:
      random.next() < 0.7 ? `${random.digits(2)}-${random.digits(7)}-${random.digits(1)}` : null,
    tinNumber:
      random.next() < 0.6
        ? `${random.digits(3)}-${random.digits(3)}-${random.digits(3)}-000`
        : null,
    skillsTalents: random.pick(SKILLS),
    preferredBranchOther: null,
    elementarySchool: random.pick(SCHOOLS.elementary),
    secondarySchool: random.pick(SCHOOLS.secondary),
    tertiaryCollege: random.next() < 0.7 ? random.pick(SCHOOLS.tertiary) : null,
    postGraduateStudies: null,
    civilStatus: random.pick([
      CivilStatus.SINGLE,
      CivilStatus.MARRIED,
      CivilStatus.MARRIED,
      CivilStatus.WIDOWED,
      CivilStatus.SEPARATED,
    ]),
    gender,
    dateOfBirth: new Date(Date.UTC(random.int(1955, 2002), random.int(0, 11), random.int(1, 28))),
    preferredBranchIds: [random.pick(branchIds)],
    ministerialExperiences: [
      { roleDescription: random.pick(MINISTRIES), yearsApprox: `${random.int(1, 20)} years` },
    ],
    characterReferences: [
      {
        name: `Ptr. ${random.pick(FIRST_NAMES.MALE)} ${random.pick(LAST_NAMES)}`,
        positionRelationship: "Senior Pastor",
        contactNumber: `09${random.digits(9)}`,
      },
    ],
    signature:
      random.next() < 0.5
        ? { type: SignatureType.DRAWN, signatureData: demoSignature(random) }
        : null,
    // The demo people consented to the notice in force when they applied.
    privacyConsent: { noticeVersion: "2024-01", consentedAt: createdAt },
    archivedAt,
    statusHistory,
    // As an approval writes it, so the start-up's backfill finds nothing to do.
    approvedMonth:
      status === MemberStatus.APPROVED
        ? manilaMonth(statusHistory.filter((entry) => entry.to === status).at(-1)!.at)
        : null,
    openKey: openKeyOf({ _id: memberId, userId, status, archivedAt }),
    activeOffices: 0,
    memberType: null,
    badgeNumber: null,
    publicProfile: choiceOf({}),
    searchEmail: email,
    searchText: searchTextOf({ firstName, lastName, mobilePhoneNumber }, email),
    createdAt,
    updatedAt: statusHistory[statusHistory.length - 1].at,
  };
  return { user, member };
}

/** 25% pending, 60% approved, 15% rejected; one in twenty decided records archived. */
function demoReview(random: Random, userId: string, reviewerId: string, createdAt: Date) {
  const roll = random.next();
  const status =
    roll < 0.25
      ? MemberStatus.PENDING
      : roll < 0.85
        ? MemberStatus.APPROVED
        : MemberStatus.REJECTED;
  const statusHistory: MemberRecord["statusHistory"] = [
    { from: null, to: MemberStatus.PENDING, by: userId, at: createdAt, reason: null },
  ];
  if (status !== MemberStatus.PENDING) {
    statusHistory.push({
      from: MemberStatus.PENDING,
      to: status,
      by: reviewerId,
      at: new Date(createdAt.getTime() + random.int(1, 14) * 86_400_000),
      reason: status === MemberStatus.REJECTED ? "Incomplete character references" : null,
    });
  }
  const archivedAt =
    status !== MemberStatus.PENDING && random.next() < 0.05
      ? new Date(statusHistory[1].at.getTime() + 86_400_000)
      : null;
  return { status, archivedAt, statusHistory };
}

/** A short SVG polyline, the kind of thing a signature pad sends. */
function demoSignature(random: Random): string {
  const points = Array.from({ length: 24 }, (_, index) => `${index * 8},${random.int(5, 45)}`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><polyline fill="none" stroke="black" points="${points.join(" ")}"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z]/g, "");
}

/**
 * Approved demo records carry what the service gives an approval: a uniqueId from the year's
 * running number (taken by one `$inc` per year and batch, so later approvals and later seeds
 * continue after them) and the first onboarding step. Without them every start would backfill
 * thousands of records one by one.
 */
async function giveUniqueIds(counters: MemberCounterModel, records: DemoMember[]): Promise<void> {
  const byYear = new Map<number, DemoMember[]>();
  for (const record of records) {
    if (record.status !== MemberStatus.APPROVED) continue;
    const approval = record.statusHistory.find((change) => change.to === MemberStatus.APPROVED);
    const year = manilaYear(approval?.at ?? record.updatedAt);
    byYear.set(year, [...(byYear.get(year) ?? []), record]);
  }
  for (const [year, approved] of byYear) {
    const counter = await counters
      .findOneAndUpdate(
        { _id: `uniqueId:${year}` },
        { $inc: { seq: approved.length } },
        { upsert: true, returnDocument: "after" },
      )
      .lean<{ seq: number }>()
      .exec();
    approved.forEach((record, index) => {
      record.uniqueId = formatUniqueId(year, counter.seq - approved.length + 1 + index);
      record.onboardingStep = OnboardingStep.REQUIREMENTS;
    });
  }
}
