/**
 * The driver's monitor stranded on a heartbeat that never ends: without a way out, the service
 * answers 503 for good although the database is back.
 *
 * The database closes the monitor's socket; Node destroys the socket at once but emits 'close'
 * only when the handle has closed, later in the same turn of the event loop. A heartbeat
 * written in between (server selection asks for one when an operation has just failed) goes to
 * a destroyed socket: the write fails without an 'error' event and the driver waits for a
 * 'drain' that never comes. No time-out covers that wait, the monitor never checks again, and
 * server selection cannot start a second check while one runs: once the pool's connections fail
 * too the server is Unknown for the life of the process.
 *
 * The test makes that turn happen on purpose: it destroys the monitor's socket and asks for a
 * check in the same synchronous step (the only place it reaches into the driver), then cuts the
 * pool's connections as the stopping engine does. The guard of src/db/connection.ts must bring
 * the same mongoose connection back; without it the read below never succeeds again.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type net from "node:net";
import type { Connection } from "mongoose";
import { connectDatabase, HEARTBEAT_GUARD } from "../../src/db/connection";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";
import { msUntilReadable, thingsOf } from "../support/things";
import { until } from "../support/until";

const RECOVERY_BOUND_MS = 10_000;

interface DriverMonitor {
  connection: { socket: net.Socket } | null;
  requestCheck(): void;
}

/** The monitor of the connection's one server (driver internals: test only). */
function monitorOf(connection: Connection): DriverMonitor {
  const topology = (
    connection.getClient() as unknown as {
      topology: { s: { servers: Map<string, { monitor: DriverMonitor }> } };
    }
  ).topology;
  const [server] = topology.s.servers.values();
  return server.monitor;
}

/**
 * Destroys the monitor's socket and asks for a check in the same step, right after a heartbeat
 * ended (past the driver's minimum interval, so the check runs at once, on that socket). True
 * when that check began in the same step and had not ended once the socket's 'close' was
 * handled: nothing is left that would end it, so it is stranded. A check the monitor's own timer
 * began first, or one the driver put off, does not begin in the step: false, try again.
 */
async function strand(connection: Connection): Promise<boolean> {
  const client = connection.getClient();
  await once(client, "serverHeartbeatSucceeded");
  // A wall-clock rule of the driver: a requested check runs at once only 500 ms after the last.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const monitor = monitorOf(connection);
  if (!monitor.connection) return false;
  let started = 0;
  let ended = 0;
  const start = () => (started += 1);
  const end = () => (ended += 1);
  client.on("serverHeartbeatStarted", start);
  client.on("serverHeartbeatSucceeded", end);
  client.on("serverHeartbeatFailed", end);
  const { socket } = monitor.connection;
  const closed = once(socket, "close");
  socket.destroy();
  monitor.requestCheck();
  const begunInStep = started === 1;
  await closed;
  // The driver's own handling of the 'close' (listeners, then the promises they settle).
  await new Promise((resolve) => setImmediate(resolve));
  client.off("serverHeartbeatStarted", start);
  client.off("serverHeartbeatSucceeded", end);
  client.off("serverHeartbeatFailed", end);
  return begunInStep && ended === 0;
}

let proxy: TcpProxy;
let connection: Connection;
const replaced: number[] = [];
let guardLooks = 0;

afterAll(async () => {
  proxy.forward();
  await connection.dropDatabase().catch(() => undefined);
  await connection?.close();
  await proxy?.close();
});

it("reads again after the monitor's heartbeat was written to a socket the database had just closed", async () => {
  proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  connection = await connectDatabase({
    uri: `mongodb://127.0.0.1:${proxy.port}/`,
    dbName: `t_stranded_${randomBytes(3).toString("hex")}`,
    onMonitorReplaced: (strandedForMs) => replaced.push(strandedForMs),
    onHeartbeatsChecked: () => (guardLooks += 1),
  });
  const things = thingsOf(connection);
  await things.create({ _id: "before", label: "written before the fault" });

  // On a loaded machine the monitor's own timer can start a check first; then try again.
  let stranded = false;
  for (let attempt = 1; attempt <= 5 && !stranded; attempt += 1)
    stranded = await strand(connection);
  expect(stranded).toBe(true);
  // The pool's connections go too, as when the engine stops: the server becomes Unknown.
  proxy.cutAll();
  await expect(things.findById("before").lean()).rejects.toThrow();
  expect(replaced).toEqual([]);

  const ms = await msUntilReadable(things, RECOVERY_BOUND_MS);
  expect(ms).toBeDefined();
  expect(replaced).toEqual([expect.any(Number)]);
  await things.create({ _id: "after", label: "written after recovery" });
  expect(await things.countDocuments()).toBe(2);
}, 40_000);

/**
 * Looks of the guard in which a heartbeat it took for running since the first of them would pass
 * its bound and be seen past it twice.
 */
const LOOKS_TO_REPLACE =
  Math.ceil(HEARTBEAT_GUARD.strandedAfterMs / HEARTBEAT_GUARD.checkEveryMs) + 2;

it("leaves a connection whose heartbeats end alone", async () => {
  const before = replaced.length;
  const things = thingsOf(connection);
  const from = guardLooks;
  await until(
    () => guardLooks >= from + LOOKS_TO_REPLACE,
    `the heartbeat guard did not look ${LOOKS_TO_REPLACE} times`,
  );
  expect(await things.findById("after").lean()).toMatchObject({ label: "written after recovery" });
  expect(replaced.length).toBe(before);
}, 20_000);
