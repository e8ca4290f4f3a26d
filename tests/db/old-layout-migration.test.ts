import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, type Db } from "mongodb";
import { startEngine, type DevEngine as Engine } from "../../tools/dev-db/engine";
import { findExecutable } from "../../tools/dev-db/executables";
import {
  OLD_ADMIN,
  OLD_COUNTS,
  OLD_DATA_KEY,
  OLD_DB_NAME,
  OLD_IDS,
  OLD_PASSWORD,
  RETIRED_COUNTS,
} from "../fixtures/old-layout/old-layout";
import { bearer, login } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/*
 * A data folder written by the layout before issue 31 (commit fbc715f; see
 * tests/fixtures/old-layout/README.md) is brought up to date when the current service starts
 * on it: the retired collections go, every record stays, the declared indexes are built, and
 * the counters the invariants now rest on are recounted from the old appointments. The
 * fixture is FerretDB's own SQLite file, so this runs on a copy of it in an engine of its own.
 */

const FIXTURE = path.join(__dirname, "..", "fixtures", "old-layout", `${OLD_DB_NAME}.sqlite`);
// With a mongod on PATH startEngine would serve an empty mongod folder instead of the file.
const describeOnFerretdb = findExecutable("mongod") ? describe.skip : describe;

describeOnFerretdb("a data folder of the old layout, migrated at start", () => {
  let dataDir: string;
  let engine: Engine;
  let app: TestApp;
  let client: MongoClient;
  let db: Db;
  let counts: Record<string, number>;
  let admin: { token: string };
  let closeSecond = () => Promise.resolve();
  // The fixture's admin is the bootstrap admin, so starting creates no account of its own.
  const appEnv = {
    DB_NAME: OLD_DB_NAME,
    ADMIN_EMAIL: OLD_ADMIN.email,
    ADMIN_PASSWORD: OLD_ADMIN.password,
    DATA_KEY: OLD_DATA_KEY,
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "old-layout-copy-"));
    const sqliteDir = path.join(dataDir, "ferretdb", "sqlite");
    fs.mkdirSync(sqliteDir, { recursive: true });
    fs.copyFileSync(FIXTURE, path.join(sqliteDir, `${OLD_DB_NAME}.sqlite`));
    engine = await startEngine({ dataDir, log: () => undefined });
    expect(engine.kind).toBe("ferretdb");
    client = await MongoClient.connect(engine.uri, { directConnection: true });
    db = client.db(OLD_DB_NAME);
    app = await startTestApp(appEnv, engine.uri);
    // Taken before any request below signs in (a sign-in adds a session).
    counts = await countsOf(db);
    admin = await login(app, OLD_ADMIN.email, OLD_ADMIN.password);
  }, 120_000);

  afterAll(async () => {
    // Both apps close even when one fails the index-coverage guard; the second goes first.
    const failures: unknown[] = [];
    for (const close of [closeSecond, () => (app ? app.close() : Promise.resolve())]) {
      await close().catch((error: unknown) => failures.push(error));
    }
    await client?.close();
    await engine?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (failures.length > 0) throw new Error(failures.map(String).join("\n"));
  });

  it("drops the collections only the old layout had", async () => {
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    for (const retired of Object.keys(RETIRED_COUNTS)) expect(names).not.toContain(retired);
    // Every old collection stays; the ones beside them belong to modules the old layout lacked.
    expect(names).toEqual(expect.arrayContaining(Object.keys(OLD_COUNTS)));
  });

  it("keeps every record of every collection", () => {
    const old = Object.fromEntries(Object.keys(OLD_COUNTS).map((name) => [name, counts[name]]));
    expect(old).toEqual(OLD_COUNTS);
  });

  it("gives the old database the organisation's default lessons and essay questions", () => {
    expect(counts.lessons).toBe(13);
    expect(counts.essay_questions).toBe(10);
  });

  it("fills in the fields the old records lacked and drops the one they no longer need", async () => {
    const lacking = async (collection: string, field: string) =>
      db.collection(collection).countDocuments({ [field]: { $exists: false } });
    expect(await lacking("members", "searchText")).toBe(0);
    expect(await lacking("members", "activeOffices")).toBe(0);
    expect(await db.collection("members").countDocuments({ revision: { $exists: true } })).toBe(0);
    expect(await lacking("offices", "searchText")).toBe(0);
    expect(await lacking("branch_services", "searchText")).toBe(0);
    expect(await lacking("office_holders", "slotKey")).toBe(0);
    const held = await db
      .collection<{ _id: string; activeOffices: number }>("members")
      .find({}, { projection: { activeOffices: 1 } })
      .toArray();
    expect(Object.fromEntries(held.map((m) => [m._id, m.activeOffices]))).toEqual({
      [OLD_IDS.members.pending]: 0,
      [OLD_IDS.members.appointed]: 1,
      [OLD_IDS.members.rejected]: 0,
      [OLD_IDS.members.reapplied]: 0,
      [OLD_IDS.members.archived]: 0,
      [OLD_IDS.members.ended]: 1,
    });
  });

  it("finds nothing left to migrate when another instance starts on it", async () => {
    const before = await countersOf(db);
    const second = await startTestApp(appEnv, engine.uri);
    // Its close would drop the database the other tests still read.
    closeSecond = () => second.close();
    expect(await countersOf(db)).toEqual(before);
    expect(before.offices).toEqual({
      [OLD_IDS.offices.chief]: 1,
      [OLD_IDS.offices.regional]: 0,
      [OLD_IDS.offices.city]: 1,
    });
  });

  it("builds every index each model declares and keeps no other", async () => {
    for (const model of Object.values(app.connection.models)) {
      const existing = await db.collection(model.collection.collectionName).indexes();
      const keys = existing.map((index) => keyOf(index.key));
      const declared = model.schema.indexes();
      expect(keys.sort()).toEqual([keyOf({ _id: 1 }), ...declared.map(([k]) => keyOf(k))].sort());
      for (const [fields, options] of declared) {
        const index = existing.find((found) => keyOf(found.key) === keyOf(fields));
        expect({
          collection: model.collection.collectionName,
          fields,
          unique: index?.unique,
        }).toEqual({
          collection: model.collection.collectionName,
          fields,
          unique: options?.unique ? true : undefined,
        });
      }
    }
  });

  it("lists, searches and opens the old member records", async () => {
    const all = await members({ includeArchived: "true", limit: "100" });
    expect(all.pagination.totalCount).toBe(OLD_COUNTS.members);
    expect(all.data.map((m: { id: string }) => m.id).sort()).toEqual(
      Object.values(OLD_IDS.members).sort(),
    );
    const byStatus = Object.fromEntries(
      all.data.map((m: { id: string; status: string; archivedAt: string | null }) => [
        m.id,
        `${m.status}${m.archivedAt ? " archived" : ""}`,
      ]),
    );
    expect(byStatus).toEqual({
      [OLD_IDS.members.pending]: "PENDING",
      [OLD_IDS.members.appointed]: "APPROVED",
      [OLD_IDS.members.rejected]: "REJECTED",
      [OLD_IDS.members.reapplied]: "PENDING",
      [OLD_IDS.members.archived]: "APPROVED archived",
      [OLD_IDS.members.ended]: "APPROVED",
    });
    expect((await members()).pagination.totalCount).toBe(OLD_COUNTS.members - 1);

    const byName = await members({ search: "benedicto CRUZ" });
    expect(byName.data.map((m: { id: string }) => m.id)).toEqual([OLD_IDS.members.appointed]);
    // Sealed by the old service under the same key.
    expect(byName.data[0].sssNumber).toBe("34-1234567-8");
    const byEmail = await members({ search: "Ana.Reyes@example" });
    expect(byEmail.data.map((m: { id: string }) => m.id)).toEqual([OLD_IDS.members.pending]);
    const byMobile = await members({ search: "09170000003" });
    expect(byMobile.data.map((m: { id: string }) => m.id).sort()).toEqual(
      [OLD_IDS.members.rejected, OLD_IDS.members.reapplied].sort(),
    );
    const archived = await members({ search: "villanueva", includeArchived: "true" });
    expect(archived.data.map((m: { id: string }) => m.id)).toEqual([OLD_IDS.members.archived]);
  });

  it("lists the office titles with the holders the old appointments count", async () => {
    const response = await app
      .http()
      .get("/api/v1/offices")
      .query({ limit: "100" })
      .set(bearer(admin));
    expect(response.status).toBe(200);
    const holders = Object.fromEntries(
      response.body.data.map((o: { id: string; activeHolders: number }) => [o.id, o.activeHolders]),
    );
    expect(holders).toEqual({
      [OLD_IDS.offices.chief]: 1,
      [OLD_IDS.offices.regional]: 0,
      [OLD_IDS.offices.city]: 1,
    });
    const search = await app
      .http()
      .get("/api/v1/offices")
      .query({ search: "chief" })
      .set(bearer(admin));
    expect(search.body.data.map((o: { id: string }) => o.id)).toEqual([OLD_IDS.offices.chief]);
  });

  it("lists and searches the branches of service", async () => {
    const response = await app.http().get("/api/v1/branch-service").query({ search: "navy" });
    expect(response.status).toBe(200);
    expect(response.body.data.map((b: { id: string }) => b.id)).toEqual([OLD_IDS.branches.navy]);
  });

  it("lists every old account", async () => {
    const response = await app
      .http()
      .get("/api/v1/users")
      .query({ limit: "100" })
      .set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(OLD_COUNTS.users);
    expect(response.body.users.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining([
        OLD_ADMIN.email,
        "ana.reyes@example.org",
        "olive.officer@example.org",
        "uma.unverified@example.org",
      ]),
    );
  });

  it("refuses to archive a member an old appointment holds, and a second holder of a full office", async () => {
    const archive = await app
      .http()
      .patch(`/api/v1/members/${OLD_IDS.members.appointed}/archive`)
      .set(bearer(admin));
    expect(archive.status).toBe(409);
    const appoint = await app
      .http()
      .post(`/api/v1/offices/${OLD_IDS.offices.chief}/holders`)
      .set(bearer(admin))
      .send({ memberId: OLD_IDS.members.ended, startDate: "2026-01-05T00:00:00.000Z" });
    expect(appoint.status).toBe(409);
    // The ended appointment left its office free.
    const regional = await app
      .http()
      .post(`/api/v1/offices/${OLD_IDS.offices.regional}/holders`)
      .set(bearer(admin))
      .send({ memberId: OLD_IDS.members.appointed, startDate: "2026-01-05T00:00:00.000Z" });
    expect(regional.status).toBe(201);
  });

  it("signs old accounts in with their passwords", async () => {
    const signedIn = await login(app, "ana.reyes@example.org", OLD_PASSWORD);
    const me = await app.http().get("/api/v1/members/me").set(bearer(signedIn));
    expect(me.status).toBe(200);
    expect(me.body.data.map((m: { id: string }) => m.id)).toEqual([OLD_IDS.members.pending]);
  });

  async function members(query: Record<string, string> = {}) {
    const response = await app.http().get("/api/v1/members").query(query).set(bearer(admin));
    expect(response.status).toBe(200);
    return response.body;
  }
});

async function countsOf(db: Db): Promise<Record<string, number>> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const entries = await Promise.all(
    names.map(async (name) => [name, await db.collection(name).countDocuments()] as const),
  );
  return Object.fromEntries(entries);
}

/** Offices held per member record and running holders per office title, as stored. */
async function countersOf(db: Db) {
  const members = await db
    .collection<{ _id: string; activeOffices?: number }>("members")
    .find({}, { projection: { activeOffices: 1 } })
    .toArray();
  const offices = await db
    .collection<{ _id: string; activeHolders?: number }>("offices")
    .find({}, { projection: { activeHolders: 1 } })
    .toArray();
  return {
    members: Object.fromEntries(members.map((m) => [m._id, m.activeOffices])),
    offices: Object.fromEntries(offices.map((o) => [o._id, o.activeHolders ?? 0])),
  };
}

function keyOf(fields: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(fields));
}
