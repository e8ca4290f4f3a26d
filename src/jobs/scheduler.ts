import { Agenda, type AgendaBackend, type BackoffStrategy } from "agenda";
import { MongoJobRepository } from "@agendajs/mongo-backend";
import type { Db } from "mongodb";
import type { Connection } from "mongoose";
import type { Logger } from "../logger";
import { JOBS_COLLECTION } from "./job.model";

/** Work that one replica does each time the scheduler looks (a sweep of due reminders). */
export interface RecurringJob {
  name: string;
  run: () => Promise<void>;
}

/** Work queued with its data (one webhook delivery), run once by one replica when due. */
export interface QueuedJob<D> {
  name: string;
  run: (data: D) => Promise<void>;
  /** When a run throws: how long until the next attempt, or null to give up (agenda's strategies). */
  backoff?: BackoffStrategy;
}

/**
 * What one replica's scheduler has done since it was made: a caller that must know a look has
 * passed (tests: "nothing more was sent") waits for these to grow instead of for a period.
 */
export interface SchedulerProgress {
  /**
   * Runs of the job `name` this replica finished, failed ones too. A name never declared throws:
   * a caller waiting on a misspelt name would otherwise wait for good.
   */
  runs(name: string): number;
  /** Looks of this replica for due jobs of `name` that ended with none left to take. */
  looks(name: string): number;
}

export interface SchedulerOptions {
  /** How often each replica asks the database for due jobs (JOBS_POLL_SECONDS). */
  pollSeconds: number;
  log: Logger;
}

/**
 * The jobs of every replica, kept in MongoDB by agenda: a job is locked by one conditional
 * update before it runs, so of several replicas one takes each run, and a job due while every
 * replica was down is found at the next look. Modules declare their jobs (ModuleParts.jobs /
 * queues); this class only connects them to agenda. A job's own work must still be idempotent
 * where it has effects outside the database (claim, then mail), because a replica that dies
 * mid-run leaves the lock to expire and the run to be repeated.
 */
export class JobScheduler implements SchedulerProgress {
  private readonly agenda: Agenda;
  private readonly recurring: RecurringJob[] = [];
  private readonly finished = new Map<string, number>();
  private readonly emptyLooks = new Map<string, number>();
  private started = false;

  constructor(
    connection: Connection,
    private readonly options: SchedulerOptions,
  ) {
    const db = connection.db;
    if (!db) throw new Error("the job scheduler needs an open connection");
    this.agenda = new Agenda({
      backend: jobsBackend(db, (name) => this.emptyLooks.set(name, this.looks(name) + 1)),
      processEvery: options.pollSeconds * 1000,
      // A run that outlives this is taken as dead and may be taken again by another replica.
      // agenda checks a running job every half lifetime on a timer a stopped scheduler cannot
      // cancel, so the lifetime follows the poll: a process that stops soon after a run is
      // held at most that half (main.ts exits explicitly; tests poll every few seconds).
      defaultLockLifetime: Math.max(10_000, 5 * options.pollSeconds * 1000),
      removeOnComplete: true,
    });
    this.agenda.on("fail", (error: Error, job: { attrs: { name: string } }) => {
      options.log.warn({ err: error, job: job.attrs.name }, "scheduled job failed");
    });
    this.agenda.on("error", (error: Error) => {
      options.log.warn({ err: error }, "job scheduler could not reach the database");
    });
  }

  /** Declares a job run every JOBS_POLL_SECONDS by one replica; before `start`. */
  every(job: RecurringJob): void {
    if (this.started) throw new Error(`job ${job.name} declared after the scheduler started`);
    this.recurring.push(job);
    this.agenda.define(job.name, () => job.run(), { concurrency: 1, lockLimit: 1 });
    this.countRuns(job.name);
  }

  /** Declares a queue of one-off jobs; before `start`. */
  queue<D>(job: QueuedJob<D>): void {
    if (this.started) throw new Error(`job ${job.name} declared after the scheduler started`);
    this.agenda.define<D>(job.name, (run) => job.run(run.attrs.data), {
      ...(job.backoff ? { backoff: job.backoff } : {}),
    });
    this.countRuns(job.name);
  }

  runs(name: string): number {
    if (!this.finished.has(name)) throw new Error(`no job ${name} is declared`);
    return this.finished.get(name)!;
  }

  looks(name: string): number {
    return this.emptyLooks.get(name) ?? 0;
  }

  private countRuns(name: string): void {
    this.finished.set(name, 0);
    this.agenda.on(`complete:${name}`, () => this.finished.set(name, this.runs(name) + 1));
  }

  /** Stores a one-off job; it runs at `at` (now when absent) or at the first look after. */
  async enqueue<D>(name: string, data: D, at?: Date): Promise<void> {
    if (at && at.getTime() > Date.now()) await this.agenda.schedule(at, name, data);
    else await this.agenda.now(name, data);
  }

  async start(): Promise<void> {
    this.started = true;
    await this.agenda.start();
    for (const job of this.recurring) {
      await this.agenda.every(`${this.options.pollSeconds} seconds`, job.name);
    }
  }

  /** Stops looking, waits for runs under way, and leaves the rest to the next replica. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.agenda.drain(30_000);
  }
}

/**
 * agenda's MongoDB storage on the service's own database, without the backend package's job
 * logger: that logger creates a collection and indexes of its own at connect even with logging
 * off, and this service builds every index it keeps (src/db/indexes.ts).
 */
function jobsBackend(db: Db, foundNoneDue: (name: string) => void): AgendaBackend {
  const repository = new LookingRepository(
    { mongo: db, db: { collection: JOBS_COLLECTION }, ensureIndex: false },
    foundNoneDue,
  );
  return {
    name: "mongodb",
    repository,
    ownsConnection: false,
    connect: () => repository.connect(),
    // The connection is the service's: closed by it, after the scheduler stops.
    disconnect: () => Promise.resolve(),
  };
}

/**
 * agenda's storage, asked at each look for one due job of a name after another (each locked as
 * it is taken) until none is left: that "none" ends the replica's look for the name and is told
 * to `foundNoneDue`.
 */
class LookingRepository extends MongoJobRepository {
  constructor(
    options: ConstructorParameters<typeof MongoJobRepository>[0],
    private readonly foundNoneDue: (name: string) => void,
  ) {
    super(options);
  }

  override async getNextJobToRun(
    ...args: Parameters<MongoJobRepository["getNextJobToRun"]>
  ): ReturnType<MongoJobRepository["getNextJobToRun"]> {
    const job = await super.getNextJobToRun(...args);
    if (!job) this.foundNoneDue(args[0]);
    return job;
  }
}
