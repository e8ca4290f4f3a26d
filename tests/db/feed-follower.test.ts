/**
 * Following several change feeds on one connection, on the real engine: one query reads the
 * next change of all of them, each follower applies its own changes in order, a follower
 * takes part only once it has been asked to catch up, and a failed apply is read again.
 */
import { randomBytes } from "node:crypto";
import type { Connection, Model } from "mongoose";
import { ChangeFeed, type Change } from "../../src/db/change-feed";
import { connectDatabase } from "../../src/db/connection";
import { FeedFollower } from "../../src/db/feed-follower";

const dbName = `t_feeds_${randomBytes(3).toString("hex")}`;
const connections: Connection[] = [];

/** A connection of its own per test: followers stay with their connection. */
async function connect(): Promise<Connection> {
  const connection = await connectDatabase({ uri: process.env.TEST_MONGODB_URI!, dbName });
  connections.push(connection);
  return connection;
}

afterAll(async () => {
  await connections[0]?.dropDatabase();
  for (const connection of connections) await connection.close();
});

/** A follower of a fresh feed that records what it applied and how often it was read. */
function follow(connection: Connection, name: string) {
  const feed = new ChangeFeed(connection, `${name}-${randomBytes(3).toString("hex")}`);
  const applied: string[] = [];
  let reads = 0;
  const follower = new FeedFollower(
    feed,
    (change: Change) => {
      applied.push(`${change.seq}:${change.recordId}`);
      return Promise.resolve();
    },
    () => {
      reads += 1;
      return Promise.resolve();
    },
  );
  return { feed, follower, applied, reads: () => reads };
}

/** Counts the queries on the changes collection; they still run against the engine. */
const countQueries = (connection: Connection) =>
  jest.spyOn((connection.models.Change as Model<unknown>).collection, "find");

test("one query reads the next change of every feed followed, until none has more", async () => {
  const connection = await connect();
  const offices = follow(connection, "offices");
  const accounts = follow(connection, "accounts");
  const members = follow(connection, "members");
  for (const one of [offices, accounts, members]) await one.follower.catchUp();

  await offices.feed.append("done", "o1");
  await offices.feed.append("done", "o2");
  await accounts.feed.append("done", "a1");
  const readsBefore = [offices.reads(), accounts.reads(), members.reads()];
  const queries = countQueries(connection);
  await members.follower.catchUp();

  expect(offices.applied).toEqual(["1:o1", "2:o2"]);
  expect(accounts.applied).toEqual(["1:a1"]);
  expect(members.applied).toEqual([]);
  // All three; then offices and accounts, which had a change; then offices alone. Read one
  // feed at a time, it would have taken six.
  expect(queries).toHaveBeenCalledTimes(3);
  // Each follower hears once that a read is over, whether or not it found changes.
  expect([offices.reads(), accounts.reads(), members.reads()]).toEqual(
    readsBefore.map((reads) => reads + 1),
  );
  queries.mockRestore();
});

test("callers arriving together share one read of every feed", async () => {
  const connection = await connect();
  const feeds = [follow(connection, "a"), follow(connection, "b"), follow(connection, "c")];
  for (const one of feeds) await one.follower.catchUp();
  await feeds[1].feed.append("done", "b1");

  const queries = countQueries(connection);
  await Promise.all(feeds.flatMap((one) => [one.follower.catchUp(), one.follower.catchUp()]));

  expect(feeds[1].applied).toEqual(["1:b1"]);
  // b had a change, so its feed is read once more; nothing is read once per caller.
  expect(queries).toHaveBeenCalledTimes(2);
  queries.mockRestore();
});

test("a follower is read only once it has caught up for the first time", async () => {
  const connection = await connect();
  const started = follow(connection, "started");
  const waiting = follow(connection, "waiting");
  await waiting.feed.append("done", "before-load");

  await started.follower.catchUp();
  expect(waiting.applied).toEqual([]);
  expect(waiting.reads()).toBe(0);

  // Its owner has loaded everything up to the feed's head: reading starts after it.
  waiting.follower.skipTo(await waiting.feed.head());
  await waiting.feed.append("done", "after-load");
  await started.follower.catchUp();
  expect(waiting.applied).toEqual([]);
  await waiting.follower.catchUp();
  expect(waiting.applied).toEqual(["2:after-load"]);
});

test("a change whose apply failed fails that catch-up and is applied by the next", async () => {
  const connection = await connect();
  const feed = new ChangeFeed(connection, `flaky-${randomBytes(3).toString("hex")}`);
  const other = follow(connection, "other");
  const applied: string[] = [];
  let failNext = true;
  const follower = new FeedFollower(feed, (change) => {
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error("engine went away"));
    }
    applied.push(`${change.seq}:${change.recordId}`);
    return Promise.resolve();
  });
  await follower.catchUp();
  await other.follower.catchUp();
  await feed.append("done", "r1");
  await other.feed.append("done", "x1");

  await expect(other.follower.catchUp()).rejects.toThrow("engine went away");
  expect(follower.position).toBe(0);

  await other.follower.catchUp();
  expect(applied).toEqual(["1:r1"]);
  expect(other.applied).toEqual(["1:x1"]);
  expect(follower.position).toBe(1);
});
