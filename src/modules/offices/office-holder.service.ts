import { DUPLICATE } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import type { Caller } from "../auth/caller";
import { pageOf, type PageResult } from "../page-result";
import { isActive, runningKey, type OfficeHolderRecord } from "./office-holder.model";
import type {
  AppointOfficeHolderArgs,
  EndOfficeHolderArgs,
  HolderListArgs,
} from "./office-holder.input";
import type { HolderListQuery, OfficeHolderRepository } from "./office-holder.repository";
import { OfficeHolder, type PlaceField } from "./office-holder.type";
import type { OfficeReleases, OfficeSlots } from "./office-slots";
import type { OfficeRecord } from "./office.model";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";
import type { OfficeRepository } from "./office.repository";

/** What the members module tells about a member record that is to hold an office. */
export interface Appointee {
  id: string;
  userId: string;
  name: string;
}

/** The members module's side of appointments (MemberService). */
export interface OfficeMembers extends OfficeReleases {
  /** Counts one more office held by an APPROVED, not archived record (404 / 409 otherwise). */
  reserveForOffice(memberId: string): Promise<Appointee>;
  /** 404 when no member record has this id. */
  assertExists(memberId: string): Promise<void>;
}

/** The place fields as given, trimmed; a blank one is none. */
function placeGiven(args: AppointOfficeHolderArgs): Pick<OfficeHolderRecord, PlaceField> {
  const text = (value: string | null | undefined) => value?.trim() || null;
  return {
    department: text(args.department),
    region: text(args.region),
    province: text(args.province),
    cityMunicipality: text(args.cityMunicipality),
    barangay: text(args.barangay),
  };
}

type OfficeLabel = Pick<OfficeRecord, "_id" | "name" | "level">;
/** An appointment's own fields, before it is recorded. */
type Appointment = Omit<
  OfficeHolderRecord,
  "_id" | "releasedAt" | "slotKey" | "createdAt" | "updatedAt"
>;
type HolderPage = PageResult<OfficeHolder>;

/** Appointments of members to office titles, within each title's maxSlots. */
export class OfficeHolderService {
  constructor(
    private readonly holders: OfficeHolderRepository,
    private readonly offices: OfficeRepository,
    private readonly slots: OfficeSlots,
    private readonly members: () => OfficeMembers,
    /** The service's clock: whether a term is over, and when an administrator ended it. */
    private readonly now: () => Date,
    /** Tells the organisation's site its directory of office holders changed (webhooks). */
    private readonly changes: () => ChangeFeed = () => NO_CHANGE_FEED,
  ) {}

  /**
   * Reserves the member, then a slot, then records the appointment, undoing the earlier
   * steps when a later one fails: the member cannot be archived meanwhile, the slot count
   * cannot be overrun, and the unique slotKey refuses a second running term of one member.
   */
  async appoint(caller: Caller, args: AppointOfficeHolderArgs): Promise<OfficeHolder> {
    const endDate = args.endDate ?? null;
    if (endDate && endDate <= args.startDate) {
      throw ValidationError.field("endDate", "endDate must be after startDate");
    }
    const office = await this.findOffice(args.id);
    const slotKey = runningKey(office._id, args.memberId);
    if (await this.holders.findBySlotKey(slotKey)) throw alreadyHolds();
    const member = await this.members().reserveForOffice(args.memberId);
    const fields: Appointment = {
      officeId: office._id,
      memberId: member.id,
      userId: member.userId,
      name: member.name,
      ...placeGiven(args),
      startDate: args.startDate,
      endDate,
      endedAt: null,
      appointedBy: caller.id,
      endedBy: null,
    };
    if (!isActive({ endedAt: null, endDate }, this.now())) {
      // A term already over takes no slot; the reservation only checked the member record.
      await this.members().releaseFromOffice(member.id);
      return this.recordPastTerm(office, fields, endDate!);
    }
    let record: OfficeHolderRecord;
    try {
      record = await this.recordRunningTerm(fields, slotKey);
    } catch (error) {
      await this.members().releaseFromOffice(member.id);
      throw error;
    }
    await this.changes().record("directory.changed", { id: office._id, office: office.name });
    return OfficeHolder.from(record, office, this.now());
  }

