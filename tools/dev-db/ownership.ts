import fs from "node:fs";
import path from "node:path";
import type { EngineLog } from "./supervisor";
import { StartupRefusal } from "../../src/startup-errors";

/*
 * One launcher per data folder, for good. The launcher holds `launcher.lock` (naming its own
 * process) and records the engine it runs in `engine.pid`. A launcher killed without a chance
 * to clean up (SIGKILL, the out-of-memory killer) leaves both behind with its engine still
 * running: the next launcher finds the lock's holder gone, stops that orphaned engine before
 * anything touches the files, and takes over. A process is named by its pid and its start
 * time, so a pid the system has since given to another process is never signalled.
 */

export interface ProcessRef {
  pid: number;
  /** The process's start time (field 22 of /proc/<pid>/stat); "" where /proc is absent. */
  started: string;
}

export interface Ownership {
  /** Records the engine just spawned, so a later launcher can stop it if this one dies. */
  recordEngine(pid: number): void;
  /** The engine stopped cleanly: nothing to clean up after it. */
  clearEngine(): void;
  /** Gives the folder up (idempotent; safe in an exit hook). */
  release(): void;
}

export class DataFolderInUseError extends StartupRefusal {}

const STOP_WAIT_MS = 5_000;

export async function claimDataFolder(dir: string, log: EngineLog): Promise<Ownership> {
  const lockFile = path.join(dir, "launcher.lock");
  const pidFile = path.join(dir, "engine.pid");
  const self = refOf(process.pid);
  if (!self) throw new Error("cannot read this process's own start time");
  for (let attempt = 1; ; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(self), { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt === 3) throw error;
    }
    const holder = readRef(lockFile);
    if (holder && isRunning(holder)) {
      throw new DataFolderInUseError(
        `the development database in ${dir} is run by process ${holder.pid}; stop it first, ` +
          "or set MONGODB_URI to a database of your own",
      );
    }
    log("taking over a data folder whose launcher died", { launcherPid: holder?.pid }, "warn");
    fs.rmSync(lockFile, { force: true });
  }

  const orphan = readRef(pidFile);
  if (orphan && isRunning(orphan)) {
    log(
      `stopping the engine a dead launcher left running (pid ${orphan.pid})`,
      { enginePid: orphan.pid },
      "warn",
    );
    await stopProcess(orphan);
  }
  fs.rmSync(pidFile, { force: true });

  let released = false;
  return {
    recordEngine: (pid) => {
      const ref = refOf(pid);
      if (ref) fs.writeFileSync(pidFile, JSON.stringify(ref), { mode: 0o600 });
    },
    clearEngine: () => fs.rmSync(pidFile, { force: true }),
    release: () => {
      if (released) return;
      released = true;
      const holder = readRef(lockFile);
      if (holder?.pid === self.pid && holder.started === self.started) fs.rmSync(lockFile);
    },
  };
}

/** The process `pid` as it is now, or undefined when there is none. */
export function refOf(pid: number): ProcessRef | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return undefined;
    return { pid, started: fields[19] };
  } catch {
    if (fs.existsSync("/proc/self/stat")) return undefined;
    return isAlive(pid) ? { pid, started: "" } : undefined;
  }
}

function isRunning(ref: ProcessRef): boolean {
  const now = refOf(ref.pid);
  return now !== undefined && now.started === ref.started;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readRef(file: string): ProcessRef | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ProcessRef>;
    if (typeof parsed.pid !== "number" || typeof parsed.started !== "string") return undefined;
    return { pid: parsed.pid, started: parsed.started };
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
async function stopProcess(ref: ProcessRef): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(ref.pid, name);
    } catch {
      // gone already
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + STOP_WAIT_MS;
  while (isRunning(ref)) {
    if (Date.now() > deadline) signal("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
