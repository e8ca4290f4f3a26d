import type { FieldCipher } from "../../db/field-cipher";
import { opened, type MemberRecord } from "./member.model";
import { Member, type MemberUser } from "./member.type";

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

/** Turns stored records into what administrators and applicants read. */
export class MemberPresenter {
  constructor(
    private readonly references: MemberReferences,
    private readonly cipher: FieldCipher,
  ) {}

  /** Records with their applicant's {name, email, role} and their branches' titles. */
  async present(records: MemberRecord[]): Promise<Member[]> {
    const userIds = [...new Set(records.map((record) => record.userId))];
    const branchIds = [...new Set(records.flatMap((record) => record.preferredBranchIds))];
    const [applicants, titles] = await Promise.all([
      this.references.applicants(userIds),
      this.references.branchTitles(branchIds),
    ]);
    const byId = new Map(applicants.map((applicant) => [applicant.id, applicant] as const));
    return records.map((record) => {
      const user = byId.get(record.userId);
      // An account erased meanwhile: the record still shows the address it was filed under.
      const applicant: MemberUser = user
        ? { name: user.name, email: user.email, role: user.role }
        : { name: "", email: record.searchEmail, role: "MEMBER" as MemberUser["role"] };
      return Member.from(opened(record, this.cipher), applicant, titles);
    });
  }
}
