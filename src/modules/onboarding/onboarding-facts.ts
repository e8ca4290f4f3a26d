/**
 * What the onboarding steps and the modules beside them tell each other. The onboarding module
 * keeps requirements, courses, payment and the oath; the interviews and credentials modules keep
 * bookings and the rendered ID card and certificate. Each side depends on these ports only, and
 * the composition root (src/services.ts) wires them.
 */
import type { MemberType } from "../members/member.enums";

/** The caller's latest application that is not archived (`/members/current/...`). */
export interface CurrentRecord {
  memberId: string;
  userId: string;
  status: "PENDING" | "APPROVED" | "REJECTED";
  uniqueId: string | null;
  fullName: string;
  memberType: MemberType | null;
  /** When the record was first APPROVED (the ID card's "valid since"); null before. */
  approvedAt: Date | null;
}

/** Kept by the onboarding module. */
export interface OnboardingFacts {
  /** The caller's current record, or null when they have none. */
  currentRecord(userId: string): Promise<CurrentRecord | null>;
  /** The same view of a record by its id (administrators' decisions), or null. */
  recordById(memberId: string): Promise<CurrentRecord | null>;
  /** Whether the member's payment was VERIFIED by an administrator. */
  paymentVerified(memberId: string): Promise<boolean>;
  /** The file id of the member's PHOTO_2X2 that is not REJECTED, or null. */
  photo2x2(memberId: string): Promise<string | null>;
  /** The file id of the member's PHOTO_2X2 once an administrator APPROVED it (the public page), or null. */
  approvedPhoto2x2(memberId: string): Promise<string | null>;
  /** The same APPROVED PHOTO_2X2 as the public page lists it: the document's id, file and date. */
  approvedPhoto(memberId: string): Promise<ApprovedPhoto | null>;
  /** The day of the member's oath as recorded, or null before it. */
  oathDay(memberId: string): Promise<Date | null>;
}

/** An APPROVED 2x2 photo: the requirement's id, its file, when it last changed. */
export interface ApprovedPhoto {
  id: string;
  fileId: string;
  updatedAt: Date;
}

export type InterviewOutcome = "PENDING" | "PASSED" | "FAILED" | "NO_SHOW";

/** Kept by the interviews module. */
export interface InterviewFacts {
  /** The member's current booking's outcome, or null when none is booked. */
  ofMember(memberId: string): Promise<{ outcome: InterviewOutcome; scheduledAt: Date } | null>;
}

/** Kept by the credentials module (ID card, certificate, QR). */
export interface CredentialFacts {
  /** When the member's assets were last rendered, or null. */
  ofMember(
    memberId: string,
  ): Promise<{ generatedAt: Date; certificateFileId: string | null } | null>;
  /**
   * At the oath: the certificate dated the oath's day, and the card again (member type, valid
   * until); answers the certificate's bytes for the oath mail.
   */
  issueAtOath(memberId: string): Promise<Buffer>;
}

/** Kept by the membership module: the membership year the oath starts. */
export interface MembershipYearFacts {
  /** Starts the member's year on the oath's day; answers when it ends. */
  start(member: { memberId: string; userId: string }, oathDay: Date): Promise<Date>;
}
