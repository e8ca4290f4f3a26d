/**
 * Issue 33, point 7: each application an administrator reads carries `possibleDuplicates`:
 * other accounts' records with the same normalised full name and date of birth, mobile number,
 * SSS or TIN number. SSS and TIN are compared through a keyed hash, never in clear; the lookups
 * are index-served, one per page; applicants never see the field; records of earlier versions
 * get their keys on start, and `data-key:rotate` re-keys the hashes.
 */
import { randomBytes } from "node:crypto";
import type { CommandStartedEvent } from "mongodb";
import { rotateDataKey } from "../../scripts/rotate-data-key";
import { FieldCipher } from "../../src/db/field-cipher";
import { migrateDatabase } from "../../src/db/migrations";
import { createLogger } from "../../src/logger";
import {
  ApplyAsWebClientDocument,
  MembersWithDuplicatesDocument,
  MyMembershipsWithDuplicatesDocument,
  PendingWithDuplicatesDocument,
} from "../graphql/generated";
import {
  applyAs,
  bearer,
  buildUser,
  minimalApplication,
  type TestUser,
} from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const KEY_1 = Buffer.alloc(32, 11);
const KEY_2 = Buffer.alloc(32, 22);

let app: TestApp;
const others: TestApp[] = [];
let admin: TestUser;
const tag = `Dup${randomBytes(3).toString("hex")}`;
const digits = (count: number) =>
  Array.from(randomBytes(count), (byte) => String(byte % 10)).join("");
const mobile = `0917${digits(7)}`;
const sss = `${digits(2)}-${digits(7)}-${digits(1)}`;
const tin = `${digits(3)}-${digits(3)}-${digits(3)}-000`;

type Duplicate = { id: string; status: string; reason: string };
type Listed = { id: string; possibleDuplicates: Duplicate[] | null };
const records: Record<string, { id: string; user: TestUser }> = {};

/** One application per account; `key` names it in the test. */
async function filed(key: string, fields: Record<string, unknown>) {
  const user = await buildUser(app);
  const record = await applyAs(app, user, { lastName: tag, ...fields });
  records[key] = { id: record.id, user };
  return record;
}

beforeAll(async () => {
  ({ app, admin } = await startScenario({ env: { DATA_KEY: KEY_1.toString("base64") } }));
  const original = await filed("original", {
    firstName: "José",
    dateOfBirth: "1985-01-02T00:00:00.000Z",
    mobilePhoneNumber: mobile,
    sssNumber: sss,
    tinNumber: tin,
  });
  // The same person, written differently: case, accent, spacing.
  await filed("sameName", {
    firstName: "  JOSE ",
    lastName: tag.toUpperCase(),
    dateOfBirth: "1985-01-02T00:00:00.000Z",
    mobilePhoneNumber: `0918${digits(7)}`,
  });
  await filed("sameMobile", {
    firstName: "Carla",
    mobilePhoneNumber: `+63 ${mobile.slice(1, 4)} ${mobile.slice(4)}`,
  });
  await filed("sameSss", {
    firstName: "Dario",
    mobilePhoneNumber: `0919${digits(7)}`,
    sssNumber: sss.replace(/-/g, ""),
  });
  await filed("sameTin", {
    firstName: "Elena",
    mobilePhoneNumber: `0920${digits(7)}`,
    tinNumber: tin.replace(/-/g, " "),
  });
  await filed("unrelated", { firstName: "Fe", mobilePhoneNumber: `0921${digits(7)}` });
  expect(original.possibleDuplicates).toBeNull();
});
afterAll(async () => {
  for (const other of others) await other.close();
  await app?.close();
});

const listed = async (path: string, on: TestApp = app): Promise<Map<string, Listed>> => {
  const response = await on
    .http()
    .get(`/api/v1${path}`)
    .query({ search: tag, limit: 100 })
    .set(bearer(admin));
  expect(response.status).toBe(200);
  return new Map((response.body.data as Listed[]).map((member) => [member.id, member]));
};

const sorted = (duplicates: Duplicate[] | null | undefined) =>
  [...(duplicates ?? [])].sort((a, b) => a.id.localeCompare(b.id));

