import type { Logger } from "./logger";

/**
 * Work a request starts but does not wait for, so that its answer cannot tell what the work
 * found (forgot-password and resend-verification answer alike for known and unknown
 * addresses). A task starts after the current turn of the event loop, never fails the request
 * (a failure is logged), and shutdown waits for every task, so no mail is lost to a SIGTERM.
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) =>
        this.log.error({ err: error, task: name }, "background task failed"),
      );
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }

  /** Resolves when every task started so far, and any they started, has finished. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

/**
 * Runs `task` every `everyMs` for as long as the process lives (the timer does not keep it
 * alive), never two runs at once; `stop` waits for a run under way. `task` handles its own
 * failures.
 */
export function every(everyMs: number, task: () => Promise<void>) {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= task().finally(() => {
      running = null;
    });
  }, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
