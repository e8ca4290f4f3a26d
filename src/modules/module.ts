import type { Connection } from "mongoose";
import type { Config } from "../config";
import type { IndexedModel } from "../db/indexes";
import type { MigrationStep } from "../db/migrations";
import type { JobScheduler } from "../jobs/scheduler";
import type { Logger } from "../logger";

/**
 * What every module factory is given: the app's one connection, its configuration, its log,
 * and the job scheduler its factory declares its jobs on (src/jobs/scheduler.ts). What it needs
 * from other modules comes as `deps: () => <Domain>ModuleDeps`, asked on use (src/services.ts).
 */
export interface ModuleBase {
  connection: Connection;
  config: Config;
  log: Logger;
  scheduler: JobScheduler;
}

/** A collection of a module: its declared indexes, and mongoose's creation of it. */
export type ModuleModel = IndexedModel & { init(): Promise<unknown> };

/** What a module hands back to the composition root besides its services. */
export interface ModuleParts {
  /** Its collections, whose declared indexes are built at start. */
  models: ModuleModel[];
  /** Brings its records written by earlier versions up to date, at start. */
  migrations?: MigrationStep[];
  /** Releases what it holds (timers, threads), at shutdown; the connection is not its own. */
  close?: () => Promise<void>;
}
