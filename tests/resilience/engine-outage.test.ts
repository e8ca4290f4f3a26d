import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../../tools/dev-db/engine";
import { toErrorResponse } from "../../src/errors/error-mapper";
import { buildUser, login } from "../support/factories";
import { BOOTSTRAP_ADMIN } from "../support/test-app";
import { TestMailbox } from "../support/mailbox";
import {
  factoryApp,
  probe,
  serviceEnv,
  sleep,
  startServiceProcess,
  stopAll,
  type Probe,
  type ServiceProcess,
} from "../support/service-process";

/*
 * The database dies in the middle of mixed traffic to a separate service process and comes
 * back. The engine is this file's own (it is stopped), as in tests/operations/health.test.ts.
 */

const API = "/api/v1";
const CONCURRENCY = 8;
/** No request may take longer than this: a lost database is a fast 503, never a hang. */
const MAX_REQUEST_MS = 5_000;
const RECOVERY_TIMEOUT_MS = 30_000;
/** Node's message for a write on a socket whose peer has closed it (code EPIPE). */
const EPIPE_MESSAGE = "This socket has been ended by the other party";

let engine: Engine;
let dataDir: string;
let mail: TestMailbox;
let service: ServiceProcess | undefined;
let reader: ServiceProcess | undefined;
let env: Record<string, string>;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outage-engine-"));
  engine = await startEngine({ dataDir, log: () => undefined });
  mail = await TestMailbox.start();
  env = serviceEnv({
    MONGODB_URI: engine.uri,
    DB_NAME: `t_outage_${randomBytes(3).toString("hex")}`,
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
  });
  service = await startServiceProcess(env);
  const app = factoryApp(service, mail);
  adminToken = (await login(app, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password)).token;
  memberToken = (await buildUser(app)).token;
}, 90_000);

