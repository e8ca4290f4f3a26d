import http from "node:http";
import os from "node:os";
import { performance } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { DEMO_PASSWORD } from "../scripts/demo/demo-data";
import type { Session } from "./scenarios";

export interface BurstResult {
  count: number;
  answered: number;
  seconds: number;
  perSecond: number;
  hashMs: number;
  cores: number;
  /** cores ÷ the time of one hash: what the machine allows, in sign-ins a second. */
  bound: number;
  /** perSecond ÷ bound; the target is at least 0.8. */
  share: number;
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
const login = (session: Session) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ email: session.memberEmail, password: DEMO_PASSWORD });
    const request = http.request(
      `${session.baseUrl}/api/v1/auth/login`,
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
 * `count` sign-ins sent at once, each one bcrypt comparison at the service's cost: answered at
 * the rate the cores allow when they keep every core hashing, so the burst is judged against
 * cores ÷ one hash's time. The hash is timed in this process just before and just after the
 * burst (their mean), so that a machine busy with other work lowers the bound as it lowers the
 * burst.
 */
export async function signInBurst(
  session: Session,
  cost: number,
  count = 20,
): Promise<BurstResult> {
  // The service's hashing threads start on first use; that is not what the burst measures.
  await login(session);
  const before = hashMs(cost);
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: count }, () => login(session)));
  const seconds = (performance.now() - started) / 1000;
  const after = hashMs(cost);
  const answered = statuses.filter((status) => status === 200).length;
  const perSecond = answered / seconds;
  const meanHashMs = (before + after) / 2;
  const cores = os.availableParallelism();
  const bound = cores / (meanHashMs / 1000);
  return {
    count,
    answered,
    seconds,
    perSecond,
    hashMs: meanHashMs,
    cores,
    bound,
    share: perSecond / bound,
  };
}
