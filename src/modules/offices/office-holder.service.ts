import type { Claims } from "../../db/claims";
import type { Locks } from "../../db/locks";
import { greaterThan, oneOf } from "../../db/operators";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../../graphql/context";
import { Pagination, type Page } from "../../graphql/envelopes";
import { containsText } from "../../graphql/paging";
import { memberLock } from "../members/member.service";
import { isActive, type OfficeHolderModel, type OfficeHolderRecord } from "./office-holder.model";
import type {
  AppointOfficeHolderArgs,
  EndOfficeHolderArgs,
  HolderListArgs,
} from "./office-holder.input";
import { OfficeHolder } from "./office-holder.type";
import type { OfficeDirectory } from "./office-directory";
import type { OfficeModel, OfficeRecord } from "./office.model";

/** What the members module tells about a member record that is to hold an office. */
export interface Appointee {
  id: string;
  userId: string;
  name: string;
}

export interface MemberDirectoryForOffices {
  /** The record if it may hold an office now (404 / 409 otherwise). */
  appointee(memberId: string): Promise<Appointee>;
  /** 404 when no member record has this id. */
  assertExists(memberId: string): Promise<void>;
}

/** The lock every change to an office's holders (and its slot count) takes. */
export const officeLock = (officeId: string) => `office:${officeId}`;

/** Appointments of members to office titles, within each title's maxSlots. */
export class OfficeHolderService {
  constructor(
    private readonly holders: OfficeHolderModel,
    private readonly offices: OfficeModel,
    private readonly directory: OfficeDirectory,
    private readonly members: MemberDirectoryForOffices,
    private readonly locks: Locks,
    private readonly claims: Claims,
  ) {}

  /**
   * Appoints under the office's lock and then the member's: the count of active holders, the
   * check that the member does not already hold the office and the insert are one step for
   * every instance, so two appointments to the last slot cannot both succeed.
   */
  async appoint(caller: Caller, args: AppointOfficeHolderArgs): Promise<OfficeHolder> {
    if (args.endDate && args.endDate <= args.startDate) {
      throw ValidationError.field("endDate", "endDate must be after startDate");
    }
    return this.locks.withLock(officeLock(args.id), async () => {
      const office = await this.findOffice(args.id);
      return this.locks.withLock(memberLock(args.memberId), async () => {
        const appointee = await this.members.appointee(args.memberId);
        const active = await this.activeOf({ officeId: office._id });
        if (active.some((holder) => holder.memberId === appointee.id)) {
          throw new ConflictError("This member already holds this office");
        }
        if (office.maxSlots !== null && active.length >= office.maxSlots) {
          throw new ConflictError(
            `All ${office.maxSlots} slot(s) of "${office.name}" are taken; end an appointment first`,
          );
        }
        const holder = await this.directory.write(office._id, () =>
          this.holders.create({
            officeId: office._id,
            memberId: appointee.id,
            userId: appointee.userId,
            name: appointee.name,
            startDate: args.startDate,
            endDate: args.endDate ?? null,
            appointedBy: caller.id,
          }),
        );
        return OfficeHolder.from(holder.toObject(), office);
      });
    });
  }

  /** Ends a running appointment; it stays in the office's history. */
  async end(caller: Caller, args: EndOfficeHolderArgs): Promise<OfficeHolder> {
    const office = await this.findOffice(args.id);
    const holder = await this.holders.findOne({ _id: args.holderId, officeId: office._id }).lean();
    if (!holder) throw new NotFoundError("This office has no appointment with this id");
    if (!isActive(holder) || !(await this.claims.take(`holder-end:${holder._id}`))) {
      throw new ConflictError("The appointment has already ended");
    }
    const ended = await this.directory.write(office._id, () =>
      this.holders
        .findByIdAndUpdate(
          holder._id,
          { $set: { endedAt: new Date(), endedBy: caller.id } },
          { returnDocument: "after" },
        )
        .lean(),
    );
    if (!ended) throw new NotFoundError("This office has no appointment with this id");
    return OfficeHolder.from(ended, office);
  }

