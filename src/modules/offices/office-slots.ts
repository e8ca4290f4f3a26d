import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { OfficeHolderRecord } from "./office-holder.model";
import type { HolderScope, OfficeHolderRepository } from "./office-holder.repository";
import type { OfficeRecord } from "./office.model";
import type { OfficeRepository } from "./office.repository";

/**
 * How long a slot count may rightly differ from the appointments: between taking a slot and
 * inserting the appointment, and between releasing an appointment and giving its slot back.
 * A recount leaves alone a count that changed more recently than this, so it never undoes a
 * step still under way; it also covers clock differences between instances.
 */
export const SLOT_SETTLE_MS = 60_000;

/** A slot change that kept losing to other changes of the same title. */
const MAX_TAKE_ATTEMPTS = 5;

/** The members module's side of a term that stops counting. */
export interface OfficeReleases {
  releaseFromOffice(memberId: string): Promise<void>;
}

/**
 * The office's count of taken slots (OfficeRecord.activeHolders), kept by conditional updates
 * instead of a lock, with the appointments (office_holders) as the record it is checked
 * against. See docs/decisions.md, "Office slots".
 */
export class OfficeSlots {
  constructor(
    private readonly offices: OfficeRepository,
    private readonly holders: OfficeHolderRepository,
    private readonly members: () => OfficeReleases,
    /** The service's clock: which terms have lapsed, and how long a count has been still. */
    private readonly now: () => Date,
  ) {}

  /**
   * Takes a slot of the office (404 when it does not exist, 409 when every slot is taken).
   * Before refusing, lapsed terms are released and the count is checked against the
   * appointments, so neither a lapse nor a crash between two writes keeps a slot taken.
   */
  async take(officeId: string): Promise<OfficeRecord> {
    let checked = false;
    for (let attempt = 0; attempt < MAX_TAKE_ATTEMPTS; attempt += 1) {
      const office = await this.offices.findById(officeId);
      if (!office) throw new NotFoundError("No office title has this id");
      const taken = await this.offices.takeSlot(office);
      if (taken) return taken;
      if (!isFull(office)) continue; // maxSlots or the count changed since the read: again.
      if (checked) {
        throw new ConflictError(
          `All ${office.maxSlots} slot(s) of "${office.name}" are taken; end an appointment first`,
        );
      }
      checked = true;
      await this.settle(officeId);
    }
    throw new ConflictError("The office title is changing; try again");
  }

  /** Gives back the slot and the member's office of a term that stopped counting. */
  async giveBack(holder: Pick<OfficeHolderRecord, "officeId" | "memberId">): Promise<void> {
    await this.offices.giveBackSlot(holder.officeId);
    await this.members().releaseFromOffice(holder.memberId);
  }

  /** Stops counting a term: false when another caller already did (or it no longer counts). */
  async release(holderId: string): Promise<boolean> {
    const released = await this.holders.release(holderId);
    if (released) await this.giveBack(released);
    return released !== null;
  }

  /**
   * Terms past their end date (of `scope`: an office, a member record, or all) stop counting
   * here, each by one conditional update, so each slot is given back once whichever instance
   * gets there first. Writes only: where a slot is wanted (take, settle), where a member's
   * count decides (archiving), and in the periodic sweep. Reads judge a term by its dates
   * instead (runningAt), so a lapsed term no one released yet never reads as running.
   * `endedBy`: only terms whose end date is not after it (default: now).
   */
  async releaseLapsed(scope: HolderScope = {}, endedBy?: Date): Promise<void> {
    for (;;) {
      const lapsed = await this.holders.lapsed(endedBy ?? this.now(), scope);
      if (lapsed.length === 0) return;
      for (const holder of lapsed) await this.release(holder._id);
    }
  }

  /**
   * Releases lapsed terms, then corrects the office's count from its appointments if the
   * count has been still for a while (SLOT_SETTLE_MS). For a refusal that may be wrong.
   */
  async settle(officeId: string): Promise<void> {
    await this.releaseLapsed({ officeId });
    const office = await this.offices.findById(officeId);
    if (!office) return;
    const since = new Date(this.now().getTime() - SLOT_SETTLE_MS);
    if (office.slotsChangedAt && office.slotsChangedAt > since) return;
    const holding = await this.holders.holdingSlots(officeId, since);
    if (holding !== office.activeHolders) await this.offices.correctSlots(office, holding);
  }
}

/** Whether the title, as read, had no free slot (or no count yet, which a recount writes). */
function isFull(office: OfficeRecord): boolean {
  const maxSlots = office.maxSlots ?? null;
  if (maxSlots === null) return false;
  return office.activeHolders === undefined || office.activeHolders >= maxSlots;
}

/**
 * The slot count a reader is shown: the stored count less the lapsed terms it still includes
 * (they give their slot back at the next write that wants one, or in the sweep).
 */
export function runningSlots(office: OfficeRecord, lapsed: number): number {
  return Math.max(0, (office.activeHolders ?? 0) - lapsed);
}
