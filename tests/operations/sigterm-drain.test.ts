import { randomBytes } from "node:crypto";
import http from "node:http";
import { BOOTSTRAP_ADMIN } from "../support/test-app";
import {
  dropDatabase,
  probe,
  serviceEnv,
  sleep,
  startServiceProcess,
  type Probe,
} from "../support/service-process";

/*
 * A sign-in sent shortly before SIGTERM is a request the service has received, even when the
 * process had not read it yet as the signal came: it is answered, never reset. Each round is a
 * service process of its own; half the sign-ins travel on a fresh connection (which may still
 * wait in the listen backlog), half on a kept-alive one the service served before.
 */

const ROUNDS = Number(process.env.DRAIN_ROUNDS ?? 20);
const SENT_BEFORE_SIGNAL_MS = 40;
const dbName = `t_drain_${randomBytes(3).toString("hex")}`;

afterAll(() => dropDatabase(process.env.TEST_MONGODB_URI!, dbName), 30_000);

const describeProbe = (p: Probe) => `${p.status}${p.error ? ` (${p.error})` : ""} after ${p.ms} ms`;

async function round(keptAlive: boolean): Promise<{ signIn: Probe; exitCode: number | null }> {
  const env = serviceEnv({
    MONGODB_URI: process.env.TEST_MONGODB_URI!,
    DB_NAME: dbName,
    BCRYPT_COST: "10",
    LOG_LEVEL: "warn",
  });
  const service = await startServiceProcess(env);
  try {
    const agent = keptAlive ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : undefined;
    if (agent) expect((await probe(`${service.url}/api/v1/`, 5_000, { agent })).status).toBe(200);
    const signIn = probe(`${service.url}/api/v1/auth/login`, 15_000, {
      method: "POST",
      body: { email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password },
      agent,
    });
    await sleep(SENT_BEFORE_SIGNAL_MS);
    service.child.kill("SIGTERM");
    const answered = await signIn;
    agent?.destroy();
    return { signIn: answered, exitCode: await service.exited };
  } finally {
    await service.stop();
  }
}

it(`answers a sign-in sent ${SENT_BEFORE_SIGNAL_MS} ms before SIGTERM, ${ROUNDS} rounds out of ${ROUNDS}, and exits 0`, async () => {
  const outcomes: string[] = [];
  // Two rounds at a time, one of each kind: a round is mostly a service starting.
  for (let i = 0; i < ROUNDS; i += 2) {
    const kinds = ROUNDS - i > 1 ? [false, true] : [false];
    const pair = await Promise.all(kinds.map((keptAlive) => round(keptAlive)));
    for (const { signIn, exitCode } of pair)
      outcomes.push(`${describeProbe(signIn)}, exit ${String(exitCode)}`);
  }
  expect(outcomes.filter((outcome) => !/^200 .*exit 0$/.test(outcome))).toEqual([]);
}, 600_000);
