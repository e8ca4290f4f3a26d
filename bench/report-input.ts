/** What a run measured, as the report (report.ts) renders it. */
import type { CapacityInput } from "./collection-stats";
import type { PageVsDriver, ReportsVsDriver } from "./driver-alone";
import type { LoadResult } from "./load";
import type { MemberReads } from "./member-reads";
import type { BenchOptions } from "./options";
import type { Measured } from "./report-sections";
import type { BurstResult } from "./sign-in-burst";

/** One member count: the same read load at each, then the service's memory. */
export interface SizeResult {
  members: number;
  reads: MemberReads;
  serviceRssMb: number;
  /** The engine's resident memory at the same moment; null when it could not be read. */
  engineRssMb: number | null;
  /** A burst of sign-ins, at every count up to the target. */
  burst?: BurstResult;
}

export interface ReportInput {
  options: BenchOptions;
  date: Date;
  /** The kind of database engine (tools/dev-db/engine.ts). */
  engine: string;
  sizes: SizeResult[];
  /** The member reads at the target size again, with more requests, for the verdicts. */
  targetReads: MemberReads;
  page: PageVsDriver;
  /** Office reports against the same aggregations through the driver alone. */
  reports: ReportsVsDriver;
  /** The interface reads (each scenario's median run), then applications and sign-ins. */
  measured: Measured[];
  /** Every run of the interface reads (the ratios are taken per run). */
  readRuns: Measured[][];
  /** GET /offices alone, the floor's, and during the sign-ins (`storm`). */
  storm: { alone: LoadResult; floor: LoadResult; during: LoadResult; storm: LoadResult };
  csvExport: { rows: number; seconds: number; baselineMb: number; peakGrowthMb: number };
  capacity: CapacityInput;
}
