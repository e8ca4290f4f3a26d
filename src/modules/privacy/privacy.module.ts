import type { ModuleBase } from "../module";
import { DataExportService, type ExportSources } from "./data-export.service";
import { ErasureService } from "./erasure.service";
import type { PersonalDataEraser } from "./personal-data";

export interface PrivacyModuleDeps extends ExportSources {
  /** Every module's eraser, in the order erasure runs them. */
  erasers: PersonalDataEraser[];
}

export interface PrivacyModuleOptions extends ModuleBase {
  /** Asked on use: every module that keeps personal data. */
  deps: () => PrivacyModuleDeps;
}

/** Subject access and erasure, each asking every module that keeps personal data for its part. */
export function createPrivacyModule({ deps }: PrivacyModuleOptions) {
  return {
    services: { dataExport: new DataExportService(deps) },
    erasure: new ErasureService(() => deps().erasers),
  };
}
