/**
 * The driver left Unknown for good while the engine answers again: the watchdog replaces the
 * client's connections and the service's models work again, without a restart.
 */
import { randomBytes } from "node:crypto";
import mongoose, { type Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { watchConnection, type Watchdog } from "../../src/db/connection-watchdog";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";

const RECOVERY_BOUND_MS = 8_000;

const thingSchema = new mongoose.Schema({ _id: String, label: String });
const thingsOf = (connection: Connection) => connection.model("Thing", thingSchema);

interface Fixture {
  proxy: TcpProxy;
  connection: Connection;
  things: ReturnType<typeof thingsOf>;
  watchdog?: Watchdog;
}

const fixtures: Fixture[] = [];
const warnings: string[] = [];
const log = {
  warn: (...args: unknown[]) => warnings.push(String(args.at(-1))),
  info: () => undefined,
};

async function fixture(withWatchdog: boolean): Promise<Fixture> {
  const proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  const uri = `mongodb://127.0.0.1:${proxy.port}/`;
  const connection = await connectDatabase({
    uri,
    dbName: `t_watchdog_${randomBytes(3).toString("hex")}`,
  });
  const things = thingsOf(connection);
  const watchdog = withWatchdog
    ? watchConnection(connection, { uri, log, intervalMs: 200, stuckAfterMs: 1_000 })
    : undefined;
  const made = { proxy, connection, things, watchdog };
  fixtures.push(made);
  return made;
}

afterAll(async () => {
  for (const { proxy, connection } of fixtures) {
    proxy.forward();
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
    await proxy.close();
  }
});

/** Cuts every connection while new ones fall into a black hole, then lets new ones through. */
async function strandTheDriver({ proxy, things }: Fixture): Promise<void> {
  proxy.blackhole();
  proxy.cutAll();
  // The driver has noticed: an operation now fails server selection.
  await expect(things.findById("before").lean()).rejects.toMatchObject({
    name: expect.stringMatching(/ServerSelectionError$/),
  });
  proxy.forward();
}

/** Milliseconds until a read succeeds, or undefined when it still fails after `boundMs`. */
async function msUntilReadable(things: Fixture["things"], boundMs: number) {
  const started = Date.now();
  while (Date.now() - started < boundMs) {
    const read = await things
      .findById("before")
      .lean()
      .catch(() => undefined);
    if (read) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}

it("without the watchdog the driver stays stranded although the engine answers new connections", async () => {
  const stranded = await fixture(false);
  await stranded.things.create({ _id: "before", label: "written before the fault" });
  await strandTheDriver(stranded);
  expect(await msUntilReadable(stranded.things, RECOVERY_BOUND_MS)).toBeUndefined();
}, 30_000);

it("with the watchdog the same connection reads and writes again within seconds", async () => {
  const watched = await fixture(true);
  await watched.things.create({ _id: "before", label: "written before the fault" });
  await strandTheDriver(watched);
  const ms = await msUntilReadable(watched.things, RECOVERY_BOUND_MS);
  expect(ms).toBeDefined();
  expect(watched.watchdog!.reconnects()).toBe(1);
  expect(warnings).toContain(
    "database client stuck although the engine answers; replacing its connections",
  );
  await watched.things.create({ _id: "after", label: "written after recovery" });
  expect(await watched.things.countDocuments()).toBe(2);
}, 30_000);

it("recovers the same connection again the next time, as an engine restarted more than once needs", async () => {
  const watched = await fixture(true);
  await watched.things.create({ _id: "before", label: "written before the faults" });
  for (const fault of [1, 2]) {
    await strandTheDriver(watched);
    expect(await msUntilReadable(watched.things, RECOVERY_BOUND_MS)).toBeDefined();
    expect(watched.watchdog!.reconnects()).toBe(fault);
  }
}, 45_000);

it("leaves a healthy connection alone", async () => {
  const healthy = await fixture(true);
  await healthy.things.create({ _id: "before", label: "fine" });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(healthy.watchdog!.reconnects()).toBe(0);
  expect(await healthy.things.findById("before").lean()).toMatchObject({ label: "fine" });
});

it("does not reconnect while the engine itself is unreachable", async () => {
  const cutOff = await fixture(true);
  await cutOff.things.create({ _id: "before", label: "fine" });
  cutOff.proxy.blackhole();
  cutOff.proxy.cutAll();
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(cutOff.watchdog!.reconnects()).toBe(0);
  cutOff.proxy.forward();
}, 30_000);