const expectedOfOriginal = () =>
  sorted([
    { id: records.sameName.id, status: "PENDING", reason: "same full name and date of birth" },
    { id: records.sameMobile.id, status: "PENDING", reason: "same mobile number" },
    { id: records.sameSss.id, status: "PENDING", reason: "same SSS number" },
    { id: records.sameTin.id, status: "PENDING", reason: "same TIN number" },
  ]);

describe("administrators' reads", () => {
  it("GET /members and /members/pending flag each match with its reason", async () => {
    for (const path of ["/members", "/members/pending"]) {
      const page = await listed(path);
      expect(sorted(page.get(records.original.id)?.possibleDuplicates)).toEqual(
        expectedOfOriginal(),
      );
      expect(page.get(records.sameName.id)?.possibleDuplicates).toEqual([
        {
          id: records.original.id,
          status: "PENDING",
          reason: "same full name and date of birth",
        },
      ]);
      expect(page.get(records.sameSss.id)?.possibleDuplicates).toEqual([
        { id: records.original.id, status: "PENDING", reason: "same SSS number" },
      ]);
      expect(page.get(records.unrelated.id)?.possibleDuplicates).toEqual([]);
    }
  });

  it("a review answer carries them too, with the other record's current status", async () => {
    const response = await app
      .http()
      .patch(`/api/v1/members/${records.sameTin.id}/status`)
      .set(bearer(admin))
      .send({ status: "APPROVED" });
    expect(response.body.data.possibleDuplicates).toEqual([
      { id: records.original.id, status: "PENDING", reason: "same TIN number" },
    ]);
    const page = await listed("/members");
    expect(page.get(records.original.id)?.possibleDuplicates).toContainEqual({
      id: records.sameTin.id,
      status: "APPROVED",
      reason: "same TIN number",
    });
  });

  it("GraphQL members and pendingMembers carry them for an administrator", async () => {
    const all = await app.graphql(MembersWithDuplicatesDocument, { search: tag }, admin.token);
    const original = all.data?.members.data.find((m) => m.id === records.original.id);
    expect(sorted(original?.possibleDuplicates).map((d) => d.id)).toEqual(
      expectedOfOriginal().map((d) => d.id),
    );
    const pending = await app.graphql(PendingWithDuplicatesDocument, { search: tag }, admin.token);
    const sameMobile = pending.data?.pendingMembers.data.find(
      (m) => m.id === records.sameMobile.id,
    );
    expect(sameMobile?.possibleDuplicates).toEqual([
      { id: records.original.id, status: "PENDING", reason: "same mobile number" },
    ]);
  });

  it("looks a page's duplicates up with one query, served by the declared indexes", async () => {
    const client = app.connection.getClient();
    const lookups: CommandStartedEvent[] = [];
    const record = (event: CommandStartedEvent) => {
      const filter = (event.command as { filter?: Record<string, unknown> }).filter;
      if (event.commandName === "find" && filter && "$or" in filter) lookups.push(event);
    };
    client.on("commandStarted", record);
    try {
      await listed("/members");
    } finally {
      client.off("commandStarted", record);
    }
    expect(lookups).toHaveLength(1);
    expect(app.unservedQueries()).toEqual([]);
  });
});

describe("what applicants see", () => {
  it("never the field: null in apply's answer and /members/me (REST and GraphQL)", async () => {
    const user = await buildUser(app);
    const applied = await app.graphql(
      ApplyAsWebClientDocument,
      minimalApplication({ lastName: tag, firstName: "Gina", mobilePhoneNumber: mobile }),
      user.token,
    );
    expect(applied.data?.applyForMembership.data.possibleDuplicates).toBeNull();
    const rest = await app.http().get("/api/v1/members/me").set(bearer(records.original.user));
    expect(rest.body.data[0].possibleDuplicates).toBeNull();
    const graph = await app.graphql(
      MyMembershipsWithDuplicatesDocument,
      {},
      records.original.user.token,
    );
    expect(graph.data?.myMemberships.data[0].possibleDuplicates).toBeNull();
    // The administrator sees the new one flagged by the mobile number.
    const page = await listed("/members");
    const gina = applied.data!.applyForMembership.data.id;
    expect(page.get(gina)?.possibleDuplicates).toContainEqual({
      id: records.original.id,
      status: "PENDING",
      reason: "same mobile number",
    });
  });

  it("an account's own earlier applications are not its duplicates", async () => {
    const { user } = records.unrelated;
    await app
      .http()
      .patch(`/api/v1/members/${records.unrelated.id}/status`)
      .set(bearer(admin))
      .send({ status: "REJECTED" });
    const again = await applyAs(app, user, { lastName: tag, firstName: "Fe" });
    const page = await listed("/members");
    expect(page.get(again.id)?.possibleDuplicates).toEqual([]);
  });
});

