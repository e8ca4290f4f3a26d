import type { FileRefs } from "../files/file-refs";
import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import type { UserRepository } from "../users/user.repository";
import type { CurrentOffices } from "./member-read.service";
import { createMemberCounterModel, MemberIdentityRepository } from "./member-identity.repository";
import { MemberPublicRepository } from "./member-public.repository";
import { MemberPublicPages } from "./member-public.service";
import { MemberMaintenanceRepository } from "./member-maintenance.repository";
import { storedKeysOf } from "./member-duplicates";
import type { MemberReferences } from "./member.presenter";
import { createMemberModel, fullNameOf } from "./member.model";
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
  /**
   * The member's approved 2x2 photo (onboarding keeps it, files render it), asked on first use;
   * absent until those modules are wired, and then no photo is shown.
   */
  photos?: () => {
    photoIdOf(memberId: string): Promise<string | null>;
    photoUrlOf(memberId: string): Promise<string | null>;
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
  const counters = createMemberCounterModel(connection);
  const identities = new MemberIdentityRepository(model, counters);
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
  const repository = new MemberRepository(model);
  const members = new MemberService(repository, references, cipher, {
    mailer,
    log,
    appUrl: config.appUrl,
    requirePrivacyConsent: config.requirePrivacyConsent,
    releaseLapsedTerms: (memberId) => deps.offices().releaseLapsedOf(memberId),
    identities,
    files: () => deps.files(),
  });
  const publicPages = new MemberPublicPages(new MemberPublicRepository(model), references, {
    headquarters: config.headquarters,
    currentOffices: (memberId) => deps.offices().currentOffices(memberId),
    photoIdOf: (memberId) => deps.photos?.().photoIdOf(memberId) ?? Promise.resolve(null),
    photoUrlOf: (memberId) => deps.photos?.().photoUrlOf(memberId) ?? Promise.resolve(null),
    log,
  });
  const memberships: PersonalData<Member[]> = {
    exportOf: (userId) => members.allOf(userId),
    erase: ({ id }) => members.deleteAllOf(id),
  };
  /** Members a news post names: what the public credential check shows, never a contact. */
  const tags = {
    tagsOf: async (ids: readonly string[]) =>
      new Map(
        (await repository.approvedNames(ids)).map((record) => [
          record._id,
          { id: record._id, uniqueId: record.uniqueId ?? null, fullName: fullNameOf(record) },
        ]),
      ),
  };
  return {
    services: { members, memberPublic: publicPages },
    /** For the files module: which avatars and 2x2 photos may be served publicly. */
    publicFileRule: publicPages.publicFileRule,
    memberships,
    tags,
    models: [model, counters],
    migrations: [
      { name: "member search fields", run: () => maintenance.backfillSearchFields() },
      {
        name: "member duplicate keys",
        run: () => maintenance.backfillDuplicateKeys(storedKeysOf(cipher)),
      },
      { name: "member unique ids", run: () => identities.backfill() },
      {
        name: "member regions under their official names",
        run: () => publicPages.migrateRegions(),
      },
    ],
  } satisfies ModuleParts & Record<string, unknown>;
}
