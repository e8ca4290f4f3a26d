import type { FieldCipher } from "../../db/field-cipher";
import {
  possibleDuplicatesOf,
  type DuplicateCandidate,
  type DuplicateLookup,
} from "./member-duplicates";
import { MemberStatus } from "./member.enums";
import { opened, type MemberRecord } from "./member.model";
import { Member, type MemberUser } from "./member.type";
import { publicProfileUrl } from "./public-url";

/** What a record shows of its applicant's account. */
export interface Applicant extends MemberUser {
  id: string;
}

/** The other domains a member record refers to: accounts and branches of service. */
export interface MemberReferences {
  applicants(userIds: readonly string[]): Promise<Applicant[]>;
  branchTitles(branchIds: readonly string[]): Promise<Map<string, string>>;
  existingBranchIds(branchIds: readonly string[]): Promise<Set<string>>;
}

/** Who reads: administrators also see possible duplicates; applicants never do. */
export type Audience = "admin" | "applicant";

/** Turns stored records into what administrators and applicants read. */
export class MemberPresenter {
  constructor(
    private readonly references: MemberReferences,
    private readonly cipher: FieldCipher,
    private readonly duplicateCandidates: (keys: DuplicateLookup) => Promise<DuplicateCandidate[]>,
    private readonly appUrl: string,
  ) {}

  /** Records with their applicant's {name, email, role} and their branches' titles. */
  async present(records: MemberRecord[], audience: Audience): Promise<Member[]> {
    const userIds = [...new Set(records.map((record) => record.userId))];
    const branchIds = [...new Set(records.flatMap((record) => record.preferredBranchIds))];
    const open = records.map((record) => opened(record, this.cipher));
    const [applicants, titles, duplicates] = await Promise.all([
      this.references.applicants(userIds),
      this.references.branchTitles(branchIds),
      audience === "admin"
        ? possibleDuplicatesOf(open, this.cipher, this.duplicateCandidates)
        : undefined,
    ]);
    const byId = new Map(applicants.map((applicant) => [applicant.id, applicant] as const));
    return open.map((record) => {
      const user = byId.get(record.userId);
      // An account erased meanwhile: the record still shows the address it was filed under.
      const applicant: MemberUser = user
        ? { name: user.name, email: user.email, role: user.role }
        : { name: "", email: record.searchEmail, role: "MEMBER" as MemberUser["role"] };
      const member = Member.from(record, applicant, titles);
      member.possibleDuplicates = duplicates?.get(record._id) ?? null;
      if (record.status === MemberStatus.APPROVED && !record.archivedAt && record.uniqueId) {
        member.publicUrl = publicProfileUrl(this.appUrl, record.uniqueId);
      }
      return member;
    });
  }

  async presentOne(record: MemberRecord, audience: Audience): Promise<Member> {
    return (await this.present([record], audience))[0];
  }
}
