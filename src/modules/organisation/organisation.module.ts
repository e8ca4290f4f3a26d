import type { FileRefs } from "../files/file-refs";
import type { ModuleBase, ModuleParts } from "../module";
import { createOrganisationModel } from "./organisation.model";
import { OrganisationRepository } from "./organisation.repository";
import { OrganisationService } from "./organisation.service";

export interface OrganisationModuleDeps {
  /** The seal's file (files module). */
  files: FileRefs;
}

export interface OrganisationModuleOptions extends ModuleBase {
  /** Asked on use: mail asks for the organisation before the modules are all built. */
  deps: () => OrganisationModuleDeps;
}

/** The organisation's identity (settings), printed on credentials and signed under mail. */
export function createOrganisationModule({ connection, config, deps }: OrganisationModuleOptions) {
  const model = createOrganisationModel(connection);
  const repository = new OrganisationRepository(model);
  const organisation = new OrganisationService(
    repository,
    { ...config.organisation, sealFileId: null },
    () => deps().files,
  );
  return {
    services: { organisation },
    /** OrganisationSource for credentials and mail. */
    source: organisation,
    /** The settings are the organisation's; an erased editor is no longer named on them. */
    forgetEditor: (userId: string) => repository.forgetEditor(userId),
    models: [model],
  } satisfies ModuleParts & Record<string, unknown>;
}
