import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import type { OnboardingFacts } from "../onboarding/onboarding-facts";
import type { OrganisationSource } from "../organisation/organisation.service";
import type { PersonalData } from "../privacy/personal-data";
import { createCredentialModel } from "./credential.model";
import { CredentialRepository } from "./credential.repository";
import { CredentialService } from "./credential.service";
import type { CredentialExport } from "./credential.type";

export interface CredentialsModuleOptions extends ModuleBase {
  /** Asked on first use: these modules are built after this one. */
  deps: () => {
    onboarding: OnboardingFacts;
    files: FileRefs;
    offices: { currentOffices(memberId: string): Promise<{ title: string }[]> };
    membership: { validUntil(memberId: string): Promise<Date | null> };
    organisation: OrganisationSource;
  };
}

/** The member's ID card, certificate and QR code, rendered and kept as private files. */
export function createCredentialsModule({ connection, config, deps }: CredentialsModuleOptions) {
  const model = createCredentialModel(connection);
  const credentials = new CredentialService(new CredentialRepository(model), {
    onboarding: () => deps().onboarding,
    files: () => deps().files,
    currentOffices: (memberId) => deps().offices.currentOffices(memberId),
    validUntil: (memberId) => deps().membership.validUntil(memberId),
    organisation: () => deps().organisation,
    appUrl: config.appUrl,
  });
  const personalData: PersonalData<CredentialExport[]> = {
    exportOf: (userId) => credentials.exportOf(userId),
    erase: ({ id }) => credentials.eraseOf(id),
  };
  return {
    services: { idCredentials: credentials },
    /** CredentialFacts for the onboarding steps; the card printed again at a renewal. */
    facts: credentials,
    personalData,
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
