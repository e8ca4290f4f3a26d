import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEngine, type Engine } from "../../src/db/engine";

declare global {
  var __ENGINE__: Engine | undefined;
  var __ENGINE_DIR__: string | undefined;
}

/** One real database engine for the whole run; each test file uses its own database in it. */
export default async function globalSetup(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chaplaincy-test-"));
  const engine = await startEngine({
    mongodbUri: process.env.TEST_MONGODB_URI,
    dataDir,
    log: (message) => process.stderr.write(`[engine] ${message}\n`),
  });
  process.env.TEST_MONGODB_URI = engine.uri;
  process.env.TEST_DATA_DIR = dataDir;
  process.env.TEST_LOG_DIR = path.join(dataDir, "logs");
  globalThis.__ENGINE__ = engine;
  globalThis.__ENGINE_DIR__ = dataDir;
}
