import "reflect-metadata";
import { ConfigError, loadConfig } from "./config";
import { createLogger } from "./logger";
import { openDatabase, startServer } from "./server";

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config);
  const { engine, connection } = await openDatabase(config, log);
  const running = await startServer(config, log, connection);
  log.info({ url: running.url, engine: engine.kind }, "service listening");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      log.error("in-flight requests did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await running.close();
    await connection.close();
    await engine.stop();
    log.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error("failed to start:", error);
  process.exit(1);
});
