import { spawn } from "node:child_process";
import path from "node:path";
import { COMPILED, ensureServiceBuilt } from "./service-build";

/**
 * `src/main.ts`, compiled as operators run it (tests/support/service-build.ts), in a process of
 * its own with exactly `env` (plus PATH), for a start that is meant to fail: resolves with its
 * exit code and everything it printed.
 */
export async function runServiceToExit(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  await ensureServiceBuilt();
  const child = spawn(process.execPath, [COMPILED.service], {
    cwd: path.join(__dirname, "..", ".."),
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}
