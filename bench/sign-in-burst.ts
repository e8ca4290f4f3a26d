import http from "node:http";
import os from "node:os";
import { performance } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import { log } from "./options";
import { childPid, cpuMicros } from "./processes";
import { median } from "./report-sections";
import type { At, Session } from "./scenario";
import { serviceEnv } from "./service-process";

export type BurstResult = Awaited<ReturnType<typeof signInBurst>>;
/** One burst through one route; CPU times are per answered sign-in. */
export type BurstSide = BurstResult["rest"];

/** One bcryptjs hash at `cost` in this process, in ms: the median of three. */
const hashMs = (cost: number) =>
  median(
    [1, 2, 3].map(() => {
      const started = performance.now();
      bcrypt.hashSync(DEMO_PASSWORD, cost);
      return performance.now() - started;
    }),
  );

/**
 * One sign-in on a connection of its own, as a burst's clients are separate people: a pooled
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

/**
 * `count` sign-ins at `url` at once, with the CPU per answer of the service's process (its
 * hashing threads included) and of the engine's (null when it was not found).
 */
async function burst(url: string, session: Session, pids: (number | null)[], count: number) {
  const cpu = () => pids.map((pid) => (pid === null ? 0 : cpuMicros(pid)));
  const before = cpu();
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: count }, () => login(url, session)));
  const seconds = (performance.now() - started) / 1000;
  const answered = statuses.filter((status) => status === 200).length;
  const [serviceCpuMs, engineCpuMs] = cpu().map(
    (after, index) => (after - before[index]) / 1000 / Math.max(answered, 1),
  );
  const engine = pids[1] === null ? null : engineCpuMs;
  return { answered, seconds, perSecond: answered / seconds, serviceCpuMs, engineCpuMs: engine };
}

/**
 * `options.burstSize` sign-ins at once, each one bcrypt comparison: at best answered at the rate
 * of cores ÷ one hash's time, which is timed in this process before and after the bursts (their
 * mean), so that a machine busy with other work lowers the bound as it lowers the bursts. The
 * same burst then goes to the floor, which makes the same service call without Sofa or GraphQL.
 */
export async function signInBurst({ engine, service, session, members, options }: At) {
  const cost = Number(serviceEnv(engine, members).BCRYPT_COST);
  const pids = [service.pid, childPid(engine.kind)];
  const count = options.burstSize;
  const restUrl = `${session.baseUrl}/api/v1/auth/login`;
  const floorUrl = `${session.floorUrl}/auth/login`;
  // The service's hashing threads start on first use; that is not what the burst measures.
  await login(restUrl, session);
  await login(floorUrl, session);
  const before = hashMs(cost);
  const rest = await burst(restUrl, session, pids, count);
  const floor = await burst(floorUrl, session, pids, count);
  const meanHashMs = (before + hashMs(cost)) / 2;
  const cores = os.availableParallelism();
  // The sign-ins a second the machine allows; each side's share is its rate over it.
  const bound = cores / (meanHashMs / 1000);
  const side = (measured: typeof rest) => ({ ...measured, share: measured.perSecond / bound });
  const result = { count, hashMs: meanHashMs, cores, bound, rest: side(rest), floor: side(floor) };
  for (const [route, one] of Object.entries({ REST: result.rest, floor: result.floor })) {
    log(
      `${members}: ${count} sign-ins at once (${route}): ${one.answered} answered, ` +
        `${one.perSecond.toFixed(2)}/s; cores ÷ one hash (${Math.round(meanHashMs)} ms) ` +
        `${bound.toFixed(2)}/s: ${one.share.toFixed(2)} of it; CPU per sign-in: service ` +
        `${Math.round(one.serviceCpuMs)} ms, engine ${Math.round(one.engineCpuMs ?? NaN)} ms`,
    );
  }
  return result;
}
