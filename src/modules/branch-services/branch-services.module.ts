import type { ModuleBase, ModuleParts } from "../module";
import { createBranchServiceModel } from "./branch-service.model";
import { BranchServiceRepository } from "./branch-service.repository";
import { BranchServiceService } from "./branch-service.service";

/** What branches of service need from other modules. */
export interface BranchServicesModuleDeps {
  /** A branch some member record prefers is not deleted (members). */
  members: { isBranchInUse(branchId: string): Promise<boolean> };
}

export interface BranchServicesModuleOptions extends ModuleBase {
  /** Asked on first use: the members module is built on this one. */
  deps: () => BranchServicesModuleDeps;
}

/** Branches of service, which member records name as their preferred ones. */
export function createBranchServicesModule({ connection, deps }: BranchServicesModuleOptions) {
  const model = createBranchServiceModel(connection);
  const repository = new BranchServiceRepository(model);
  return {
    services: {
      branchServices: new BranchServiceService(repository, (branchId) =>
        deps().members.isBranchInUse(branchId),
      ),
    },
    models: [model],
    migrations: [{ name: "branch search text", run: () => repository.backfillSearchText() }],
  } satisfies ModuleParts & Record<string, unknown>;
}
