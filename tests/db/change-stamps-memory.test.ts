/**
 * A replica remembers a version it read for VERSION_MAX_AGE_MS (src/db/change-stamps.ts), so
 * revalidations do not each read the stamps: another replica's write shows once that bound has
 * passed, this replica's own write at once. The time is the `now` each read is asked for.
 */
import type { Connection } from "mongoose";
import { bumpStamp, ChangeStamps, VERSION_MAX_AGE_MS } from "../../src/db/change-stamps";
import { connectDatabase } from "../../src/db/connection";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario();

describe("ChangeStamps.version", () => {
  let other: Connection;

  beforeAll(async () => {
    // Another replica: a connection of its own to the same database.
    const { app } = scenario();
    other = await connectDatabase({ uri: app.config.mongodbUri!, dbName: app.config.dbName });
  });
  afterAll(() => other?.close());

  it("answers from the version it read until the bound has passed, then reads again", async () => {
    const { app } = scenario();
    const stamps = new ChangeStamps(rawDb(app).connection);
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    const before = await stamps.version(["branch_services"], at(0));
    await bumpStamp(other, "branch_services");
    expect(await stamps.version(["branch_services"], at(VERSION_MAX_AGE_MS - 1))).toBe(before);
    const after = await stamps.version(["branch_services"], at(VERSION_MAX_AGE_MS));
    expect(after).not.toBe(before);
    // Read again for the new bound, and never for a moment before the read.
    await bumpStamp(other, "branch_services");
    expect(await stamps.version(["branch_services"], at(VERSION_MAX_AGE_MS + 1))).toBe(after);
    expect(await stamps.version(["branch_services"], at(VERSION_MAX_AGE_MS - 1))).not.toBe(after);
  });

  it("reads again at once after a write through its own connection", async () => {
    const { app } = scenario();
    const { connection } = rawDb(app);
    const stamps = new ChangeStamps(connection);
    const now = new Date();
    const before = await stamps.version(["offices", "office_holders"], now);
    await bumpStamp(connection, "offices");
    expect(await stamps.version(["offices", "office_holders"], now)).not.toBe(before);
  });

  it("keeps each set of sources apart, and shares one read among concurrent callers", async () => {
    const { app } = scenario();
    const { connection } = rawDb(app);
    const stamps = new ChangeStamps(connection);
    const now = new Date();
    const reads: string[] = [];
    const client = connection.getClient();
    const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (event.commandName === "find" && event.command.find === "change_stamps")
        reads.push("find");
    };
    client.on("commandStarted", listener);
    try {
      const together = await Promise.all(
        Array.from({ length: 10 }, () => stamps.version(["members"], now)),
      );
      expect(new Set(together).size).toBe(1);
      expect(reads).toHaveLength(1);
      expect(await stamps.version(["members", "files"], now)).not.toBe(together[0]);
      expect(reads).toHaveLength(2);
    } finally {
      client.off("commandStarted", listener);
    }
  });
});
