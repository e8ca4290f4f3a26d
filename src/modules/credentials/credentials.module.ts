import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import type { OnboardingFacts } from "../onboarding/onboarding-facts";
import type { PersonalData } from "../privacy/personal-data";
import { createCredentialModel } from "./credential.model";
import { CredentialRepository } from "./credential.repository";
import { CredentialService } from "./credential.service";
import type { CredentialExport } from "./credential.type";

/** The name the card and the certificate carry. */
const ORGANISATION = "Chaplaincy Membership";

export interface CredentialsModuleOptions extends ModuleBase {
  /** Asked on first use: these modules are built after this one. */
  deps: () => {
    onboarding: OnboardingFacts;
    files: FileRefs;
    offices: { currentOffices(memberId: string): Promise<{ title: string }[]> };
  };
}

/** The member's ID card, certificate and QR code, rendered and kept as private files. */
export function createCredentialsModule({ connection, config, deps }: CredentialsModuleOptions) {
  const model = createCredentialModel(connection);
  const credentials = new CredentialService(new CredentialRepository(model), {
    onboarding: () => deps().onboarding,
    files: () => deps().files,
    currentOffices: (memberId) => deps().offices.currentOffices(memberId),
    appUrl: config.appUrl,
    organisation: ORGANISATION,
  });
  const personalData: PersonalData<CredentialExport[]> = {
    exportOf: (userId) => credentials.exportOf(userId),
    erase: ({ id }) => credentials.eraseOf(id),
  };
  return {
    services: { idCredentials: credentials },
    /** CredentialFacts for the onboarding steps. */
    facts: credentials,
    personalData,
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
