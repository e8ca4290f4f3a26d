import type { Clock } from "../../clock";
import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import { Role } from "../users/role";
import type { MembershipDeps, RenewalFacts } from "./membership-ports";
import { createMembershipModels } from "./membership.model";
import { MembershipTermRepository, RenewalRepository } from "./membership.repository";
import { MembershipService } from "./membership.service";
import type { MembershipExport } from "./membership.type";
import { RenewalService } from "./renewal.service";

export type { RenewalFacts } from "./membership-ports";
export type { MonthlyRenewals } from "./membership.repository";

export interface MembershipModuleOptions extends ModuleBase {
  clock: Clock;
  /** Asked on first use: these modules are built around this one. */
  deps: () => MembershipDeps & { files: FileRefs };
}

/** The membership year the oath starts, its renewals, reminders and revocation. */
export function createMembershipModule(options: MembershipModuleOptions) {
  const { connection, config, scheduler, clock, deps } = options;
  const models = createMembershipModels(connection);
  const terms = new MembershipTermRepository(models.terms);
  const renewalRepository = new RenewalRepository(models.renewals);
  const lazyDeps: MembershipDeps = {
    records: {
      currentRecord: (userId) => deps().records.currentRecord(userId),
      recordById: (memberId) => deps().records.recordById(memberId),
    },
    contactOf: (userId) => deps().contactOf(userId),
    renewCard: (memberId) => deps().renewCard(memberId),
    mailer: {
      send: (message) => deps().mailer.send(message),
      deliver: (message) => deps().mailer.deliver(message),
    },
  };
  const termMonths = config.membershipTermMonths;
  const membership = new MembershipService(terms, lazyDeps, {
    clock,
    termMonths,
    appUrl: config.appUrl,
  });
  const renewals = new RenewalService(
    renewalRepository,
    terms,
    membership,
    { ...lazyDeps, files: () => deps().files },
    { clock, termMonths, fee: { amount: config.membershipFeePhp, currency: "PHP" } },
  );
  scheduler.every({ name: "membership.reminders", run: () => membership.sendDueReminders() });

  const personalData: PersonalData<MembershipExport | null> = {
    exportOf: async (userId) => {
      const [owned, renewalRows] = await Promise.all([
        membership.ofUser(userId),
        renewals.exportOf(userId, { id: userId, role: Role.MEMBER }),
      ]);
      const term = owned[0] ?? null;
      if (!term && renewalRows.length === 0) return null;
      return {
        startedAt: term?.startedAt ?? null,
        membershipExpiresAt: term?.expiresAt ?? null,
        revokedAt: term?.revokedAt ?? null,
        revokedReason: term?.revokedReason ?? null,
        renewals: renewalRows,
      };
    },
    erase: async ({ id }) => {
      await Promise.all([membership.eraseOf(id), renewals.eraseOf(id)]);
    },
  };
  const renewalFacts: RenewalFacts = {
    verifiedByMonth: (from, to) => renewals.verifiedByMonth(from, to),
  };

  return {
    services: { membership, renewals },
    /** The oath starts the year (onboarding). */
    year: membership,
    /** The public check's standing (members) and the card's "valid until" (credentials). */
    standing: membership,
    /** For reports: renewals verified by month with their sums. */
    renewalFacts,
    personalData,
    models: [models.terms, models.renewals],
  } satisfies ModuleParts & Record<string, unknown>;
}