  /**
   * Ends a running appointment (one ender wins); it stays in the office's history. A term
   * past its end date has already ended: 409, and its slot is given back now if it was not.
   */
  async end(caller: Caller, args: EndOfficeHolderArgs): Promise<OfficeHolder> {
    const office = await this.findOffice(args.id);
    const ended = await this.holders.end(args.holderId, office._id, {
      endedAt: this.now(),
      endedBy: caller.id,
    });
    if (!ended) {
      const holder = await this.holders.findOfOffice(args.holderId, office._id);
      if (!holder) throw noSuchHolder();
      if (holder.releasedAt === null) await this.slots.release(holder._id);
      throw new ConflictError("The appointment has already ended");
    }
    await this.slots.giveBack(ended);
    await this.changes().record("directory.changed", { id: office._id, office: office.name });
    return OfficeHolder.from(ended, office, this.now());
  }

  async listOfOffice(args: HolderListArgs): Promise<HolderPage> {
    const office = await this.findOffice(args.id);
    return this.page({ officeId: office._id }, args, [office]);
  }

  async listOfMember(args: HolderListArgs): Promise<HolderPage> {
    await this.members().assertExists(args.id);
    return this.page({ memberId: args.id }, args);
  }

  /** Subject access: every appointment of the account, ended ones included, newest first. */
  async allOfUser(userId: string): Promise<OfficeHolder[]> {
    return this.present(await this.holders.allOfUser(userId));
  }

  /** Erasure: the account's appointments go, their slots and member offices given back. */
  async deleteAllOfUser(userId: string): Promise<void> {
    for (const holder of await this.holders.countingOfUser(userId)) {
      await this.slots.release(holder._id);
    }
    await this.holders.deleteAllOfUser(userId);
  }

  private async recordRunningTerm(
    fields: Appointment,
    slotKey: string,
  ): Promise<OfficeHolderRecord> {
    await this.slots.take(fields.officeId);
    try {
      const record = await this.holders.insertRunning({
        ...fields,
        _id: uuidv7(),
        releasedAt: null,
        slotKey,
      });
      if (record === DUPLICATE) throw alreadyHolds();
      return record;
    } catch (error) {
      // The member's reservation is the caller's to undo.
      await this.offices.giveBackSlot(fields.officeId);
      throw error;
    }
  }

  /** A term that ended before it was recorded: history only, never counted. */
  private async recordPastTerm(
    office: OfficeRecord,
    fields: Appointment,
    endDate: Date,
  ): Promise<OfficeHolder> {
    const id = uuidv7();
    const record = await this.holders.insertEnded({ ...fields, _id: id, releasedAt: endDate });
    // Deleting the title takes its appointments; one recorded after that would be orphaned.
    if (!(await this.offices.findById(office._id))) {
      await this.holders.deleteById(id);
      throw new NotFoundError("No office title has this id");
    }
    return OfficeHolder.from(record, office, this.now());
  }

  private async page(
    of: HolderListQuery["of"],
    args: HolderListArgs,
    known: OfficeLabel[] = [],
  ): Promise<HolderPage> {
    const { records, total } = await this.holders.page({
      of,
      includeEnded: args.includeEnded,
      search: args.search,
      page: args.page,
      limit: args.limit,
    });
    return pageOf(args, await this.present(records, known), total);
  }

  /** The appointments with their offices' names; ones whose office is gone are left out. */
  private async present(
    records: OfficeHolderRecord[],
    known: OfficeLabel[] = [],
  ): Promise<OfficeHolder[]> {
    const offices = new Map(known.map((office) => [office._id, office]));
    const missing = [...new Set(records.map((record) => record.officeId))].filter(
      (id) => !offices.has(id),
    );
    for (const office of await this.offices.namesAndLevels(missing)) {
      offices.set(office._id, office);
    }
    const now = this.now();
    return records.flatMap((record) => {
      const office = offices.get(record.officeId);
      return office ? [OfficeHolder.from(record, office, now)] : [];
    });
  }

  private async findOffice(id: string): Promise<OfficeRecord> {
    const office = await this.offices.findById(id);
    if (!office) throw new NotFoundError("No office title has this id");
    return office;
  }
}

function alreadyHolds(): ConflictError {
  return new ConflictError("This member already holds this office");
}

function noSuchHolder(): NotFoundError {
  return new NotFoundError("This office has no appointment with this id");
}
