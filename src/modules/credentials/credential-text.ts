import { MemberType } from "../members/member.enums";
import { inManila, MONTHS } from "../../mail/dates";

/*
 * The words the ID card and certificate print, kept apart from the drawing so they have specs
 * of their own.
 */

const UNITS = [
  "",
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
  "thirteenth",
  "fourteenth",
  "fifteenth",
  "sixteenth",
  "seventeenth",
  "eighteenth",
  "nineteenth",
];

/** 1..31 as an ordinal in words: 21 → "twenty-first". */
export function ordinalInWords(day: number): string {
  if (day < 20) return UNITS[day];
  const tens = day < 30 ? "twenty" : "thirty";
  const rest = day % 10;
  if (rest === 0) return day < 30 ? "twentieth" : "thirtieth";
  return `${tens}-${UNITS[rest]}`;
}

/** "the twenty-seventh day of November, 2026": the date in Asia/Manila, in words. */
export function dateInWords(instant: Date): string {
  const date = inManila(instant);
  return `the ${ordinalInWords(date.getUTCDate())} day of ${MONTHS[date.getUTCMonth()]}, ${date.getUTCFullYear()}`;
}

const MEMBER_TYPE_LABELS: Record<MemberType, string> = {
  [MemberType.ASSOCIATE_CHAPLAIN]: "Associate Chaplain",
  [MemberType.PROFESSIONAL_CHAPLAIN]: "Professional Chaplain",
  [MemberType.ORDAINED_AND_COMMISSIONED_PRACTITIONER]: "Ordained and Commissioned Practitioner",
  [MemberType.CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR]:
    "Certified Specialist Training Officer Instructor",
};

/** The card's member type; before the oath a member is still in formation. */
export function memberTypeLabel(memberType: MemberType | null): string {
  return memberType ? MEMBER_TYPE_LABELS[memberType] : "Member in formation";
}
