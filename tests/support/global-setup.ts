import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEngine, type DevEngine } from "../../tools/dev-db/engine";

declare global {
  var __ENGINE__: DevEngine | undefined;
  var __ENGINE_DIR__: string | undefined;
}

/**
 * One real database for the whole run; each test file uses its own database in it. It is
 * TEST_MONGODB_URI when set, else a development engine (tools/dev-db) in a folder of the run.
 */
export default async function globalSetup(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chaplaincy-test-"));
  process.env.TEST_DATA_DIR = dataDir;
  process.env.TEST_LOG_DIR = path.join(dataDir, "logs");
  globalThis.__ENGINE_DIR__ = dataDir;
  if (process.env.TEST_MONGODB_URI) return;
  const engine = await startEngine({
    dataDir,
    log: (message) => process.stderr.write(`[engine] ${message}\n`),
  });
  process.env.TEST_MONGODB_URI = engine.uri;
  globalThis.__ENGINE__ = engine;
}
