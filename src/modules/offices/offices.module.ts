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

/** More offices than any member holds at once: the public check lists them all. */
const CURRENT_OFFICES_LIMIT = 100;

export interface OfficesModuleOptions extends ModuleBase {
  /** The member records that hold offices (members module). */
  members: OfficeMembers;
}

/** Office titles and the appointments of members to them, within each title's slots. */
export function createOfficesModule({ connection, config, log, members }: OfficesModuleOptions) {
  const officeModel = createOfficeModel(connection);
  const holderModel = createOfficeHolderModel(connection);
  const offices = new OfficeRepository(officeModel);
  const holders = new OfficeHolderRepository(holderModel);
  const slots = new OfficeSlots(offices, holders, members);
  const officeHolders = new OfficeHolderService(holders, offices, slots, members);
  const sweep = startLapsedSweep(slots, log, config.lapsedSweepSeconds * 1000);
  const appointments: PersonalData<OfficeHolder[]> = {
    exportOf: (userId) => officeHolders.allOfUser(userId),
    erase: ({ id }) => officeHolders.deleteAllOfUser(id),
  };
  return {
    services: { offices: new OfficeService(offices, holders, slots), officeHolders },
    appointments,
    /** What the members module asks of offices. */
    forMembers: {
      async currentOffices(memberId: string): Promise<{ title: string; level: OfficeLevel }[]> {
        const { data } = await officeHolders.listOfMember({
          id: memberId,
          includeEnded: false,
          page: 1,
          limit: CURRENT_OFFICES_LIMIT,
        });
        return data.map((holder) => ({ title: holder.office.name, level: holder.office.level }));
      },
      releaseLapsedOf: (memberId: string) => slots.releaseLapsed({ memberId }),
    },
    models: [officeModel, holderModel],
    migrations: [
      officeSlotMigration(holders, offices, members),
      { name: "office search text", run: () => offices.backfillSearchText() },
    ],
    close: () => sweep.stop(),
  } satisfies ModuleParts & Record<string, unknown>;
}
