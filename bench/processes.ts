import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort } from "../tests/support/free-port";

const root = path.join(__dirname, "..");

export interface Spawned {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Runs compiled JavaScript of this repository (`entry`, as `npm start` runs the service) with
 * `env` on a free PORT and waits until `readyPath` answers 200.
 */
export async function spawnServer(
  entry: string,
  env: Record<string, string>,
  readyPath: string,
  timeoutMs = 180_000,
): Promise<Spawned> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawned: Spawned = {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(force);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const status = await fetch(`${spawned.url}${readyPath}`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return spawned;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await spawned.stop();
  throw new Error(`${entry} did not become ready on port ${port}:\n${output}`);
}

/** Resident memory of a process and its children (a cluster), in MB; Linux /proc. */
export function residentMb(pid: number): number {
  const pids = [pid, ...childrenOf(pid)];
  let kb = 0;
  for (const one of pids) {
    const status = readOr(`/proc/${one}/status`);
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    if (match) kb += Number(match[1]);
  }
  return Math.round(kb / 1024);
}

/**
 * CPU time (user and system) a process has used so far, in µs; Linux /proc, whose clock
 * ticks are USER_HZ, 100 a second.
 */
export function cpuMicros(pid: number): number {
  const stat = readOr(`/proc/${pid}/stat`);
  // After the command name (in parentheses, possibly with spaces): utime and stime are
  // fields 14 and 15 of the line, the 12th and 13th after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The pid of this process's child named `name` (its command); null if none. */
export function childPid(name: string): number | null {
  const child = childrenOf(process.pid).find((pid) => readOr(`/proc/${pid}/comm`).trim() === name);
  return child ?? null;
}

/** Resident memory of this process's child named `name` (its command), in MB; null if none. */
export function childResidentMb(name: string): number | null {
  const child = childPid(name);
  return child === null ? null : residentMb(child);
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOr(`/proc/${entry}/stat`);
    // Field 4 is the parent pid; the command name (field 2) may contain spaces, in parentheses.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === pid) found.push(Number(entry));
  }
  return found;
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
