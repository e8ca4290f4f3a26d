/**
 * `npm start`: the service, with a development database when MONGODB_URI is unset.
 *
 * The service itself only connects to MONGODB_URI (src/main.ts). Without one, outside
 * production, this launcher starts an engine in DATA_DIR (see engine.ts), hands the service
 * its URI, and runs the service in this same process: when the service has drained and
 * closed its connections, the launcher stops the engine; if this process is killed outright,
 * the next launcher on the folder stops the engine it left (ownership.ts). With WORKERS > 1
 * node:cluster forks this file again for each worker, which just runs the service against the
 * URI it inherits: the engine is started once, by the primary.
 */
import "reflect-metadata";
import cluster from "node:cluster";
import path from "node:path";
import { environment, type LogLevel } from "../../src/config";
import { createLogger } from "../../src/logger";
import { main } from "../../src/main";
import { startupProblem } from "../../src/startup-errors";
import { engineLogTo, startEngine, type DevEngine } from "./engine";

const LOG_LEVELS: readonly string[] = [
  "fatal",
  "error",
  "warn",
  "info",
  "debug",
  "trace",
  "silent",
];

async function launch(): Promise<void> {
  const env = environment();
  const given = (name: string) => env[name]?.trim() || undefined;
  if (cluster.isWorker || given("MONGODB_URI") || given("NODE_ENV") === "production") {
    // A database of the operator's, a worker of a launched primary, or production (which
    // refuses to start without MONGODB_URI): nothing to launch.
    return main();
  }
  const level = given("LOG_LEVEL") ?? "info";
  const log = createLogger({
    logLevel: (LOG_LEVELS.includes(level) ? level : "info") as LogLevel,
    nodeEnv: "development",
  }).child({ component: "dev-db" });
  const engine: DevEngine = await startEngine({
    dataDir: path.resolve(given("DATA_DIR") ?? "data"),
    log: engineLogTo(log),
  });
  process.env.MONGODB_URI = engine.uri;
  try {
    await main({ afterStop: () => engine.stop() });
  } catch (error) {
    await engine.stop();
    throw error;
  }
}

launch().catch((error: unknown) => {
  console.error(startupProblem(error));
  process.exit(1);
});
