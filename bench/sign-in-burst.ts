import http from "node:http";
import os from "node:os";
import { performance } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import type { Session } from "./scenario";

/** One burst through one route. */
export interface BurstSide {
  answered: number;
  seconds: number;
  perSecond: number;
  /** perSecond ÷ the bound; the target is at least 0.8. */
  share: number;
  /** CPU time per answered sign-in of the service's process (its hashing threads included). */
  serviceCpuMs: number;
  /** CPU time per answered sign-in of the database engine's process; null when none was found. */
  engineCpuMs: number | null;
}

export interface BurstResult {
  count: number;
  hashMs: number;
  cores: number;
  /** cores ÷ the time of one hash: what the machine allows, in sign-ins a second. */
  bound: number;
  /** POST /api/v1/auth/login. */
  rest: BurstSide;
  /** The hand-written floor's POST /auth/login (bench/floor-server.ts): the same service call. */
  floor: BurstSide;
}

/** The processes whose CPU a burst is charged with. */
export interface BurstProcesses {
  cpuMicros: (pid: number) => number;
  servicePid: number;
  enginePid: number | null;
}

/** One bcryptjs hash at `cost` in this process: the median of `times`, in milliseconds. */
function hashMs(cost: number, times = 3): number {
  const runs: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    bcrypt.hashSync(DEMO_PASSWORD, cost);
    runs.push(performance.now() - started);
  }
  return runs.sort((a, b) => a - b)[Math.floor(times / 2)];
}

/**
 * One sign-in on a connection of its own, as the burst's clients are separate people: a pooled
 * keep-alive connection could be closed by the server's idle time-out while the hash is timed.
 */
const login = (url: string, session: Session) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ email: session.memberEmail, password: DEMO_PASSWORD });
    const request = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(body);
  });

/** `count` sign-ins at `url` sent at once, with the CPU the service and the engine spent on them. */
async function burst(
  url: string,
  session: Session,
  processes: BurstProcesses,
  count: number,
): Promise<Omit<BurstSide, "share">> {
  const { servicePid, enginePid } = processes;
  const [serviceBefore, engineBefore] = [
    processes.cpuMicros(servicePid),
    enginePid === null ? 0 : processes.cpuMicros(enginePid),
  ];
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: count }, () => login(url, session)));
  const seconds = (performance.now() - started) / 1000;
  const answered = statuses.filter((status) => status === 200).length;
  const perAnswer = (micros: number) => micros / 1000 / Math.max(answered, 1);
  return {
    answered,
    seconds,
    perSecond: answered / seconds,
    serviceCpuMs: perAnswer(processes.cpuMicros(servicePid) - serviceBefore),
    engineCpuMs:
      enginePid === null ? null : perAnswer(processes.cpuMicros(enginePid) - engineBefore),
  };
}

/**
 * `count` sign-ins sent at once, each one bcrypt comparison at the service's cost: answered at
 * the rate the cores allow when they keep every core hashing, so the burst is judged against
 * cores ÷ one hash's time. The hash is timed in this process just before and just after the
 * bursts (their mean), so that a machine busy with other work lowers the bound as it lowers the
 * bursts. The same burst then goes to the hand-written floor, which makes the same service call
 * without Sofa or GraphQL: what the two share (the hashes, the engine's reads) is not REST's.
 */
export async function signInBurst(
  session: Session,
  cost: number,
  processes: BurstProcesses,
  count = 20,
): Promise<BurstResult> {
  const restUrl = `${session.baseUrl}/api/v1/auth/login`;
  const floorUrl = `${session.floorUrl}/auth/login`;
  // The service's hashing threads start on first use; that is not what the burst measures.
  await login(restUrl, session);
  await login(floorUrl, session);
  const before = hashMs(cost);
  const rest = await burst(restUrl, session, processes, count);
  const floor = await burst(floorUrl, session, processes, count);
  const after = hashMs(cost);
  const meanHashMs = (before + after) / 2;
  const cores = os.availableParallelism();
  const bound = cores / (meanHashMs / 1000);
  return {
    count,
    hashMs: meanHashMs,
    cores,
    bound,
    rest: { ...rest, share: rest.perSecond / bound },
    floor: { ...floor, share: floor.perSecond / bound },
  };
}
