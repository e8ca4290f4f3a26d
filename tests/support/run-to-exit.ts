import { spawn } from "node:child_process";
import path from "node:path";

/**
 * `src/main.ts` in a process of its own with exactly `env` (plus PATH), for a start that is
 * meant to fail: resolves with its exit code and everything it printed.
 */
export async function runServiceToExit(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "src/main.ts"], {
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