  async listOfOffice(args: HolderListArgs): Promise<Omit<Page<OfficeHolder>, "code" | "message">> {
    const office = await this.findOffice(args.id);
    return this.page({ officeId: office._id }, args, new Map([[office._id, office]]));
  }

  async listOfMember(args: HolderListArgs): Promise<Omit<Page<OfficeHolder>, "code" | "message">> {
    await this.members.assertExists(args.id);
    return this.page({ memberId: args.id }, args);
  }

  /** Active appointments per office, for `activeHolders`. */
  async countActive(officeIds: string[]): Promise<Map<string, number>> {
    const counts = new Map(officeIds.map((id) => [id, 0]));
    if (officeIds.length === 0) return counts;
    for (const holder of await this.activeOf({ officeId: oneOf(officeIds) })) {
      counts.set(holder.officeId, (counts.get(holder.officeId) ?? 0) + 1);
    }
    return counts;
  }

  /** For the members module: a record holding an office cannot be archived or un-approved. */
  async holdsActiveOffice(memberId: string): Promise<boolean> {
    return (await this.activeOf({ memberId })).length > 0;
  }

  /** For deleting an office: its history goes with it. */
  async deleteAllOfOffice(officeId: string): Promise<void> {
    await this.holders.deleteMany({ officeId });
  }

  /** Subject access: every appointment of the account, ended ones included, newest first. */
  async allOfUser(userId: string): Promise<OfficeHolder[]> {
    const records = await this.holders.find({ userId }).sort({ createdAt: -1, _id: -1 }).lean();
    const offices = await this.officesOf(records, new Map());
    return records.flatMap((record) => {
      const office = offices.get(record.officeId);
      return office ? [OfficeHolder.from(record, office)] : [];
    });
  }

  /** Erasure: the departing account's appointments go with it. */
  async deleteAllOfUser(userId: string): Promise<void> {
    const { deletedCount } = await this.holders.deleteMany({ userId });
    // Several titles may have lost a holder: every instance reads the titles again.
    if (deletedCount > 0) await this.directory.bulkChanged();
  }

  private async page(
    filter: Record<string, unknown>,
    args: HolderListArgs,
    knownOffices = new Map<string, OfficeRecord>(),
  ): Promise<Omit<Page<OfficeHolder>, "code" | "message">> {
    const search = args.search?.trim();
    const query = {
      ...filter,
      ...(args.includeEnded ? {} : activeFilter()),
      ...(search ? { name: containsText(search) } : {}),
    };
    const [records, total] = await Promise.all([
      this.holders
        .find(query)
        .sort({ createdAt: -1, _id: -1 })
        .skip((args.page - 1) * args.limit)
        .limit(args.limit)
        .lean(),
      this.holders.countDocuments(query),
    ]);
    const offices = await this.officesOf(records, knownOffices);
    return {
      data: records.flatMap((record) => {
        const office = offices.get(record.officeId);
        return office ? [OfficeHolder.from(record, office)] : [];
      }),
      pagination: Pagination.of(args.page, args.limit, total),
    };
  }

  private async officesOf(
    records: OfficeHolderRecord[],
    known: Map<string, OfficeRecord>,
  ): Promise<Map<string, Pick<OfficeRecord, "_id" | "name" | "level">>> {
    const missing = [...new Set(records.map((record) => record.officeId))].filter(
      (id) => !known.has(id),
    );
    const found = missing.length
      ? await this.offices.find({ _id: oneOf(missing) }, { name: 1, level: 1 }).lean()
      : [];
    return new Map([...known, ...found.map((office) => [office._id, office] as const)]);
  }

  private activeOf(filter: Record<string, unknown>): Promise<OfficeHolderRecord[]> {
    return this.holders.find({ ...filter, ...activeFilter() }).lean();
  }

  private async findOffice(id: string): Promise<OfficeRecord> {
    const office = await this.offices.findById(id).lean();
    if (!office) throw new NotFoundError("No office title has this id");
    return office;
  }
}

/** Not ended, and no end date or one still ahead (see isActive). */
function activeFilter() {
  return { endedAt: null, $or: [{ endDate: null }, { endDate: greaterThan(new Date()) }] };
}
