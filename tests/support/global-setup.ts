import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEngine, type DevEngine } from "../../tools/dev-db/engine";
import { ensureServiceBuilt } from "./service-build";

declare global {
  var __ENGINE__: DevEngine | undefined;
  var __ENGINE_DIR__: string | undefined;
}

/**
 * One real database for the whole run; each test file uses its own database in it. It is
 * TEST_MONGODB_URI when set, else a development engine (tools/dev-db) in a folder of the run.
 * Meanwhile the compiled service the tests spawn (tests/support/service-build.ts) is brought up
 * to date; if that fails, the tests that spawn it fail with the compiler's output, the others
 * run.
 */
export default async function globalSetup(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chaplaincy-test-"));
  process.env.TEST_DATA_DIR = dataDir;
  process.env.TEST_LOG_DIR = path.join(dataDir, "logs");
  globalThis.__ENGINE_DIR__ = dataDir;
  const built = ensureServiceBuilt((message) => process.stderr.write(`[build] ${message}\n`)).catch(
    (error: Error) => process.stderr.write(`[build] ${error.message}\n`),
  );
  if (!process.env.TEST_MONGODB_URI) {
    const engine = await startEngine({
      dataDir,
      log: (message) => process.stderr.write(`[engine] ${message}\n`),
    });
    process.env.TEST_MONGODB_URI = engine.uri;
    globalThis.__ENGINE__ = engine;
  }
  await built;
}
