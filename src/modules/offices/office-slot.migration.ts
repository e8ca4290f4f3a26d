import { ConflictError, NotFoundError } from "../../errors/app-errors";
import type { MigrationStep } from "../../db/migrations";
import { isActive, runningKey } from "./office-holder.model";
import type { OfficeHolderRepository } from "./office-holder.repository";
import type { Appointee } from "./office-holder.service";
import type { OfficeRepository } from "./office.repository";

/** The members module's count of offices a record holds (MemberService). */
export interface OfficeReservations {
  reserveForOffice(memberId: string): Promise<Appointee>;
}

/**
 * Appointments written before slots were counted get their slotKey and releasedAt; each
 * running one is then counted on its office and on its member record, once (the conditional
 * update decides which instance counts it). A title of that version nobody held stays without
 * a count, read as 0, until a refused slot has it recounted (office-slots.ts).
 */
export function officeSlotMigration(
  holders: OfficeHolderRepository,
  offices: OfficeRepository,
  members: () => OfficeReservations,
  now: () => Date,
): MigrationStep {
  return {
    name: "office slot counts",
    run: async () => {
      let migrated = 0;
      for await (const holder of holders.unmigrated()) {
        const running = isActive(holder, now());
        const won = await holders.migrate(
          holder._id,
          running
            ? { releasedAt: null, slotKey: runningKey(holder.officeId, holder.memberId) }
            : { releasedAt: holder.endedAt ?? holder.endDate, slotKey: holder._id },
        );
        if (!won) continue;
        migrated += 1;
        if (!running) continue;
        await offices.countTakenSlot(holder.officeId);
        await members()
          .reserveForOffice(holder.memberId)
          .catch((error: unknown) => {
            // That version kept holders APPROVED; a record it left otherwise is not counted.
            if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
          });
      }
      return migrated;
    },
  };
}
