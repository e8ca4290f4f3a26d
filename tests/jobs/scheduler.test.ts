import { randomBytes } from "node:crypto";
import pino from "pino";
import type { Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { ensureIndexes } from "../../src/db/indexes";
import { createJobModel } from "../../src/jobs/job.model";
import { JobScheduler } from "../../src/jobs/scheduler";
import { CommandRecorder, declaredIndexes } from "../support/command-recorder";
import { describeUnserved, unservedQueries } from "../support/index-coverage";
import { until } from "../support/until";

/*
 * The job scheduler (src/jobs/scheduler.ts) on the suite's real engine, as two replicas on one
 * database: each queued job runs once whichever replica looks first, a job that fell due while
 * no replica ran is done at the first look after, and every query it makes is index-served.
 */

const log = pino({ level: "silent" });
const dbName = `t_scheduler_${randomBytes(3).toString("hex")}`;
const connections: Connection[] = [];
const recorders: CommandRecorder[] = [];

/** A connection of its own, every query of which the coverage check at the end judges. */
async function connect(): Promise<Connection> {
  const connection = await connectDatabase({
    uri: process.env.TEST_MONGODB_URI!,
    dbName,
    monitorCommands: true,
  });
  connections.push(connection);
  recorders.push(new CommandRecorder(connection.getClient()));
  return connection;
}

/** A replica: its own connection and scheduler, running `ran` for every job it takes. */
async function replica(name: string, ran: Array<{ by: string; n: number }>) {
  const connection = await connect();
  const scheduler = new JobScheduler(connection, { pollSeconds: 1, log });
  scheduler.queue<{ n: number }>({
    name: "test.record",
    run: ({ n }) => {
      ran.push({ by: name, n });
      return Promise.resolve();
    },
  });
  return scheduler;
}

/**
 * Until each scheduler has looked twice more for due test.record jobs, so that a whole look of
 * each began after this call: any job still due by then was taken, and is run before `stop`
 * returns (it waits for runs under way).
 */
async function anotherLookBy(...schedulers: JobScheduler[]): Promise<void> {
  const from = schedulers.map((scheduler) => scheduler.looks("test.record"));
  await until(
    () => schedulers.every((scheduler, i) => scheduler.looks("test.record") >= from[i] + 2),
    "a replica made no further look for due jobs",
  );
}

beforeAll(async () => {
  const first = await connect();
  await ensureIndexes([createJobModel(first)], log);
});
afterAll(async () => {
  await connections[0]?.dropDatabase();
  await Promise.all(connections.map((connection) => connection.close()));
});

it("two replicas run each of 30 queued jobs exactly once", async () => {
  const ran: Array<{ by: string; n: number }> = [];
  const a = await replica("a", ran);
  const b = await replica("b", ran);
  await Promise.all([a.start(), b.start()]);
  try {
    for (let n = 0; n < 30; n += 1) await (n % 2 ? a : b).enqueue("test.record", { n });
    await until(() => ran.length >= 30, "the 30 jobs did not all run in time");
    // One more look by both, so a second run of any job would have had its chance.
    await anotherLookBy(a, b);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  expect(ran.map((run) => run.n).sort((x, y) => x - y)).toEqual([...Array(30).keys()]);
});

it("a job due while no replica ran is done once at the first look after", async () => {
  const ran: Array<{ by: string; n: number }> = [];
  const writer = await replica("writer", ran);
  // Stored without starting: nothing looks for it yet, also once it is due.
  const due = new Date(Date.now() + 300);
  await writer.enqueue("test.record", { n: 7 }, due);
  await until(() => Date.now() > due.getTime(), "the clock did not pass the job's time");
  expect(ran).toEqual([]);
  const late = await replica("late", ran);
  const later = await replica("later", ran);
  await Promise.all([late.start(), later.start()]);
  try {
    await until(() => ran.length >= 1, "the job due before the start did not run");
    await anotherLookBy(late, later);
  } finally {
    await Promise.all([late.stop(), later.stop()]);
  }
  expect(ran.map((run) => run.n)).toEqual([7]);
});

it("a recurring job runs at every look, never twice at once, and is declared before start", async () => {
  const connection = await connect();
  const scheduler = new JobScheduler(connection, { pollSeconds: 1, log });
  let running = 0;
  let overlapped = false;
  let runs = 0;
  scheduler.every({
    name: "test.tick",
    run: async () => {
      running += 1;
      if (running > 1) overlapped = true;
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      running -= 1;
    },
  });
  await scheduler.start();
  try {
    expect(() => scheduler.every({ name: "test.late", run: async () => {} })).toThrow(
      /after the scheduler started/,
    );
    await until(() => runs >= 3, "the recurring job did not run three times");
  } finally {
    await scheduler.stop();
  }
  expect(overlapped).toBe(false);
});

it("every query the scheduler made is served by the declared index", () => {
  const commands = recorders.flatMap((recorder) => recorder.commands());
  const unserved = unservedQueries(commands, declaredIndexes(connections[0]));
  if (unserved.length > 0) throw new Error(describeUnserved(unserved));
  expect(commands.some((c) => c.commandName === "findAndModify")).toBe(true);
});