afterAll(async () => {
  await stopAll([service, reader]);
  await mail?.close();
  await engine?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

type Action =
  "createBranch" | "createOffice" | "members" | "offices" | "branches" | "health" | "me";
const ACTIONS: Action[] = [
  "createBranch",
  "members",
  "createOffice",
  "health",
  "offices",
  "me",
  "branches",
];

interface Outcome extends Probe {
  action: Action;
  /** The unique title or name a create sent. */
  title?: string;
}

const asAdmin = () => ({ authorization: `Bearer ${adminToken}` });

function send(action: Action): Promise<Outcome> {
  const url = (route: string) => `${service!.url}${API}${route}`;
  const timeout = MAX_REQUEST_MS * 2;
  const tag = (title?: string) => (result: Probe) => ({ ...result, action, title });
  const unique = randomBytes(5).toString("hex");
  switch (action) {
    case "createBranch": {
      const title = `Outage branch ${unique}`;
      return probe(url("/branch-service/create"), timeout, {
        method: "POST",
        headers: asAdmin(),
        body: { title, description: "Written while the engine may be down" },
      }).then(tag(title));
    }
    case "createOffice": {
      const title = `Outage office ${unique}`;
      return probe(url("/offices/create"), timeout, {
        method: "POST",
        headers: asAdmin(),
        body: { name: title, level: "CITY_CHAPLAIN" },
      }).then(tag(title));
    }
    case "members":
      return probe(url("/members?limit=5"), timeout, { headers: asAdmin() }).then(tag());
    case "offices":
      return probe(url("/offices?limit=5"), timeout, { headers: asAdmin() }).then(tag());
    case "branches":
      return probe(url("/branch-service?limit=5"), timeout, { headers: asAdmin() }).then(tag());
    case "health":
      return probe(url("/health"), timeout).then(tag());
    case "me":
      return probe(url("/users/current"), timeout, {
        headers: { authorization: `Bearer ${memberToken}` },
      }).then(tag());
  }
}

/** CONCURRENCY workers sending the actions round-robin until stopped. */
function startLoad(): { stop: () => Promise<Outcome[]> } {
  const outcomes: Outcome[] = [];
  let running = true;
  let next = 0;
  const worker = async () => {
    while (running) {
      const action = ACTIONS[next % ACTIONS.length];
      next += 1;
      outcomes.push(await send(action));
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  return {
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return outcomes;
    },
  };
}

async function waitForHealth(status: number, timeoutMs: number): Promise<Probe> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await probe(`${service!.url}${API}/health`, MAX_REQUEST_MS);
    if (response.status === status || Date.now() > deadline) return response;
    await sleep(100);
  }
}

const describeOutcome = (o: Outcome) =>
  `${o.action} → ${o.status}${o.error ? ` (${o.error})` : ""} in ${o.ms} ms: ${JSON.stringify(o.body)}`;

/*
 * Faults this test found, all fixed; each stays covered here:
 * - the driver passed a raw EPIPE on when the engine closed its sockets (500 → 503, last test);
 * - FerretDB's "context canceled" for a query it cancels as it shuts down (500 → 503);
 * - the driver's monitor stuck on a socket the engine destroyed, so the service answered 503
 *   long after the engine was back (bounded by the driver's time-outs of src/db/connection.ts,
 *   tests/db/lost-database.test.ts), or for good when a heartbeat was written to a socket the
 *   engine had just closed (src/db/heartbeat-guard.ts, tests/db/stranded-heartbeat.test.ts).
 */

/** GET by id of a created branch or office on `baseUrl`; "" when it reads back as written. */
async function readBack(baseUrl: string, write: Outcome): Promise<string> {
  const { id } = (write.body as { data: { id: string } }).data;
  const route = write.action === "createBranch" ? "branch-service" : "offices";
  const read = await probe(`${baseUrl}${API}/${route}/${id}`, MAX_REQUEST_MS, {
    headers: asAdmin(),
  });
  const data = (read.body as { data?: { title?: string; name?: string } } | null)?.data;
  const stored = write.action === "createBranch" ? data?.title : data?.name;
  return read.status === 200 && stored === write.title
    ? ""
    : `${write.title} (${id}): ${read.status} ${JSON.stringify(read.body)}`;
}

/** 2xx, or the documented fast 503 of a lost database. */
function isAllowed(outcome: Outcome): boolean {
  if (outcome.status >= 200 && outcome.status < 300) return true;
  if (outcome.status !== 503) return false;
  const body = outcome.body as Record<string, unknown> | null;
  return outcome.action === "health"
    ? body?.status === "degraded" && body?.db === "down"
    : body?.code === "SERVICE_UNAVAILABLE" && typeof body?.message === "string";
}

describe("the database engine killed under mixed load and restarted", () => {
  let outcomes: Outcome[];
  let stoppedAt: number;
  let engineGoneAt: number;
  let restartingAt: number;
  let restartedAt: number;
  let recoveredAt: number;
  let healthWhileDown: Probe;
  let healthAfterRestart: Probe;

  beforeAll(async () => {
    const load = startLoad();
    try {
      await sleep(2_000);
      stoppedAt = Date.now();
      await engine.stop();
      engineGoneAt = Date.now();
      healthWhileDown = await waitForHealth(503, 10_000);
      await sleep(3_000);
      restartingAt = Date.now();
      await engine.restart();
      restartedAt = Date.now();
      healthAfterRestart = await waitForHealth(200, RECOVERY_TIMEOUT_MS);
      recoveredAt = Date.now();
      await sleep(2_000);
    } finally {
      outcomes = await load.stop();
    }
  }, 90_000);

  const acknowledgedWrites = () =>
    outcomes.filter(
      (o) => (o.action === "createBranch" || o.action === "createOffice") && o.status === 201,
    );

  it("answered every request with 2xx or a 503 SERVICE_UNAVAILABLE, never a dropped connection, never a 500", () => {
    const unexpected = outcomes.filter((outcome) => !isAllowed(outcome)).map(describeOutcome);
    expect(unexpected).toEqual([]);
    // Traffic was served, then refused.
    expect(outcomes.filter((o) => o.startedAt + o.ms < stoppedAt && o.status < 300)).not.toEqual(
      [],
    );
    const refused = outcomes.filter((o) => o.action !== "health" && o.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
  });

  it("never made a request wait more than 5 s", () => {
    const slow = outcomes.filter((o) => o.ms >= MAX_REQUEST_MS).map(describeOutcome);
    expect(slow).toEqual([]);
  });

  it("served everything normally before the engine went down", () => {
    const before = outcomes.filter((o) => o.startedAt + o.ms < stoppedAt);
    expect(before.filter((o) => o.status >= 300).map(describeOutcome)).toEqual([]);
  });

  it("refused every database request with 503 while the engine was gone", () => {
    const down = outcomes.filter(
      (o) => o.startedAt > engineGoneAt && o.startedAt + o.ms < restartingAt,
    );
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((o) => o.status !== 503).map(describeOutcome)).toEqual([]);
  });

  it("reported health 503 degraded while the engine was gone", () => {
    expect(healthWhileDown.status).toBe(503);
    expect(healthWhileDown.body).toMatchObject({ status: "degraded", db: "down" });
    expect(healthWhileDown.startedAt - engineGoneAt).toBeLessThan(MAX_REQUEST_MS);
  });

  it("recovered by itself within 30 s of the restart and served reads and writes again", async () => {
    expect(healthAfterRestart.status).toBe(200);
    expect(healthAfterRestart.body).toMatchObject({ status: "ok", db: "up" });
    expect(recoveredAt - restartedAt).toBeLessThan(RECOVERY_TIMEOUT_MS);
    const after = outcomes.filter((o) => o.startedAt > recoveredAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((o) => o.status >= 300).map(describeOutcome)).toEqual([]);
    expect((await send("createBranch")).status).toBe(201);
    expect((await send("createOffice")).status).toBe(201);
    const readsBack = await Promise.all(acknowledgedWrites().map((w) => readBack(service!.url, w)));
    expect(readsBack.filter(Boolean)).toEqual([]);
  });

  it("kept every write it acknowledged: a fresh process on the same database reads each back", async () => {
    const acknowledged = acknowledgedWrites();
    expect(acknowledged.some((o) => o.startedAt < stoppedAt)).toBe(true);
    reader = await startServiceProcess(env);
    const missing: string[] = [];
    for (const write of acknowledged) {
      const problem = await readBack(reader.url, write);
      if (problem) missing.push(problem);
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it("kept the service process running throughout", () => {
    expect(service!.hasExited()).toBe(false);
    expect(service!.child.exitCode).toBeNull();
  });
});

/** The error Node gives a write on a socket whose peer has closed it: a real one. */
async function epipeFromARealSocket(): Promise<Error> {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const socket = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    socket.resume();
    await once(socket, "end");
    const failed = once(socket, "error");
    socket.write("after the peer's FIN");
    const [error] = (await failed) as [Error];
    socket.destroy();
    return error;
  } finally {
    server.close();
  }
}

describe("a write on a connection the engine has just closed", () => {
  /*
   * Observed under the load above, about one run in seven, when the stopping engine closed its
   * connections: the driver (mongodb 7.8) rethrew the socket's raw EPIPE ("This socket has been
   * ended by the other party") instead of a MongoNetworkError, and the service answered 500.
   * The same kind of error, from a real socket, must map to 503.
   */
  it("is answered 503 SERVICE_UNAVAILABLE, not 500", async () => {
    const error = await epipeFromARealSocket();
    expect(error.message).toBe(EPIPE_MESSAGE);
    expect((error as NodeJS.ErrnoException).code).toBe("EPIPE");
    const response = toErrorResponse(error, { exposeDetail: false });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
  });
});
