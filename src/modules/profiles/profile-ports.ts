/**
 * What the profiles module and the members module tell each other. Members own the record a
 * public page is about and the consent behind it; profiles keep what a member adds to the page
 * (certificates, public records) and who follows it. Each side depends on these ports only;
 * src/services.ts wires them.
 */
import type { MemberCertificate } from "./certificate.type";
import type { MemberPublicRecord } from "./public-record.type";

/** A member record as profiles need it: whose it is. */
export interface ProfileOwner {
  memberId: string;
  userId: string;
}

/** What profiles ask of member records (the members module answers). */
export interface ProfileMembers {
  /** The caller's latest record that is not archived, whatever its status; null without one. */
  currentOf(userId: string): Promise<ProfileOwner | null>;
  /**
   * The caller's record an owner edit acts on: the latest that is not archived, APPROVED.
   * Throws the 404 without one and the 409 when it is not APPROVED.
   */
  editableOf(userId: string): Promise<ProfileOwner>;
  /**
   * The member a page key (record id or uniqueId) names, if anyone may follow it: APPROVED,
   * not archived and listed. Null for every other key.
   */
  followable(key: string): Promise<ProfileOwner | null>;
  /** Which of these files the account's banner is (a file a profile edit must not release). */
  bannerAmong(userId: string, fileIds: readonly string[]): Promise<Set<string>>;
}

/** What the members module asks of profiles, for the public page and its files. */
export interface ProfileContent {
  /** The member's certificates with public links, newest received first. */
  certificatesOf(memberId: string): Promise<MemberCertificate[]>;
  /** The member's PUBLISHED records with public links, newest event first. */
  publishedRecordsOf(memberId: string): Promise<MemberPublicRecord[]>;
  followerCount(memberId: string): Promise<number>;
  /** The member records whose certificates show this file. */
  certificateMembersOf(fileId: string): Promise<string[]>;
  /** The member records whose PUBLISHED records show this file. */
  publishedRecordMembersOf(fileId: string): Promise<string[]>;
  /** Which of these files the account's certificates or public records name. */
  namedAmong(userId: string, fileIds: readonly string[]): Promise<Set<string>>;
}
