/**
 * The driver as src/db/connection.ts configures it, in front of a database lost the ways
 * networks lose one (through a proxy): an operation fails within the stated bound instead of
 * waiting, and once the database answers again the same connection works again by itself.
 * With the driver's defaults the silenced operation waits for good and a stranded monitor for
 * 30 s, so each of these fails without the time-outs.
 */
import { randomBytes } from "node:crypto";
import { ConnectionStates, type Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";
import { msUntilReadable, thingsOf } from "../support/things";
import { until } from "../support/until";

/** docs/decisions.md, "Fail fast without a database": a request meets a lost database within this. */
const FAILS_WITHIN_MS = 5_000;
const RECOVERY_BOUND_MS = 8_000;

interface Fixture {
  proxy: TcpProxy;
  connection: Connection;
  things: ReturnType<typeof thingsOf>;
}

const fixtures: Fixture[] = [];

async function fixture(): Promise<Fixture> {
  const proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  const connection = await connectDatabase({
    uri: `mongodb://127.0.0.1:${proxy.port}/`,
    dbName: `t_lost_${randomBytes(3).toString("hex")}`,
  });
  const things = thingsOf(connection);
  await things.create({ _id: "before", label: "written before the fault" });
  const made = { proxy, connection, things };
  fixtures.push(made);
  return made;
}

afterAll(async () => {
  for (const { proxy, connection } of fixtures) {
    proxy.forward();
    await connection.dropDatabase().catch(() => undefined);
    await connection?.close();
    await proxy?.close();
  }
});

/** How long a read takes to fail; throws if it succeeds. */
async function msUntilFailed(things: Fixture["things"]): Promise<number> {
  const started = Date.now();
  const read = await things
    .findById("before")
    .lean()
    .then(
      () => "answered",
      () => "failed",
    );
  if (read !== "failed") throw new Error("the read was answered");
  return Date.now() - started;
}

it("fails an operation sent while no connection to the database can be made, within the bound", async () => {
  const { proxy, connection, things } = await fixture();
  let heartbeatsFailed = 0;
  connection.getClient().on("serverHeartbeatFailed", () => (heartbeatsFailed += 1));
  proxy.blackhole();
  proxy.cutAll();
  expect(await msUntilFailed(things)).toBeLessThan(FAILS_WITHIN_MS);
  // Once the driver has noticed, too (mongoose would hold it in its buffer instead): its monitor
  // failed a heartbeat and mongoose reads the connection as disconnected.
  await until(
    () => heartbeatsFailed > 0 && connection.readyState === ConnectionStates.disconnected,
    "the driver did not notice the lost database",
    2 * FAILS_WITHIN_MS,
  );
  expect(await msUntilFailed(things)).toBeLessThan(FAILS_WITHIN_MS);
  proxy.forward();
  expect(await msUntilReadable(things, RECOVERY_BOUND_MS)).toBeDefined();
}, 30_000);

it("fails an operation on connections that went silent without closing, within the bound", async () => {
  const { proxy, things } = await fixture();
  proxy.blackhole();
  proxy.silenceAll();
  expect(await msUntilFailed(things)).toBeLessThan(FAILS_WITHIN_MS);
  proxy.cutAll();
  proxy.forward();
  expect(await msUntilReadable(things, RECOVERY_BOUND_MS)).toBeDefined();
}, 30_000);

it("reads and writes again on the same connection after each of several outages", async () => {
  const { proxy, things } = await fixture();
  for (let outage = 1; outage <= 2; outage += 1) {
    proxy.blackhole();
    proxy.cutAll();
    await expect(things.findById("before").lean()).rejects.toMatchObject({
      name: expect.stringMatching(/ServerSelectionError$/),
    });
    proxy.forward();
    expect(await msUntilReadable(things, RECOVERY_BOUND_MS)).toBeDefined();
  }
  await things.create({ _id: "after", label: "written after recovery" });
  expect(await things.countDocuments()).toBe(2);
}, 45_000);
