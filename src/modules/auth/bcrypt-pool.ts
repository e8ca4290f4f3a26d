import os from "node:os";
import { Worker } from "node:worker_threads";

/*
 * bcrypt is slow on purpose, and bcryptjs is JavaScript, so on the event loop one sign-in
 * would stall every other request while it hashes. The hashing runs in worker threads
 * instead, at most one fewer than the machine has cores, so a storm of sign-ins queues here
 * while the event loop keeps a core for everything else.
 */

type Operation =
  | { op: "hash"; password: string; cost: number }
  | { op: "compare"; password: string; hash: string };

interface Task {
  operation: Operation;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

// Evaluated as the worker's own module: no file to locate under ts-node, jest or dist.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const bcrypt = require(${JSON.stringify(require.resolve("bcryptjs"))});
parentPort.on("message", async (task) => {
  try {
    const value = task.op === "hash"
      ? await bcrypt.hash(task.password, task.cost)
      : await bcrypt.compare(task.password, task.hash);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

/** Threads per process: the cores but one, shared among the processes of a cluster. */
export function defaultBcryptWorkers(processes = 1): number {
  return Math.min(4, Math.max(1, Math.floor((os.availableParallelism() - 1) / processes)));
}

export class BcryptPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Task>();
  private readonly queue: Task[] = [];
  private size = 0;
  private closed = false;

  constructor(private readonly maxWorkers = defaultBcryptWorkers()) {}

  hash(password: string, cost: number): Promise<string> {
    return this.run({ op: "hash", password, cost }) as Promise<string>;
  }

  compare(password: string, hash: string): Promise<boolean> {
    return this.run({ op: "compare", password, hash }) as Promise<boolean>;
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    for (const task of [...this.queue, ...this.busy.values()]) {
      task.reject(new Error("The password hasher is shut down"));
    }
    this.queue.length = 0;
    this.busy.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private run(operation: Operation): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error("The password hasher is shut down"));
    return new Promise((resolve, reject) => {
      this.queue.push({ operation, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.size < this.maxWorkers ? this.spawn() : undefined);
      if (!worker) return;
      const task = this.queue.shift()!;
      this.busy.set(worker, task);
      worker.postMessage(task.operation);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    this.size += 1;
    worker.unref();
    worker.on("message", (message: { value?: string | boolean; error?: string }) => {
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      if (task) {
        if (message.error !== undefined) task.reject(new Error(message.error));
        else task.resolve(message.value!);
      }
      if (!this.closed) {
        this.idle.push(worker);
        this.dispatch();
      }
    });
    // A worker that dies takes only its own task with it; the next task gets a new worker.
    worker.on("error", (error) => this.busy.get(worker)?.reject(error));
    worker.on("exit", () => {
      this.size -= 1;
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      task?.reject(new Error("The password hasher stopped"));
      const index = this.idle.indexOf(worker);
      if (index !== -1) this.idle.splice(index, 1);
      if (!this.closed) this.dispatch();
    });
    return worker;
  }
}
