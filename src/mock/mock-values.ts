import { BRANCHES, MINISTRIES, SCHOOLS, SKILLS } from "./people";
import { emailOf, fullName, type Persona } from "./persona";
import { seeded, type Random } from "./random";

/** What the mock's sign-in answers; any bearer token is accepted by the mock (src/mock). */
export const MOCK_ACCESS_TOKEN =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtb2NrIiwicm9sZSI6IkFETUlOIn0.mock-signature";

export interface ValueContext {
  /** The run's seed: ids are made from it, the entity and the record's number. */
  seed: string;
  typeName: string;
  fieldName: string;
  persona: Persona;
  random: Random;
  /** The record's number in its list: enums cycle through every value with it. */
  index: number;
}

const titled = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const words = (name: string) => titled(name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase());
const phone = (random: Random) => `09${String(100_000_000 + random.int(900_000_000))}`;

/** A moment in the past year, at a whole second, from the record's generator. */
const recent = (random: Random) =>
  new Date(Date.UTC(2026, 0, 1) - random.int(365 * 24 * 3600) * 1000).toISOString();

/**
 * The id of the index-th record of an entity: every answer that names that record (its list
 * row, its detail, a reference to it from another record) names it by the same id.
 */
export function mockId(seed: string, entity: Entity, index: number): string {
  return seeded(seed, "id", entity, index).uuid();
}

export type Entity = "Member" | "User" | "Office" | "Branch" | "Holder" | "Session";

/** Which entity a type's `id` is the id of: a reference type names the record it points to. */
export const ENTITY_OF_TYPE: Record<string, Entity> = {
  Member: "Member",
  PublicMember: "Member",
  OfficeHolderMember: "Member",
  PossibleDuplicate: "Member",
  MemberProfile: "Member",
  User: "User",
  OfficeTitle: "Office",
  OfficeHolderOffice: "Office",
  BranchService: "Branch",
  BranchReference: "Branch",
  OfficeHolder: "Holder",
  SessionInfo: "Session",
  SessionExport: "Session",
};

/** Fields that hold another record's id, as text. */
const ID_FIELDS: Record<string, Entity> = {
  userId: "User",
  memberId: "Member",
  actorId: "User",
  "StatusChange.by": "User",
  targetId: "Member",
};

/**
 * Newest first is the order of every list without one: a record's creation time falls with its
 * number, so the roster's order is already that order.
 */
const newestFirst = (c: ValueContext) =>
  new Date(Date.UTC(2026, 0, 1) - (c.index * 36 + c.random.int(36)) * 3600_000).toISOString();

/** Dates that are null for a record in its usual state (not archived, not ended, not revoked). */
const UNSET_DATES = new Set(["archivedAt", "endedAt", "endDate", "revokedAt"]);

/** `Type.field` first, then the field's name alone. */
const STRINGS: Record<string, (c: ValueContext) => string | null> = {
  "OfficeTitle.name": (c) => officeName(c),
  "OfficeHolderOffice.name": (c) => officeName(c),
  "BranchService.title": (c) => BRANCHES[c.index % BRANCHES.length][0],
  "BranchReference.title": (c) => BRANCHES[c.index % BRANCHES.length][0],
  "BranchService.description": (c) => BRANCHES[c.index % BRANCHES.length][1],
  "OfficeTitle.description": (c) =>
    `Leads the chaplains of ${c.persona.town}, ${c.persona.province}`,
  "Section.title": (c) => c.random.pick(["Duties", "Requirements", "Schedule"]),
  "SectionItem.content": (c) => c.random.pick(MINISTRIES),
  "CharacterReference.name": (c) => fullName(c.persona),
  "PublicMember.fullName": (c) => fullName(c.persona),
  "PublicOffice.title": (c) => officeName(c),
  middleInitial: (c) => c.persona.middleName.charAt(0),
  uniqueId: (c) => `POI-2026-${String(c.index + 1).padStart(5, "0")}`,
  extensionName: (c) => (c.index % 7 === 3 ? "Jr." : null),
  actorRole: () => "ADMIN",
  clientRequestId: () => null,
  name: (c) => fullName(c.persona),
  email: (c) => emailOf(c.persona),
  firstName: (c) => c.persona.firstName,
  lastName: (c) => c.persona.lastName,
  middleName: (c) => c.persona.middleName,
  mobilePhoneNumber: (c) => phone(c.random),
  emergencyContactMobile: (c) => phone(c.random),
  contactNumber: (c) => phone(c.random),
  emergencyContactName: (c) =>
    `${c.random.pick(["Rosa", "Jose", "Elena", "Pedro"])} ${c.persona.lastName}`,
  homeAddress: (c) => `${c.persona.street}, ${c.persona.barangay}`,
  nationality: () => "Filipino",
  region: (c) => c.persona.region,
  province: (c) => c.persona.province,
  municipalityCity: (c) => c.persona.town,
  barangay: (c) => c.persona.barangay,
  cityMunicipality: (c) => c.persona.town,
  // Where an appointment serves (an office's place, not the holder's home).
  department: (c) =>
    c.random.pick([
      `${c.persona.town} Police Station`,
      `${c.persona.province} Provincial Hospital`,
      `${c.persona.town} District Jail`,
      `${c.persona.town} Fire Station`,
    ]),
  churchAffiliation: (c) => c.persona.church,
  churchAddress: (c) => `${c.persona.town}, ${c.persona.province}`,
  currentPositionRole: (c) => c.persona.position,
  currentPositionRoleOther: () => null,
  preferredBranchOther: () => null,
  avatar: (c) => `https://example.org/avatars/${c.persona.firstName.toLowerCase()}.png`,
  recentIdPhotoUrl: (c) => `https://example.org/photos/${c.persona.lastName.toLowerCase()}.jpg`,
  height: (c) => `${150 + c.random.int(35)} cm`,
  weight: (c) => `${48 + c.random.int(40)} kg`,
  bloodType: (c) => c.random.pick(["O+", "A+", "B+", "AB+"]),
  colorOfEyes: () => "Brown",
  colorOfSkin: (c) => c.random.pick(["Morena", "Kayumanggi", "Fair"]),
  sssNumber: (c) => `34-${1_000_000 + c.random.int(8_999_999)}-${c.random.int(10)}`,
  tinNumber: (c) =>
    `${100 + c.random.int(900)}-${100 + c.random.int(900)}-${100 + c.random.int(900)}-000`,
  skillsTalents: (c) => c.random.pick(SKILLS),
  elementarySchool: (c) => c.random.pick(SCHOOLS.elementary),
  secondarySchool: (c) => c.random.pick(SCHOOLS.secondary),
  tertiaryCollege: (c) => c.random.pick(SCHOOLS.tertiary),
  postGraduateStudies: () => null,
  roleDescription: (c) => c.random.pick(MINISTRIES),
  yearsApprox: (c) => String(1 + c.random.int(20)),
  positionRelationship: (c) => c.random.pick(["Senior Pastor", "Church elder", "Former employer"]),
  signatureData: () =>
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  noticeVersion: () => "2026-01",
  action: (c) => c.random.pick(["member.status", "member.archive", "office.create", "user.delete"]),
  targetType: (c) => c.random.pick(["member", "office", "user"]),
  reason: () => "Complete and verified application",
  userAgent: () => "Mozilla/5.0 (Linux; Android 14) Mobile Safari",
  ip: (c) => `203.177.${c.random.int(256)}.${c.random.int(256)}`,
  revokedReason: () => null,
  accessToken: () => MOCK_ACCESS_TOKEN,
  mfaToken: () => null,
  secret: () => "JBSWY3DPEHPK3PXP",
  otpauthUri: (c) =>
    `otpauth://totp/Chaplaincy:${emailOf(c.persona)}?secret=JBSWY3DPEHPK3PXP&issuer=Chaplaincy`,
  code: () => "OK",
  requestId: (c) => c.random.uuid(),
};

