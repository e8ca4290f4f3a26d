import type { MigrationStep } from "../../db/migrations";
import { Role } from "../users/role";
import type { AccountIdentity } from "../users/user.repository";
import { sortedDays, sortedSlots } from "./interview-calendar";
import { keyFromName } from "./interviewer-key";
import {
  DEFAULT_DAYS,
  DEFAULT_INTERVIEWERS,
  DEFAULT_SLOTS,
  FORMER_TITLE,
} from "./interviewer-defaults";
import type { InterviewerRepository } from "./interviewer.repository";

export interface InterviewerAccounts {
  identitiesOf(ids: readonly string[]): Promise<AccountIdentity[]>;
}

const STAFF: readonly Role[] = [Role.OFFICER, Role.ADMIN];
const DEFAULT_KEYS = new Set<string>(DEFAULT_INTERVIEWERS.map((one) => one.key));

/**
 * Interviewers written when they were accounts (`_id` the account's id, no key) become records
 * of their own: the account's name and address copied, the account linked, a key made of the
 * name. The `_id` stays, so the bookings naming it keep their interviewer. Then a database gets
 * the organisation's three interviewers, once (a marker keeps deleted ones deleted).
 */
export function interviewerMigrations(
  interviewers: InterviewerRepository,
  accounts: InterviewerAccounts,
): MigrationStep[] {
  return [
    {
      name: "interviewer keys",
      run: async () => {
        let migrated = 0;
        for await (const record of interviewers.withoutKey()) {
          const [account] = await accounts.identitiesOf([record._id]);
          const name = account?.name ?? "Former interviewer";
          const won = await interviewers.migrate(record._id, {
            key: await freeKey(interviewers, name, record._id),
            name,
            title: FORMER_TITLE,
            email: account?.email ?? null,
            ...(account && STAFF.includes(account.role) ? { userId: account._id } : {}),
          });
          if (won) migrated += 1;
        }
        return migrated;
      },
    },
    {
      name: "default interviewers",
      run: async () => {
        if (await interviewers.defaultsSeeded()) return 0;
        let written = 0;
        for (const one of DEFAULT_INTERVIEWERS) {
          const holder = await interviewers.findByKey(one.key);
          if (holder && holder._id !== one._id) continue;
          const inserted = await interviewers.seed({
            ...one,
            email: null,
            active: true,
            days: sortedDays(DEFAULT_DAYS),
            timeSlots: sortedSlots(DEFAULT_SLOTS),
          });
          if (inserted) written += 1;
        }
        await interviewers.markSeeded();
        return written;
      },
    },
  ];
}

/** The name's key, or with the end of the id when that is taken or is a default's. */
async function freeKey(
  interviewers: InterviewerRepository,
  name: string,
  id: string,
): Promise<string> {
  const base = keyFromName(name);
  if (!DEFAULT_KEYS.has(base) && !(await interviewers.keyTaken(base))) return base;
  return `${base}-${id.replace(/-/g, "").slice(-6)}`;
}
