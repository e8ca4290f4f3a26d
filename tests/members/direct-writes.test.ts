import { MongoClient, type Collection } from "mongodb";
import { searchTextOf } from "../../src/modules/members/member.model";
import { uuidv7 } from "../../src/db/uuid";
import { bearer, buildAdmin, buildUser, type TestUser } from "../support/factories";
import { startTwoInstances, type TestApp } from "../support/test-app";

/*
 * Member lists, searches and counts read the database on every request: a record inserted,
 * changed or deleted by another program (a shell fix, a migration, a restore) is seen by the
 * next request of every instance.
 */

let first: TestApp;
let second: TestApp;
let closeBoth: () => Promise<void>;
let client: MongoClient;
let members: Collection<Record<string, unknown>>;
let admin: TestUser;
let applied: { id: string };

beforeAll(async () => {
  ({ first, second, closeBoth } = await startTwoInstances());
  client = await MongoClient.connect(process.env.TEST_MONGODB_URI!, { directConnection: true });
  members = client.db(first.config.dbName).collection("members");
  admin = await buildAdmin(first);
  const applicant = await buildUser(first);
  const response = await first.http().post("/api/v1/members/apply").set(bearer(applicant)).send({
    firstName: "Teodoro",
    lastName: "Agoncillo",
    mobilePhoneNumber: "09170000001",
    homeAddress: "1 Mabini Street",
    civilStatus: "SINGLE",
    gender: "MALE",
    nationality: "Filipino",
    dateOfBirth: "1980-01-01T00:00:00.000Z",
    region: "NCR",
    province: "Metro Manila",
    municipalityCity: "Manila",
    barangay: "Ermita",
    emergencyContactName: "Rosa Agoncillo",
    emergencyContactMobile: "09170000002",
    churchAffiliation: "Grace Chapel",
    churchAddress: "Manila",
    currentPositionRole: "Pastor",
  });
  expect(response.status).toBe(201);
  applied = response.body.data;
});
afterAll(async () => {
  await client?.close();
  await closeBoth?.();
});

const list = (app: TestApp, query: Record<string, string> = {}) =>
  app.http().get("/api/v1/members").query(query).set(bearer(admin));

async function onBoth(query: Record<string, string>): Promise<{ ids: string[]; total: number }[]> {
  return Promise.all(
    [first, second].map(async (app) => {
      const response = await list(app, query);
      expect(response.status).toBe(200);
      return {
        ids: (response.body.data as { id: string }[]).map((record) => record.id),
        total: response.body.pagination.totalCount as number,
      };
    }),
  );
}

it("lists, searches and counts a record inserted straight into the database", async () => {
  const stored = await members.findOne({ _id: applied.id as never });
  const id = uuidv7();
  const userId = uuidv7();
  const record = {
    ...stored,
    _id: id,
    userId,
    firstName: "Apolinario",
    lastName: "Mabini",
    openKey: `open:${userId}`,
    searchEmail: "a.mabini@example.org",
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const before = await onBoth({});
  await members.insertOne({
    ...record,
    searchText: searchTextOf(
      { firstName: "Apolinario", lastName: "Mabini", mobilePhoneNumber: "09170000001" },
      "a.mabini@example.org",
    ),
  } as never);

  for (const [index, seen] of (await onBoth({})).entries()) {
    expect(seen.ids[0]).toBe(id);
    expect(seen.total).toBe(before[index].total + 1);
  }
  for (const search of ["apolinario m", "A.MABINI@", "mabini"]) {
    for (const seen of await onBoth({ search })) expect(seen.ids).toEqual([id]);
  }
});

it("follows a status changed and a record deleted straight in the database", async () => {
  await members.updateOne(
    { _id: applied.id as never },
    { $set: { status: "APPROVED", openKey: `open:changed-${applied.id}` } },
  );
  for (const seen of await onBoth({ status: "APPROVED" })) expect(seen.ids).toContain(applied.id);
  for (const seen of await onBoth({ status: "PENDING" })) {
    expect(seen.ids).not.toContain(applied.id);
  }

  await members.deleteOne({ _id: applied.id as never });
  for (const seen of await onBoth({ search: "agoncillo" })) {
    expect(seen).toEqual({ ids: [], total: 0 });
  }
  for (const app of [first, second]) {
    const response = await app.http().get(`/api/v1/members/${applied.id}`).set(bearer(admin));
    expect(response.status).toBe(404);
  }
});
