/**
 * The driver's monitor stranded on a heartbeat that never ends, the state in which the outage
 * test once kept answering 503 although the engine was back.
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
import { connectDatabase } from "../../src/db/connection";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";
import { msUntilReadable, thingsOf } from "../support/things";

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

let proxy: TcpProxy;
let connection: Connection;
const replaced: number[] = [];

afterAll(async () => {
  proxy.forward();
  await connection.dropDatabase().catch(() => undefined);
  await connection.close();
  await proxy.close();
});

it("reads again after the monitor's heartbeat was written to a socket the database had just closed", async () => {
  proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  connection = await connectDatabase({
    uri: `mongodb://127.0.0.1:${proxy.port}/`,
    dbName: `t_stranded_${randomBytes(3).toString("hex")}`,
    onMonitorReplaced: (strandedForMs) => replaced.push(strandedForMs),
  });
  const things = thingsOf(connection);
  await things.create({ _id: "before", label: "written before the fault" });
  const client = connection.getClient();

  // A heartbeat has just ended; past the driver's minimum interval a requested check runs at once.
  await once(client, "serverHeartbeatSucceeded");
  await new Promise((resolve) => setTimeout(resolve, 600));
  const ended: string[] = [];
  const note = (name: string) => () => ended.push(name);
  client.on("serverHeartbeatSucceeded", note("succeeded"));
  client.on("serverHeartbeatFailed", note("failed"));
  const monitor = monitorOf(connection);
  monitor.connection!.socket.destroy();
  monitor.requestCheck();
  // The pool's connections go too, as when the engine stops: the server becomes Unknown.
  proxy.cutAll();
  await expect(things.findById("before").lean()).rejects.toThrow();

  // The heartbeat written to the destroyed socket is still running a while later.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(ended).toEqual([]);
  expect(replaced).toEqual([]);

  const ms = await msUntilReadable(things, RECOVERY_BOUND_MS);
  expect(ms).toBeDefined();
  expect(replaced).toEqual([expect.any(Number)]);
  await things.create({ _id: "after", label: "written after recovery" });
  expect(await things.countDocuments()).toBe(2);
}, 40_000);

it("leaves a connection whose heartbeats end alone", async () => {
  const before = replaced.length;
  const things = thingsOf(connection);
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(await things.findById("after").lean()).toMatchObject({ label: "written after recovery" });
  expect(replaced.length).toBe(before);
}, 20_000);
