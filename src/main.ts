import "reflect-metadata";
import cluster, { type Worker } from "node:cluster";
import { ConfigError, loadConfig, type Config } from "./config";
import { createLogger, type Logger } from "./logger";
import { openDatabase, startServer } from "./server";
import { startupProblem } from "./startup-errors";

const SHUTDOWN_GRACE_MS = 10_000;
/** Workers give up on their own after SHUTDOWN_GRACE_MS; this only catches one that hangs. */
const WORKER_STOP_TIMEOUT_MS = SHUTDOWN_GRACE_MS + 5_000;
/** A worker that died before it listened would most likely die again at once: do not spin. */
const RESPAWN_DELAY_MS = 2_000;

export interface MainHooks {
  /**
   * Runs once the service has stopped (every request answered, the database closed) and
   * before the process exits: a launcher that started a development database stops it here.
   */
  afterStop?: () => Promise<void>;
}

/** Starts the service as configured: one process, or a cluster primary over its workers. */
export async function main(hooks: MainHooks = {}): Promise<void> {
  const config = readConfig();
  const log = createLogger(config);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, log, hooks);
  // Several processes write to one stream: each line says which one wrote it.
  const worker = cluster.worker;
  const serviceLog = worker ? log.child({ worker: worker.id, pid: process.pid }) : log;
  await runService(config, serviceLog, hooks);
}

function readConfig(): Config {
  try {
    const config = loadConfig();
    if (!config.mongodbUri) {
      throw new ConfigError([
        "MONGODB_URI is not set: the service connects to a database and starts none " +
          "(`npm start` runs a development database and sets it)",
      ]);
    }
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** One process serving HTTP: the whole service with WORKERS=1, else one cluster worker. */
async function runService(config: Config, log: Logger, hooks: MainHooks): Promise<void> {
  // The handlers come first: the port answers before the start is over (the job scheduler starts
  // once the instance serves), and a signal in between must wait for the start and then drain
  // what arrived, not end the process by the default action with requests in flight.
  const signalled = new Promise<string>((resolve) => onStopSignals(resolve, cluster.isWorker));

  const connection = await openDatabase(config, log);
  const running = await startServer(config, log, connection);
  log.info({ url: running.url }, "service listening");

  const shutdown = async (signal: string) => {
    const force = setTimeout(() => {
      log.error("in-flight requests did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await running.close(() => log.info({ signal }, "shutting down: finishing in-flight requests"));
    await connection.close();
    await hooks.afterStop?.();
    log.info("stopped");
    process.exit(0);
  };
  // Once: a repeated signal resolves the same promise again, which does nothing.
  void signalled.then(shutdown);
}

/**
 * `repeatable`: in a cluster a signal can arrive twice (a terminal's Ctrl-C reaches the whole
 * process group, then the primary forwards SIGTERM); a second one must not end a drain early by
 * the default action. A single process keeps Node's usual "a second Ctrl-C kills it".
 */
function onStopSignals(stop: (signal: string) => void, repeatable: boolean): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    if (repeatable) process.on(signal, () => stop(signal));
    else process.once(signal, () => stop(signal));
  }
}

/**
 * The cluster primary serves nothing itself: it keeps `config.workers` workers, each connected
 * to MONGODB_URI on its own, and node:cluster shares the listening port among them.
 */
function runPrimary(config: Config, log: Logger, hooks: MainHooks): void {
  let stopping = false;
  for (let i = 0; i < config.workers; i += 1) keepWorker(log, () => stopping);
  log.info({ workers: config.workers }, "cluster primary started");
  if (!config.redisUrl) log.warn("no REDIS_URL: each worker counts rate limits on its own");

  onStopSignals((signal) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "cluster shutting down: stopping workers");
    void stopWorkers()
      .then(async (clean) => {
        await hooks.afterStop?.();
        log.info("stopped");
        process.exit(clean ? 0 : 1);
      })
      .catch((error: unknown) => {
        log.error({ err: error }, "cluster shutdown failed");
        process.exit(1);
      });
  }, true);
}

/** Forks a worker, and a replacement whenever it dies other than in a shutdown. */
function keepWorker(log: Logger, stopping: () => boolean): void {
  const worker = cluster.fork();
  let listened = false;
  worker.once("listening", () => (listened = true));
  worker.once("exit", (code: number | null, signal: string | null) => {
    if (stopping()) return;
    log.error(
      { worker: worker.id, pid: worker.process.pid, code, signal },
      "worker died unexpectedly; forking a replacement",
    );
    const replace = () => {
      if (!stopping()) keepWorker(log, stopping);
    };
    if (listened) replace();
    else setTimeout(replace, RESPAWN_DELAY_MS);
  });
}

/** SIGTERM to every worker, so each drains as a single process does; true if all exit cleanly. */
async function stopWorkers(): Promise<boolean> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const clean = await Promise.all(workers.map(stopWorker));
  return clean.every(Boolean);
}

function stopWorker(worker: Worker): Promise<boolean> {
  if (worker.isDead()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const force = setTimeout(() => worker.process.kill("SIGKILL"), WORKER_STOP_TIMEOUT_MS);
    worker.once("exit", (code: number | null, signal: string | null) => {
      clearTimeout(force);
      // Killed by the SIGTERM itself: it was still starting and had no handler, nothing to drain.
      resolve(code === 0 || signal === "SIGTERM");
    });
    // The signal, not worker.kill(): that disconnects first and skips the worker's own drain.
    worker.process.kill("SIGTERM");
  });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(startupProblem(error));
    process.exit(1);
  });
}
