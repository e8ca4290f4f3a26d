import DataLoader from "dataloader";
import type { FieldCipher } from "../../db/field-cipher";
import type { Caller } from "../auth/caller";
import { pageOf, type PageResult } from "../page-result";
import type { PageArgs } from "../../graphql/paging";
import type { CurrentAppointment } from "../offices/offices.module";
import type { MemberProfile } from "./member-profile.type";
import { findMember } from "./member-review.service";
import type { MemberListArgs } from "./member.input";
import { opened, type MemberRecord } from "./member.model";
import type { Audience, MemberPresenter } from "./member.presenter";
import type { MemberQuery, MemberRepository, ProfileRecord } from "./member.repository";
import type { Member } from "./member.type";

/** The filters of GET /members that the export honours too. */
export type MemberFilters = Pick<MemberListArgs, "status" | "includeArchived" | "search">;

/** The offices a member holds now (their running appointments), from the offices module. */
export type CurrentOffices = (memberId: string) => Promise<CurrentAppointment[]>;

/** Reading member records: the admin lists, the applicant's own, the public check, exports. */
export class MemberReads {
  private readonly profiles: DataLoader<string, ProfileRecord | undefined>;

  constructor(
    private readonly members: MemberRepository,
    private readonly presenter: MemberPresenter,
    private readonly cipher: FieldCipher,
  ) {
    // The users of one answer each ask for their profile; they are looked up together once
    // every resolver of that answer has asked. No cache: each batch reads the database afresh,
    // so one loader serves every request without keeping what another request saw.
    this.profiles = new DataLoader(
      async (userIds) => {
        const found = await this.members.latestOfUsers(userIds);
        return userIds.map((userId) => found.get(userId));
      },
      { cache: false, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
  }

  /** GET /members and /members/pending: the administrator's view, duplicates flagged. */
  list(args: MemberListArgs): Promise<PageResult<Member>> {
    return this.page(queryOf(args), args, "admin");
  }

  /** GET /members/me: the caller's own records. */
  listOwn(caller: Caller, args: PageArgs): Promise<PageResult<Member>> {
    return this.page({ userId: caller.id, includeArchived: true }, args, "applicant");
  }

  /** `User.memberProfile`: the account's latest application, or null. */
  async profileOf(userId: string): Promise<MemberProfile | null> {
    const record = await this.profiles.load(userId);
    if (!record) return null;
    return {
      id: record._id,
      status: record.status,
      isActive: record.archivedAt === null,
      createdAt: record.createdAt,
      uniqueId: record.uniqueId ?? null,
    };
  }

  async assertExists(memberId: string): Promise<void> {
    await findMember(this.members, memberId);
  }

  /** For the branch-of-service delete rule: does any member record name this branch? */
  isBranchInUse(branchId: string): Promise<boolean> {
    return this.members.namesBranch(branchId);
  }

  /** The records a list selects, all of them, newest first, streamed from the database. */
  async *exportRecords(filters: MemberFilters, batchSize = 100): AsyncGenerator<MemberRecord> {
    for await (const record of this.members.stream(queryOf(filters), batchSize)) {
      yield opened(record, this.cipher);
    }
  }

  /** Subject access: every application of the account, archived ones and their history included. */
  async allOf(userId: string): Promise<Member[]> {
    return this.presenter.present(await this.members.ofUser(userId), "applicant");
  }

  private async page(
    query: MemberQuery,
    args: Pick<PageArgs, "page" | "limit">,
    audience: Audience,
  ): Promise<PageResult<Member>> {
    const { records, total } = await this.members.page(query, args.page, args.limit);
    return pageOf(args, await this.presenter.present(records, audience), total);
  }
}

/** The repository's query for GET /members' filters. */
function queryOf(filters: MemberFilters): MemberQuery {
  return {
    status: filters.status,
    includeArchived: filters.includeArchived === true,
    search: filters.search,
  };
}
