/** What Linux's /proc says of a process. */
import fs from "node:fs";

/** Resident memory of a process and its children (a cluster), in MB. */
export function residentMb(pid: number): number {
  let kb = 0;
  for (const one of [pid, ...childrenOf(pid)]) {
    const match = /VmRSS:\s+(\d+) kB/.exec(readOr(`/proc/${one}/status`));
    if (match) kb += Number(match[1]);
  }
  return Math.round(kb / 1024);
}

/** The fields of /proc/<pid>/stat after the command name (in parentheses, maybe with spaces). */
const statOf = (pid: number | string) => {
  const stat = readOr(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
};

/** CPU time (user and system) a process has used so far, in µs; its clock ticks 100 a second. */
export function cpuMicros(pid: number): number {
  const fields = statOf(pid);
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The pid of this process's child named `name` (its command); null if none. */
export function childPid(name: string): number | null {
  return childrenOf(process.pid).find((pid) => readOr(`/proc/${pid}/comm`).trim() === name) ?? null;
}

function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(statOf(entry)[1]) === pid)
    .map(Number);
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** `work`, with the resident memory of `pid` before it and its peak, sampled every `everyMs`. */
export async function peakResidentMb<T>(pid: number, everyMs: number, work: () => Promise<T>) {
  const before = residentMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), everyMs);
  const result = await work().finally(() => clearInterval(sampler));
  return { before, peak, result };
}