const INTS: Record<string, (c: ValueContext) => number | null> = {
  maxSlots: (c) => 1 + c.random.int(3),
  activeHolders: (c) => c.random.int(2),
  order: (c) => c.index + 1,
};

const BOOLEANS: Record<string, boolean> = {
  isActive: true,
  isEmailVerified: true,
  mfaEnabled: false,
  mfaRequired: false,
};

/** A value for a scalar field, realistic by its name where the mock knows it. */
export function scalarValue(scalar: string, c: ValueContext): unknown {
  switch (scalar) {
    case "UUID":
    case "ID": {
      if (c.fieldName === "memberId" && c.typeName === "BranchService") return null;
      const entity = c.fieldName === "id" ? ENTITY_OF_TYPE[c.typeName] : idField(c);
      return entity ? mockId(c.seed, entity, c.index) : c.random.uuid();
    }
    case "DateTimeISO":
      if (UNSET_DATES.has(c.fieldName)) return null;
      if (c.fieldName === "createdAt" || c.fieldName === "at") return newestFirst(c);
      if (c.fieldName === "dateOfBirth")
        return new Date(
          Date.UTC(1960 + c.random.int(40), c.random.int(12), 1 + c.random.int(28)),
        ).toISOString();
      return recent(c.random);
    case "EmailAddress":
      return emailOf(c.persona);
    case "URL":
      return "https://example.org";
    case "JSONObject":
      return {};
    case "Int":
      return INTS[c.fieldName]?.(c) ?? 1 + c.random.int(10);
    case "Float":
      return c.random.next() * 100;
    case "Boolean":
      return BOOLEANS[c.fieldName] ?? c.random.next() < 0.5;
    default: {
      const entity = idField(c);
      if (entity) return c.typeName === "BranchService" ? null : mockId(c.seed, entity, c.index);
      const made = STRINGS[`${c.typeName}.${c.fieldName}`] ?? STRINGS[c.fieldName];
      return made ? made(c) : words(c.fieldName);
    }
  }
}

const idField = (c: ValueContext): Entity | undefined =>
  ID_FIELDS[`${c.typeName}.${c.fieldName}`] ?? ID_FIELDS[c.fieldName];

const LEVEL_NAMES = [
  "Chief Chaplain",
  "National Chaplain Director",
  "Regional Chaplain Director",
  "Regional Deputy Chaplain Director",
  "Provincial Chaplain Director",
  "Provincial Deputy Chaplain Director",
  "City Chaplain",
  "Municipal Chaplain",
  "City/Municipal Deputy Chaplain",
  "Barangay Chaplain",
  "Barangay Deputy Chaplain",
];

/** Office names follow the level the record gets (levels cycle with the index, as enums do). */
function officeName(c: ValueContext): string {
  const level = LEVEL_NAMES[c.index % LEVEL_NAMES.length];
  if (c.index % LEVEL_NAMES.length < 2) return level;
  if (c.index % LEVEL_NAMES.length < 4) return `${level}, ${c.persona.region}`;
  if (c.index % LEVEL_NAMES.length < 6) return `${level}, ${c.persona.province}`;
  if (c.index % LEVEL_NAMES.length < 9) return `${level}, ${c.persona.town}`;
  return `${level}, Barangay ${c.persona.barangay}, ${c.persona.town}`;
}
