/**
 * Public reads answer If-None-Match from change stamps (src/db/change-stamps.ts), without
 * running the read: a 304 while nothing the answer is made of changed, and for every write
 * that changes a public answer the old ETag gets a 200 with the new content.
 */
import http from "node:http";
import type { CommandStartedEvent } from "mongodb";
import { migrateDatabase } from "../../src/db/migrations";
import { createLogger } from "../../src/logger";
import { approvedMemberOf, bearer, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

// The scheduler looks once an hour here: its own reads must not mix with a request's.
const scenario = useScenario({ env: { JOBS_POLL_SECONDS: "3600" } });
const DIRECTORY = "/api/v1/members/public/directory-locations";
const CHAPLAINS = "/api/v1/members/public/service-chaplains";
const EVENTS = "/api/v1/events/public";
const NEWS = "/api/v1/news-blogs/public";

/** GET with the given If-None-Match (none when absent). */
const get = (app: TestApp, path: string, etag?: string) => {
  const request = app.http().get(path);
  return etag ? request.set("if-none-match", etag) : request;
};

/** The current ETag of a path, after checking that it still answers 304 to itself. */
async function etagOf(app: TestApp, path: string): Promise<string> {
  const first = await get(app, path);
  expect(first.status).toBe(200);
  expect(first.headers.etag).toMatch(/^W\/"[\w-]{32}"$/);
  expect((await get(app, path, first.headers.etag)).status).toBe(304);
  return first.headers.etag;
}

const totalOf = async (app: TestApp, etag: string) => {
  const response = await get(app, DIRECTORY, etag);
  expect(response.status).toBe(200);
  expect(response.headers.etag).not.toBe(etag);
  return response.body.data.summary.totalMembers as number;
};

describe("the directory", () => {
  it("answers 304 from the stamps alone: the members collection is not read", async () => {
    const { app, admin } = scenario();
    await approvedMemberOf(app, admin, { region: "NCR" });
    const etag = await etagOf(app, DIRECTORY);
    const seen: CommandStartedEvent[] = [];
    const client = rawDb(app).connection.getClient();
    const listener = (event: CommandStartedEvent) => seen.push(event);
    client.on("commandStarted", listener);
    try {
      const again = await get(app, DIRECTORY, etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["cache-control"]).toBe("public, max-age=60");
    } finally {
      client.off("commandStarted", listener);
    }
    // At most the stamps, when the version read a moment ago (etagOf) is already too old.
    const touched = seen.map((e) => `${e.commandName} ${String(e.command[e.commandName])}`);
    expect(touched.filter((command) => command !== "find change_stamps")).toEqual([]);
  });

  it("runs one aggregation for readers who ask for the same version at once", async () => {
    const { app, admin } = scenario();
    await approvedMemberOf(app, admin, { region: "Caraga" });
    await etagOf(app, DIRECTORY);
    const client = rawDb(app).connection.getClient();
    const readers = 20;
    // One connection per reader, opened first: their requests then leave in one turn of the
    // event loop and all arrive before the database can answer the first reader's aggregation.
    const agent = new http.Agent({ keepAlive: true, maxSockets: readers });
    const read = (path: string) =>
      new Promise<{ status: number; etag: string | undefined; body: string }>((resolve, reject) => {
        http
          .get(`${app.url}${path}`, { agent }, (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => (body += chunk));
            response.on("end", () =>
              resolve({ status: response.statusCode!, etag: response.headers.etag, body }),
            );
          })
          .on("error", reject);
      });
    let aggregates = 0;
    const listener = (event: CommandStartedEvent) => {
      if (event.commandName === "aggregate" && event.command.aggregate === "members")
        aggregates += 1;
    };
    try {
      await Promise.all(Array.from({ length: readers }, () => read("/api/v1/health")));
      client.on("commandStarted", listener);
      const answers = await Promise.all(Array.from({ length: readers }, () => read(DIRECTORY)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(readers).fill(200));
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
      // Each reader alone would run its own.
      expect(aggregates).toBe(1);
    } finally {
      client.off("commandStarted", listener);
      agent.destroy();
    }
  });

  it("answers 200 with the new counts after an approval, an archive and an erasure", async () => {
    const { app, admin } = scenario();
    let etag = await etagOf(app, DIRECTORY);
    const before = (await get(app, DIRECTORY)).body.data.summary.totalMembers as number;

    const approved = await approvedMemberOf(app, admin, { region: "Central Visayas" });
    expect(await totalOf(app, etag)).toBe(before + 1);

    etag = await etagOf(app, DIRECTORY);
    const archived = await app
      .http()
      .patch(`/api/v1/members/${approved.id}/archive`)
      .set(bearer(admin));
    expect(archived.status).toBe(200);
    expect(await totalOf(app, etag)).toBe(before);

    const erased = await approvedMemberOf(app, admin, { region: "Bicol Region" });
    etag = await etagOf(app, DIRECTORY);
    const page = `/api/v1/members/public/${erased.id}`;
    const pageTag = await etagOf(app, page);
    const deleted = await app.http().delete(`/api/v1/users/${erased.user.id}`).set(bearer(admin));
    expect(deleted.status).toBe(204);
    expect(await totalOf(app, etag)).toBe(before);
    expect((await get(app, page, pageTag)).status).toBe(404);
  });
});

describe("a member's public page and the service chaplains", () => {
  let member: { user: TestUser; id: string };

  beforeAll(async () => {
    const { app, admin } = scenario();
    member = await approvedMemberOf(app, admin, { region: "NCR", province: "Metro Manila" });
  });

  it("shows a public-profile change to the holder of the old ETag", async () => {
    const { app } = scenario();
    const page = `/api/v1/members/public/${member.id}`;
    const etag = await etagOf(app, page);
    expect((await get(app, page)).body.data.region).toBeNull();
    const chosen = await app
      .http()
      .put("/api/v1/members/current/public-profile")
      .set(bearer(member.user))
      .send({ listed: true, showLocation: true });
    expect(chosen.status).toBe(200);
    const after = await get(app, page, etag);
    expect(after.status).toBe(200);
    expect(after.body.data.region).toBe("National Capital Region");
  });

  it("lists a listed member once an administrator makes them a certified specialist", async () => {
    const { app, admin } = scenario();
    const etag = await etagOf(app, CHAPLAINS);
    const ids = (body: { data: { id: string }[] }) => body.data.map((m) => m.id);
    expect(ids((await get(app, CHAPLAINS)).body)).not.toContain(member.id);
    const typed = await app
      .http()
      .patch(`/api/v1/members/${member.id}/member-type`)
      .set(bearer(admin))
      .send({ memberType: "CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR", badgeNumber: "B-7" });
    expect(typed.status).toBe(200);
    const after = await get(app, CHAPLAINS, etag);
    expect(after.status).toBe(200);
    expect(ids(after.body)).toContain(member.id);
  });
});

describe("events", () => {
  it("shows a created, an edited and a deleted event to the holder of the old ETag", async () => {
    const { app, admin } = scenario();
    let list = await etagOf(app, EVENTS);
    const created = await app.http().post("/api/v1/events/create").set(bearer(admin)).send({
      name: "Vigil",
      category: "PRAYER",
      type: "ONSITE",
      startsAt: "2027-05-01T10:00:00Z",
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const afterCreate = await get(app, EVENTS, list);
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.body.data.map((e: { id: string }) => e.id)).toContain(id);

    const detail = await etagOf(app, `${EVENTS}/${id}`);
    list = await etagOf(app, EVENTS);
    const edited = await app
      .http()
      .put(`/api/v1/events/${id}`)
      .set(bearer(admin))
      .send({ name: "Night vigil" });
    expect(edited.status).toBe(200);
    const afterEdit = await get(app, `${EVENTS}/${id}`, detail);
    expect(afterEdit.status).toBe(200);
    expect(afterEdit.body.data.name).toBe("Night vigil");

    list = await etagOf(app, EVENTS);
    expect((await app.http().delete(`/api/v1/events/${id}`).set(bearer(admin))).status).toBe(204);
    const afterDelete = await get(app, EVENTS, list);
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it("names the answer by its arguments in any order, and apart from other arguments", async () => {
    const { app } = scenario();
    const one = await etagOf(app, `${EVENTS}?page=1&limit=5`);
    expect((await get(app, `${EVENTS}?limit=5&page=1`, one)).status).toBe(304);
    expect((await get(app, `${EVENTS}?limit=6&page=1`, one)).status).toBe(200);
  });
});

describe("news", () => {
  const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id);

  it("shows a draft once published", async () => {
    const { app, admin } = scenario();
    const draft = await app
      .http()
      .post("/api/v1/news-blogs/create")
      .set(bearer(admin))
      .send({ title: "Relief", caption: "<p>Served</p>" });
    expect(draft.status).toBe(201);
    const etag = await etagOf(app, NEWS);
    const published = await app
      .http()
      .put(`/api/v1/news-blogs/${draft.body.data.id}`)
      .set(bearer(admin))
      .send({ status: "PUBLISHED" });
    expect(published.status).toBe(200);
    const after = await get(app, NEWS, etag);
    expect(after.status).toBe(200);
    expect(ids(after.body)).toContain(draft.body.data.id);
  });

  it("shows a scheduled post once its time has come, with no write in between", async () => {
    const { app, admin } = scenario();
    const soon = new Date(Date.now() + 1500).toISOString();
    const post = await app
      .http()
      .post("/api/v1/news-blogs/create")
      .set(bearer(admin))
      .send({ title: "Ordination", status: "PUBLISHED", scheduledAt: soon });
    expect(post.status).toBe(201);
    const etag = await etagOf(app, NEWS);
    expect(ids((await get(app, NEWS)).body)).not.toContain(post.body.data.id);
    // The service's clock, not a sleep: the post and its version both follow it.
    app.internals.clock.advance(2);
    const after = await get(app, NEWS, etag);
    expect(after.status).toBe(200);
    expect(ids(after.body)).toContain(post.body.data.id);
  });
});

describe("the change-stamp plugin", () => {
  it("bumps the stamp on every mongoose write path that changes something, and on migrations at start", async () => {
    const { app } = scenario();
    const { connection, branchServices } = rawDb(app);
    const stamp = async () =>
      ((
        await connection
          .db!.collection("change_stamps")
          .findOne({ _id: "branch_services" as never })
      )?.n as number | undefined) ?? 0;
    const id = () =>
      `0190a2b4-0000-7000-8000-${String(Math.random()).slice(2, 14).padEnd(12, "0")}`;
    let n = 0;
    const base = () => {
      n += 1;
      return { title: `T${n}`, titleKey: `t${n}`, description: "d", searchText: "t", sections: [] };
    };
    const writes: [string, () => Promise<unknown>][] = [
      ["create (save)", () => branchServices.create({ _id: id(), ...base() })],
      ["insertMany", () => branchServices.insertMany([{ _id: id(), ...base() }])],
      ["updateOne", () => branchServices.updateOne({ titleKey: "t1" }, { $set: { title: "U" } })],
      ["updateMany", () => branchServices.updateMany({ titleKey: "t1" }, { $set: { title: "V" } })],
      [
        "findOneAndUpdate",
        () => branchServices.findOneAndUpdate({ titleKey: "t1" }, { $set: { title: "W" } }),
      ],
      ["replaceOne", () => branchServices.replaceOne({ titleKey: "t1" }, base())],
      ["findOneAndReplace", () => branchServices.findOneAndReplace({ titleKey: "t3" }, base())],
      [
        "bulkWrite",
        () => branchServices.bulkWrite([{ deleteOne: { filter: { titleKey: "none" } } }]),
      ],
      [
        "document deleteOne",
        async () => (await branchServices.create({ _id: id(), ...base() })).deleteOne(),
      ],
      ["findOneAndDelete", () => branchServices.findOneAndDelete({ titleKey: "t4" })],
      ["deleteOne", () => branchServices.deleteOne({ titleKey: "t2" })],
      [
        "deleteMany",
        async () => {
          // Planted through the driver, so that only the deleteMany can bump.
          await branchServices.collection.insertOne({ _id: id(), ...base() } as never);
          return branchServices.deleteMany({ titleKey: `t${n}` });
        },
      ],
    ];
    for (const [name, write] of writes) {
      const before = await stamp();
      await write();
      expect({ name, bumped: (await stamp()) > before }).toEqual({ name, bumped: true });
    }
    // A write that matched nothing changed no answer: no bump.
    const unchanged = await stamp();
    await branchServices.updateOne({ titleKey: "none" }, { $set: { title: "X" } });
    await branchServices.deleteMany({ titleKey: "none" });
    expect(await stamp()).toBe(unchanged);

    const before = await stamp();
    await migrateDatabase(
      connection,
      app.internals.migrations,
      createLogger({ ...app.config, logLevel: "silent" }),
    );
    expect(await stamp()).toBeGreaterThan(before);
  });
});
