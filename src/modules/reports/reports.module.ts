import type { Clock } from "../../clock";
import { ReportsService, type ReportSources } from "./reports.service";

export interface ReportsModuleOptions {
  /** Today, for a funnel range that names no end. */
  clock: Clock;
  /** Asked on use: each report is read from the module that keeps its records. */
  deps: () => ReportSources;
}

/** Reports for the office (admin): counts each owning module makes in one aggregation. */
export function createReportsModule({ clock, deps }: ReportsModuleOptions) {
  return { services: { reports: new ReportsService(deps, () => clock.now()) } };
}
