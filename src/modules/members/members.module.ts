import type { Clock } from "../../clock";
import type { FileRefs } from "../files/file-refs";
import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalData } from "../privacy/personal-data";
import type { UserRepository } from "../users/user.repository";
import type { CurrentOffices } from "./member-read.service";
import { createMemberCounterModel, MemberIdentityRepository } from "./member-identity.repository";
import type { ApprovedPhoto } from "../onboarding/onboarding-facts";
import type { ProfileContent, ProfileMembers } from "../profiles/profile-ports";
import { MemberPageRepository } from "./member-page.repository";
import { MemberPageEdits } from "./member-page.service";
import { MemberPublicRepository } from "./member-public.repository";
import { MemberPublicPages } from "./member-public.service";
import { MemberMaintenanceRepository } from "./member-maintenance.repository";
import { storedKeysOf } from "./member-duplicates";
import type { MemberReferences } from "./member.presenter";
import { createMemberModel, fullNameOf } from "./member.model";
import { MemberRepository } from "./member.repository";
import { MemberReportRepository } from "./member-report.repository";
import { MemberService } from "./member.service";
import type { Member } from "./member.type";
import type { Standing } from "../membership/membership-year";
import type { MemberReportSource } from "../reports/report-ports";
import { NO_CHANGE_FEED, type ChangeFeed } from "../webhooks/change-feed";

/** What member records need from other modules. */
export interface MembersModuleDeps {
  /** The accounts that applied (users module's collection), and their current avatars. */
  users: Pick<UserRepository, "identitiesOf" | "findById">;
  /** Titles of the branches a record prefers, and which of them exist (branch services). */
  branches: {
    titlesOf(ids: readonly string[]): Promise<Map<string, string>>;
    existingIds(ids: readonly string[]): Promise<Set<string>>;
    byTitles(names: readonly string[]): Promise<{ id: string; title: string }[]>;
  };
  /** Stored files the records name (the 2x2 photo). */
  files: FileRefs;
  /** The offices module (built on this one). */
  offices: {
    /** The offices a member holds now. */
    currentOffices: CurrentOffices;
    /** Lets the member's terms past their end date stop counting, before archiving. */
    releaseLapsedOf(memberId: string): Promise<void>;
  };
  /**
   * The member's approved 2x2 photo (onboarding keeps it); absent until that module is wired,
   * and then no photo is shown.
   */
  photos?: { approvedPhotoOf(memberId: string): Promise<ApprovedPhoto | null> };
  /** The credential check's standing and end of year (membership module). */
  standing: {
    standingOf(memberId: string): Promise<{ standing: Standing; validUntil: Date | null }>;
  };
  /** What members add to their page and who follows it (profiles module). */
  content: ProfileContent;
  /** Where changes the site shows are told (webhooks module). */
  changes?: ChangeFeed;
}

export interface MembersModuleOptions extends ModuleBase {
  cipher: FieldCipher;
  mailer: Mailer;
  /** The time onboarding steps are timed by (moved in tests, as the membership year's). */
  clock: Clock;
  /** Asked on use, never while the module is built: most of these are built after it. */
  deps: () => MembersModuleDeps;
}

/** Membership applications and member records. */
export function createMembersModule(options: MembersModuleOptions) {
  const { connection, config, log, cipher, mailer, clock, deps } = options;
  const model = createMemberModel(connection);
  const maintenance = new MemberMaintenanceRepository(model);
  const counters = createMemberCounterModel(connection);
  const identities = new MemberIdentityRepository(model, counters);
  const references: MemberReferences = {
    applicants: async (userIds) =>
      (await deps().users.identitiesOf(userIds)).map((user) => ({
        id: user._id,
        name: user.name,
        email: user.email,
        role: user.role,
      })),
    branchTitles: (branchIds) => deps().branches.titlesOf(branchIds),
    existingBranchIds: (branchIds) => deps().branches.existingIds(branchIds),
  };
  const files = () => deps().files;
  const content = () => deps().content;
  const repository = new MemberRepository(model);
  const reports = new MemberReportRepository(model);
  const changes = () => deps().changes ?? NO_CHANGE_FEED;
  const members = new MemberService(repository, references, cipher, {
    mailer,
    log,
    appUrl: config.appUrl,
    requirePrivacyConsent: config.requirePrivacyConsent,
    releaseLapsedTerms: (memberId) => deps().offices.releaseLapsedOf(memberId),
    identities,
    files,
    changes,
    now: () => clock.now(),
  });
  const publicPages = new MemberPublicPages(new MemberPublicRepository(model), references, {
    headquarters: config.headquarters,
    currentOffices: (memberId) => deps().offices.currentOffices(memberId),
    standingOf: (memberId) => deps().standing.standingOf(memberId),
    approvedPhotoOf: (memberId) =>
      deps().photos?.approvedPhotoOf(memberId) ?? Promise.resolve(null),
    accountOf: async (userId) => {
      const [account] = await deps().users.identitiesOf([userId]);
      return account ? { name: account.name, avatar: account.avatar ?? null } : null;
    },
    content,
    files,
    log,
  });
  const memberPage = new MemberPageEdits(new MemberPageRepository(model), {
    files,
    content,
    avatarOf: async (userId) => (await deps().users.identitiesOf([userId]))[0]?.avatar ?? null,
    branches: () => deps().branches,
    changes,
  });
  /** For the profiles module: the record an owner edit acts on, and who may be followed. */
  const profileMembers: ProfileMembers = {
    currentOf: (userId) => memberPage.currentOf(userId),
    editableOf: (userId) => memberPage.editableOf(userId),
    followable: (key) => publicPages.followable(key),
    bannerAmong: (userId, fileIds) => memberPage.bannerAmong(userId, fileIds),
  };
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
    services: { members, memberPublic: publicPages, memberPage },
    profileMembers,
    /** For the files module: which avatars and 2x2 photos may be served publicly. */
    publicFileRule: publicPages.publicFileRule,
    memberships,
    tags,
    /** For the reports module: counts of member records. */
    reports: reports as MemberReportSource,
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
      { name: "member approval months", run: () => reports.backfillApprovedMonth() },
    ],
  } satisfies ModuleParts & Record<string, unknown>;
}
