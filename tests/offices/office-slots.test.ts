/**
 * The slot count an office title keeps (activeHolders): conditional updates instead of locks,
 * recounted from the appointments when a crash left it too high, and given back when a term
 * lapses, ends or is erased (src/modules/offices/office-slots.ts).
 */
import { MongoClient, type Db } from "mongodb";
import { clientOptionsFor } from "../../src/db/connection";
import { SLOT_SETTLE_MS } from "../../src/modules/offices/office-slots";
import { approvedMemberOf, bearer, buildOffice, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";
import { officesNow } from "../support/short-term";

let app: TestApp;
let admin: TestUser;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
  const uri = process.env.TEST_MONGODB_URI!;
  client = await new MongoClient(uri, clientOptionsFor(uri)).connect();
  db = client.db(app.config.dbName);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

const offices = () => db.collection<{ _id: string } & Record<string, unknown>>("offices");
const member = () => approvedMemberOf(app, admin);

function appoint(officeId: string, memberId: string, endDate?: string) {
  return app
    .http()
    .post(`/api/v1/offices/${officeId}/holders`)
    .set(bearer(admin))
    .send({ memberId, startDate: "2024-01-01T00:00:00.000Z", endDate });
}

async function activeHolders(officeId: string): Promise<number> {
  const response = await app.http().get(`/api/v1/offices/${officeId}`).set(bearer(admin));
  expect(response.status).toBe(200);
  return response.body.data.activeHolders as number;
}

const archive = (memberId: string) =>
  app.http().patch(`/api/v1/members/${memberId}/archive`).set(bearer(admin));

test("a count a crash left too high is corrected from the appointments before a refusal", async () => {
  const office = await buildOffice(app, admin, { maxSlots: 2 });
  const [holder, newcomer] = await Promise.all([member(), member()]);
  expect((await appoint(office.id, holder.id)).status).toBe(201);
  // As if an appointment took the second slot and its process died before recording it.
  const stale = new Date(officesNow(app).getTime() - SLOT_SETTLE_MS - 1000);
  await offices().updateOne(
    { _id: office.id },
    { $set: { activeHolders: 2, slotsChangedAt: stale } },
  );

  expect((await appoint(office.id, newcomer.id)).status).toBe(201);
  expect(await activeHolders(office.id)).toBe(2);
});

test("a count changed moments ago is left alone: the appointment taking it may be under way", async () => {
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const newcomer = await member();
  await offices().updateOne(
    { _id: office.id },
    { $set: { activeHolders: 1, slotsChangedAt: officesNow(app) } },
  );

  const refused = await appoint(office.id, newcomer.id);
  expect(refused.status).toBe(409);
  expect(refused.body.message).toMatch(/slot/i);
  expect(await activeHolders(office.id)).toBe(1);
});

test("a term whose end date passes gives back its slot and the member's office", async () => {
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const [short, next] = await Promise.all([member(), member()]);
  const endDate = new Date(officesNow(app).getTime() + 60_000).toISOString();
  expect((await appoint(office.id, short.id, endDate)).status).toBe(201);
  expect(await activeHolders(office.id)).toBe(1);
  expect((await archive(short.id)).status).toBe(409);

  app.internals.clock.advance(61);

  expect(await activeHolders(office.id)).toBe(0);
  expect((await archive(short.id)).status).toBe(200);
  expect((await appoint(office.id, next.id)).status).toBe(201);
  const stored = await rawDb(app)
    .officeHolders.find({ officeId: office.id })
    .sort({ createdAt: -1, _id: -1 })
    .lean();
  expect(stored.map((holder) => holder.releasedAt === null)).toEqual([true, false]);
});

test("two administrators ending one appointment at once: one ends it, the slot comes back once", async () => {
  const office = await buildOffice(app, admin, { maxSlots: 2 });
  const [first, second] = await Promise.all([member(), member()]);
  const created = await appoint(office.id, first.id);
  expect((await appoint(office.id, second.id)).status).toBe(201);
  const holderId = created.body.data.id as string;
  const end = () =>
    app.http().patch(`/api/v1/offices/${office.id}/holders/${holderId}/end`).set(bearer(admin));

  const statuses = (await Promise.all([end(), end(), end()])).map((r) => r.status).sort();
  expect(statuses).toEqual([200, 409, 409]);
  expect(await activeHolders(office.id)).toBe(1);
  expect((await archive(first.id)).status).toBe(200);
  expect((await archive(second.id)).status).toBe(409);
});

test("a member appointed to a term already over takes no slot and keeps no office", async () => {
  const office = await buildOffice(app, admin, { maxSlots: 1 });
  const former = await member();
  const past = await app
    .http()
    .post(`/api/v1/offices/${office.id}/holders`)
    .set(bearer(admin))
    .send({
      memberId: former.id,
      startDate: "2020-01-01T00:00:00.000Z",
      endDate: "2021-01-01T00:00:00.000Z",
    });
  expect(past.status).toBe(201);
  expect(past.body.data.isActive).toBe(false);
  expect(await activeHolders(office.id)).toBe(0);
  expect((await archive(former.id)).status).toBe(200);
});
