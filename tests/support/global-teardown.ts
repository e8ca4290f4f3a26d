import "reflect-metadata";
import fs from "node:fs";
import { findSecretsInLogs } from "./log-secrets";
import { mergeRecorded } from "./recorded-queries";

export default async function globalTeardown(): Promise<void> {
  // Files that finished after tests/logs/log-secrets.test.ts are scanned here; a finding fails
  // the run (jest exits non-zero and .ci/run counts it as a failure).
  const scan = process.env.TEST_LOG_DIR ? findSecretsInLogs(process.env.TEST_LOG_DIR) : undefined;
  await globalThis.__ENGINE__?.stop();
  if (globalThis.__ENGINE_DIR__) {
    // For the benchmark's capacity plan (tests/support/recorded-queries.ts).
    mergeRecorded(globalThis.__ENGINE_DIR__);
    fs.rmSync(globalThis.__ENGINE_DIR__, { recursive: true, force: true });
  }
  if (scan && scan.findings.length > 0) {
    throw new Error(
      `secrets in the logs of the run: ${JSON.stringify(scan.findings.slice(0, 20))}`,
    );
  }
}
