/** What a run measured, as the report (report.ts) renders it. */
import type { CapacityInput } from "./collection-stats";
import type { readsAt } from "./member-reads";
import type { BenchOptions } from "./options";
import type { BurstResult } from "./sign-in-burst";
import type { TargetPart } from "./suite";

/** One member count: the same read load at each, then the memory; a burst up to the target. */
export type SizeResult = Awaited<ReturnType<typeof readsAt>> & { burst?: BurstResult };

export type ReportInput = TargetPart & {
  options: BenchOptions;
  date: Date;
  /** The kind of database engine (tools/dev-db/engine.ts). */
  engine: string;
  sizes: SizeResult[];
  capacity: CapacityInput;
};
