import type { ChildProcess } from "node:child_process";

export type EngineLogLevel = "info" | "warn" | "error";

/** How the engine reports what it does; `fields` hold pids, exit codes and delays, no secrets. */
export type EngineLog = (
  message: string,
  fields?: Record<string, unknown>,
  level?: EngineLogLevel,
) => void;

/** An EngineLog writing pino lines at the level each event asks for. */
export function engineLogTo(
  logger: Record<EngineLogLevel, (fields: object, message: string) => void>,
): EngineLog {
  return (message, fields = {}, level = "info") => logger[level](fields, message);
}

export interface Backoff {
  /** Delay before the first restart after a crash. */
  initialMs: number;
  /** The delay doubles on each failed or short-lived restart, up to this. */
  maxMs: number;
  /** A process that stayed up this long was healthy: its next crash starts from initialMs. */
  stableAfterMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 10_000, stableAfterMs: 30_000 };

export interface SupervisedProcess {
  /** Names the process in log lines ("ferretdb"). */
  name: string;
  /** Spawns the process; every restart calls it again, so it decides the port each time. */
  spawn: () => ChildProcess;
  /** Resolves once the spawned process serves; rejects if it does not in time or on `abort`. */
  ready: (abort: AbortSignal) => Promise<void>;
  log: EngineLog;
  backoff?: Partial<Backoff>;
}

const STOP_TIMEOUT_MS = 5_000;

/**
 * Keeps one child process running: when it exits without stop() having been called, it is
 * spawned again after a delay that grows while restarts keep failing, so a process that cannot
 * start (its port taken, its disk full) is retried without spinning.
 */
export class ProcessSupervisor {
  private readonly backoff: Backoff;
  private child: ChildProcess | undefined;
  /** Bumped by start and stop: work begun under an older value gives up. */
  private epoch = 0;
  private upSince = 0;
  private delayMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly supervised: SupervisedProcess) {
    this.backoff = { ...DEFAULT_BACKOFF, ...supervised.backoff };
    this.delayMs = this.backoff.initialMs;
  }

  /** The running process's pid, if one is up or starting. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Spawns the process and supervises it until stop(). Rejects, with nothing left running, when
   * this first launch fails: a caller starting the engine wants to know, not to wait for retries.
   */
  async start(): Promise<void> {
    await this.stop();
    const epoch = (this.epoch += 1);
    this.delayMs = this.backoff.initialMs;
    const child = await this.launch(epoch);
    this.supervised.log(`${this.supervised.name} started (pid ${String(child.pid)})`, {
      enginePid: child.pid,
    });
  }

  /** Stops the process, and supervision with it: the exit this causes is not restarted. */
  async stop(): Promise<void> {
    this.stopSupervising();
    const child = this.child;
    this.child = undefined;
    if (child) await terminate(child);
  }

  /** From now on an exit is not restarted; the process itself is left running. */
  stopSupervising(): void {
    this.epoch += 1;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** For a process exit hook: no waiting is possible there. */
  killNow(): void {
    this.stopSupervising();
    this.child?.kill("SIGKILL");
  }

  private async launch(epoch: number): Promise<ChildProcess> {
    const child = this.supervised.spawn();
    this.child = child;
    const abort = new AbortController();
    try {
      await Promise.race([
        this.supervised.ready(abort.signal),
        failure(child, this.supervised.name),
      ]);
      if (epoch !== this.epoch)
        throw new Error(`${this.supervised.name} was stopped while starting`);
    } catch (error) {
      if (this.child === child) this.child = undefined;
      await terminate(child);
      throw error;
    } finally {
      abort.abort();
    }
    this.upSince = Date.now();
    child.once("exit", (code, signal) => this.onExit(child, epoch, code, signal));
    // It may have died between answering and this listener: the event is gone by now.
    if (hasExited(child)) this.onExit(child, epoch, child.exitCode, child.signalCode);
    return child;
  }

  private onExit(
    child: ChildProcess,
    epoch: number,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (child !== this.child || epoch !== this.epoch) return;
    this.child = undefined;
    const upMs = Date.now() - this.upSince;
    if (upMs >= this.backoff.stableAfterMs) this.delayMs = this.backoff.initialMs;
    this.supervised.log(
      `${this.supervised.name} exited unexpectedly; restarting`,
      { enginePid: child.pid, code, signal, upMs, restartInMs: this.delayMs },
      "error",
    );
    this.scheduleRelaunch(epoch);
  }

  private scheduleRelaunch(epoch: number): void {
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.backoff.maxMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.relaunch(epoch);
    }, delay);
    // The service's own handles keep the process alive; this timer must not hold up an exit.
    this.timer.unref();
  }

  private async relaunch(epoch: number): Promise<void> {
    if (epoch !== this.epoch) return;
    try {
      const child = await this.launch(epoch);
      this.supervised.log(
        `${this.supervised.name} restarted (pid ${String(child.pid)})`,
        { enginePid: child.pid },
        "warn",
      );
    } catch (error) {
      if (epoch !== this.epoch) return;
      this.supervised.log(
        `${this.supervised.name} failed to restart; retrying`,
        { error: error instanceof Error ? error.message : String(error), retryInMs: this.delayMs },
        "error",
      );
      this.scheduleRelaunch(epoch);
    }
  }
}

/** Rejects when the process exits or cannot be spawned at all (which emits only 'error'). */
function failure(child: ChildProcess, name: string): Promise<never> {
  return new Promise((_, reject) => {
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited (${describeExit(code, signal)}) while starting`)),
    );
    // Kept for the process's life: a later error (a failed kill) must not go unhandled.
    child.on("error", (error) => reject(new Error(`${name} could not start: ${error.message}`)));
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${String(code)}`;
}

/** SIGTERM, then SIGKILL if it is still there after 5 s; resolves once it has exited. */
export function terminate(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
