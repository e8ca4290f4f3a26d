import type { Connection } from "mongoose";
import type { Config } from "../src/config";
import { createLogger } from "../src/logger";
import { openDatabase } from "../src/server";
import { engineLogTo, engineUriOf, startEngine } from "../tools/dev-db/engine";
import { DataFolderInUseError } from "../tools/dev-db/ownership";

/**
 * Runs `work` on the configured database, then closes it. Without MONGODB_URI (outside
 * production) it is the development database under DATA_DIR: the one `npm start` runs there
 * now, if it does (a newcomer seeds with the service running in another terminal), else one
 * started for the while.
 */
export async function withDatabase<T>(
  config: Config,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  const log = createLogger({ ...config, logLevel: "warn" });
  const engine =
    config.mongodbUri || config.nodeEnv === "production"
      ? undefined
      : await startEngine({ dataDir: config.dataDir, log: engineLogTo(log) }).catch(
          (error: unknown) => {
            if (error instanceof DataFolderInUseError) return { uri: engineUriOf(config.dataDir) };
            throw error;
          },
        );
  const connection = await openDatabase({
    ...config,
    mongodbUri: engine?.uri ?? config.mongodbUri,
  });
  try {
    return await work(connection);
  } finally {
    await connection.close();
    if (engine && "stop" in engine) await engine.stop();
  }
}

/** Runs `main` when the file is the entry point; a failure prints its message and exits 1. */
export function runWhenMain(module: NodeModule, main: () => Promise<void>): void {
  if (require.main !== module) return;
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