describe("stored keys", () => {
  const stored = (on: TestApp, id: string) =>
    rawDb(on).members.collection.findOne({ _id: id as never });

  it("keeps SSS and TIN only sealed and as keyed hashes, never in clear", async () => {
    const raw = await stored(app, records.original.id);
    const text = JSON.stringify(raw);
    for (const clear of [sss, sss.replace(/-/g, ""), tin, tin.replace(/-/g, "")]) {
      expect(text).not.toContain(clear);
    }
    expect(raw?.sssHash).toBe(
      new FieldCipher(KEY_1).fingerprint(sss.replace(/-/g, ""), "sssNumber"),
    );
    expect(raw?.sssHash).not.toBe(
      new FieldCipher(KEY_2).fingerprint(sss.replace(/-/g, ""), "sssNumber"),
    );
  });

  it("gives records of an earlier version their keys on start (migration step)", async () => {
    const members = rawDb(app).members.collection;
    await members.updateOne(
      { _id: records.sameSss.id as never },
      { $unset: { nameBirthKey: "", mobileKey: "", sssHash: "", tinHash: "" } },
    );
    expect(
      (await listed("/members")).get(records.original.id)?.possibleDuplicates,
    ).not.toContainEqual(expect.objectContaining({ id: records.sameSss.id }));
    await migrateDatabase(
      app.connection,
      app.internals.migrations,
      createLogger({ ...app.config, logLevel: "silent" }),
    );
    expect((await stored(app, records.sameSss.id))?.sssHash).toEqual(expect.any(String));
    expect((await listed("/members")).get(records.original.id)?.possibleDuplicates).toContainEqual({
      id: records.sameSss.id,
      status: "PENDING",
      reason: "same SSS number",
    });
  });

  it("matches across a data key change, and data-key:rotate re-keys the hashes", async () => {
    const during = await startTestApp({
      DB_NAME: app.config.dbName,
      DATA_KEY: KEY_2.toString("base64"),
      DATA_KEYS_PREVIOUS: KEY_1.toString("hex"),
    });
    others.push(during);
    // A new application hashed under the new key still meets the old key's hashes.
    const late = await applyAs(during, await buildUser(during), {
      lastName: tag,
      firstName: "Hugo",
      mobilePhoneNumber: `0922${digits(7)}`,
      sssNumber: sss,
    });
    const before = await listed("/members", during);
    expect(before.get(late.id)?.possibleDuplicates).toEqual(
      expect.arrayContaining([
        { id: records.original.id, status: "PENDING", reason: "same SSS number" },
        { id: records.sameSss.id, status: "PENDING", reason: "same SSS number" },
      ]),
    );

    const result = await rotateDataKey(during.connection, during.internals.cipher);
    expect(result.rehashed).toBeGreaterThanOrEqual(3);
    expect((await stored(during, records.original.id))?.sssHash).toBe(
      new FieldCipher(KEY_2).fingerprint(sss.replace(/-/g, ""), "sssNumber"),
    );
    expect((await rotateDataKey(during.connection, during.internals.cipher)).rehashed).toBe(0);

    const after = await startTestApp({
      DB_NAME: app.config.dbName,
      DATA_KEY: KEY_2.toString("base64"),
    });
    others.push(after);
    const page = await listed("/members", after);
    expect(sorted(page.get(records.original.id)?.possibleDuplicates).map((d) => d.reason)).toEqual(
      expect.arrayContaining(["same SSS number", "same TIN number"]),
    );
    expect(page.get(late.id)?.possibleDuplicates).toContainEqual({
      id: records.original.id,
      status: "PENDING",
      reason: "same SSS number",
    });
  });
});
