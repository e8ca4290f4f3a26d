import type { Connection } from "mongoose";
import type { Config } from "../src/config";
import { createLogger } from "../src/logger";
import { openDatabase } from "../src/server";

/** Runs `work` on the configured database (the embedded engine by default), then closes it. */
export async function withDatabase<T>(
  config: Config,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  const log = createLogger({ ...config, logLevel: "warn" });
  const { engine, connection } = await openDatabase(config, log);
  try {
    return await work(connection);
  } finally {
    await connection.close();
    await engine.stop();
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
