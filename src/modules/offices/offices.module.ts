import type { Clock } from "../../clock";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import { startLapsedSweep } from "./lapsed-sweep";
import { createOfficeHolderModel } from "./office-holder.model";
import { OfficeHolderRepository } from "./office-holder.repository";
import { OfficeHolderService, type OfficeMembers } from "./office-holder.service";
import type { OfficeHolder } from "./office-holder.type";
import type { OfficeLevel } from "./office-level";
import { officeSlotMigration } from "./office-slot.migration";
import { OfficeSlots } from "./office-slots";
import { createOfficeModel } from "./office.model";
import { OfficeRepository } from "./office.repository";
import { OfficeService } from "./office.service";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

/** A running appointment as other modules read it (the public page, the ID card). */
export interface CurrentAppointment {
  /** The appointment's id. */
  id: string;
  officeId: string;
  title: string;
  level: OfficeLevel;
  startDate: Date;
  /** Where the office is held; each null when the appointment does not say. */
  department: string | null;
  region: string | null;
  province: string | null;
  cityMunicipality: string | null;
  barangay: string | null;
}

/** More offices than any member holds at once: the public check lists them all. */
const CURRENT_OFFICES_LIMIT = 100;

export interface OfficesModuleDeps {
  /** The member records that hold offices (members module). */
  members: OfficeMembers;
  /** Where changes the site shows are told (webhooks module). */
  changes?: ChangeFeed;
}

export interface OfficesModuleOptions extends ModuleBase {
  /** Asked on use: the webhooks module is built after this one. */
  deps: () => OfficesModuleDeps;
  /** When a term's end date has come, and when slots and appointments change. */
  clock: Clock;
}

/** Office titles and the appointments of members to them, within each title's slots. */
export function createOfficesModule(options: OfficesModuleOptions) {
  const { connection, config, log, deps, clock } = options;
  const now = () => clock.now();
  const members = () => deps().members;
  const changes = () => deps().changes ?? NO_CHANGE_FEED;
  const officeModel = createOfficeModel(connection);
  const holderModel = createOfficeHolderModel(connection);
  const offices = new OfficeRepository(officeModel, now);
  const holders = new OfficeHolderRepository(holderModel, now);
  const slots = new OfficeSlots(offices, holders, members, now);
  const officeHolders = new OfficeHolderService(holders, offices, slots, members, now, changes);
  const sweep = startLapsedSweep(slots, log, config.lapsedSweepSeconds * 1000, now);
  const appointments: PersonalData<OfficeHolder[]> = {
    exportOf: (userId) => officeHolders.allOfUser(userId),
    erase: ({ id }) => officeHolders.deleteAllOfUser(id),
  };
  return {
    services: { offices: new OfficeService(offices, holders, slots, now, changes), officeHolders },
    appointments,
    /** What the members module asks of offices. */
    forMembers: {
      /** The member's running appointments, newest first. */
      async currentOffices(memberId: string): Promise<CurrentAppointment[]> {
        const { items } = await officeHolders.listOfMember({
          id: memberId,
          includeEnded: false,
          page: 1,
          limit: CURRENT_OFFICES_LIMIT,
        });
        return items.map((holder) => ({
          id: holder.id,
          officeId: holder.office.id,
          title: holder.office.name,
          level: holder.office.level,
          startDate: holder.startDate,
          department: holder.department,
          region: holder.region,
          province: holder.province,
          cityMunicipality: holder.cityMunicipality,
          barangay: holder.barangay,
        }));
      },
      releaseLapsedOf: (memberId: string) => slots.releaseLapsed({ memberId }),
    },
    models: [officeModel, holderModel],
    migrations: [
      officeSlotMigration(holders, offices, members, now),
      { name: "office search text", run: () => offices.backfillSearchText() },
    ],
    close: () => sweep.stop(),
  } satisfies ModuleParts & Record<string, unknown>;
}
