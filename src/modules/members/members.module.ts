import type { FileRefs } from "../files/file-refs";
import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import type { UserRepository } from "../users/user.repository";
import type { CurrentOffices } from "./member-read.service";
import { MemberMaintenanceRepository } from "./member-maintenance.repository";
import { storedKeysOf } from "./member-duplicates";
import type { MemberReferences } from "./member.presenter";
import { createMemberModel } from "./member.model";
import { MemberRepository } from "./member.repository";
import { MemberService } from "./member.service";
import type { Member } from "./member.type";

/** What member records need from other modules. */
export interface MembersModuleDeps {
  /** The accounts that applied (users module's collection). */
  users: Pick<UserRepository, "identitiesOf">;
  /** Titles of the branches a record prefers, and which of them exist (branch services). */
  branches: {
    titlesOf(ids: readonly string[]): Promise<Map<string, string>>;
    existingIds(ids: readonly string[]): Promise<Set<string>>;
  };
  /** Stored files the records name (the 2x2 photo). */
  files: () => FileRefs;
  /** Asked on first use: the offices module is built on this one. */
  offices: () => {
    /** The offices a member holds now. */
    currentOffices: CurrentOffices;
    /** Lets the member's terms past their end date stop counting, before archiving. */
    releaseLapsedOf(memberId: string): Promise<void>;
  };
}

export interface MembersModuleOptions extends ModuleBase {
  cipher: FieldCipher;
  mailer: Mailer;
  deps: MembersModuleDeps;
}

/** Membership applications and member records (contract §6). */
export function createMembersModule(options: MembersModuleOptions) {
  const { connection, config, log, cipher, mailer, deps } = options;
  const model = createMemberModel(connection);
  const maintenance = new MemberMaintenanceRepository(model);
  const references: MemberReferences = {
    applicants: async (userIds) =>
      (await deps.users.identitiesOf(userIds)).map((user) => ({
        id: user._id,
        name: user.name,
        email: user.email,
        role: user.role,
      })),
    branchTitles: (branchIds) => deps.branches.titlesOf(branchIds),
    existingBranchIds: (branchIds) => deps.branches.existingIds(branchIds),
  };
  const members = new MemberService(new MemberRepository(model), references, cipher, {
    mailer,
    log,
    appUrl: config.appUrl,
    requirePrivacyConsent: config.requirePrivacyConsent,
    releaseLapsedTerms: (memberId) => deps.offices().releaseLapsedOf(memberId),
    currentOffices: (memberId) => deps.offices().currentOffices(memberId),
    files: () => deps.files(),
  });
  const memberships: PersonalData<Member[]> = {
    exportOf: (userId) => members.allOf(userId),
    erase: ({ id }) => members.deleteAllOf(id),
  };
  return {
    services: { members },
    memberships,
    models: [model],
    migrations: [
      { name: "member search fields", run: () => maintenance.backfillSearchFields() },
      {
        name: "member duplicate keys",
        run: () => maintenance.backfillDuplicateKeys(storedKeysOf(cipher)),
      },
    ],
  } satisfies ModuleParts & Record<string, unknown>;
}
