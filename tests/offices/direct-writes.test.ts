/**
 * Office titles and branches of service written by another program, straight into the
 * database, are what the next list, search, count and read on every instance show: no
 * instance keeps a copy of either collection.
 */
import { MongoClient, type Db } from "mongodb";
import { clientOptionsFor } from "../../src/db/connection";
import { searchableText } from "../../src/db/search-text";
import { uuidv7 } from "../../src/db/uuid";
import { approvedMemberOf, bearer } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { twoInstancesWithAdmin } from "../support/two-instances";

const both = twoInstancesWithAdmin();
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  const uri = process.env.TEST_MONGODB_URI!;
  client = await new MongoClient(uri, clientOptionsFor(uri)).connect();
  db = client.db(both.first.config.dbName);
});
afterAll(() => client.close());

// String ids: the driver's default typing expects ObjectIds.
type Stored = { _id: string } & Record<string, unknown>;
const offices = () => db.collection<Stored>("offices");
const branches = () => db.collection<Stored>("branch_services");
const instances = () => [both.first, both.second];

let counter = 0;
const token = () => `direct${Date.now().toString(36)}${(counter += 1)}`;

/** An office title as another program would write it: every field a title stores. */
function officeDocument(name: string, fields: Record<string, unknown> = {}): Stored {
  const now = new Date();
  return {
    _id: uuidv7(),
    name,
    nameKey: name.toLowerCase(),
    level: "BARANGAY_CHAPLAIN",
    levelRank: 9,
    description: "Written by the regional office's own tool",
    searchText: searchableText(name, "Written by the regional office's own tool"),
    maxSlots: 2,
    activeHolders: 0,
    slotsChangedAt: null,
    sections: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

function branchDocument(title: string): Stored {
  const now = new Date();
  const description = "Imported from the old registry";
  return {
    _id: uuidv7(),
    title,
    titleKey: title.toLowerCase(),
    description,
    searchText: searchableText(title, description),
    sections: [],
    createdAt: now,
    updatedAt: now,
  };
}

async function listOffices(app: TestApp, query: Record<string, string | number>) {
  const response = await app.http().get("/api/v1/offices").query(query).set(bearer(both.admin));
  expect(response.status).toBe(200);
  return response.body as {
    data: { id: string; name: string }[];
    pagination: { totalCount: number };
  };
}

async function listBranches(app: TestApp, query: Record<string, string | number>) {
  const response = await app.http().get("/api/v1/branch-service").query(query);
  expect(response.status).toBe(200);
  return response.body as {
    data: { id: string; title: string }[];
    pagination: { totalCount: number };
  };
}

const names = (page: { data: { name: string }[] }) => page.data.map((office) => office.name);
const titles = (page: { data: { title: string }[] }) => page.data.map((branch) => branch.title);

test("an office title inserted, changed and deleted in the database shows on both instances", async () => {
  const tag = token();
  const name = `${tag} Barangay Chaplain`;
  const office = officeDocument(name);
  // Each instance has listed first, so anything it kept would be warm.
  for (const app of instances()) await listOffices(app, { search: tag });

  await offices().insertOne(office);
  for (const app of instances()) {
    const searched = await listOffices(app, { search: tag.toUpperCase() });
    expect(names(searched)).toEqual([name]);
    expect(searched.pagination.totalCount).toBe(1);
    const newest = await listOffices(app, { limit: 1 });
    expect(newest.data[0].id).toBe(office._id);
    const read = await app.http().get(`/api/v1/offices/${office._id}`).set(bearer(both.admin));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: office._id, name, maxSlots: 2, activeHolders: 0 });
  }

  const renamed = `${tag} Renamed Chaplain`;
  await offices().updateOne(
    { _id: office._id },
    {
      $set: {
        name: renamed,
        nameKey: renamed.toLowerCase(),
        searchText: searchableText(renamed, "changed"),
        description: "changed",
        updatedAt: new Date(),
      },
    },
  );
  for (const app of instances()) {
    expect(names(await listOffices(app, { search: "Renamed" }))).toEqual([renamed]);
    expect(names(await listOffices(app, { search: "Barangay Chaplain" }))).not.toContain(name);
    const byName = await listOffices(app, { search: tag, sortBy: "name", sortOrder: "asc" });
    expect(names(byName)).toEqual([renamed]);
    const read = await app.http().get(`/api/v1/offices/${office._id}`).set(bearer(both.admin));
    expect(read.body.data).toMatchObject({ name: renamed, description: "changed" });
  }

  await offices().deleteOne({ _id: office._id });
  for (const app of instances()) {
    const searched = await listOffices(app, { search: tag });
    expect(searched.data).toEqual([]);
    expect(searched.pagination.totalCount).toBe(0);
    const read = await app.http().get(`/api/v1/offices/${office._id}`).set(bearer(both.admin));
    expect(read.status).toBe(404);
  }
});

test("a title written without a slot count can be appointed to up to its maxSlots", async () => {
  const tag = token();
  const office = officeDocument(`${tag} Uncounted`, { maxSlots: 1 });
  delete office.activeHolders;
  delete office.slotsChangedAt;
  await offices().insertOne(office);
  const [first, second] = await Promise.all([
    approvedMemberOf(both.first, both.admin),
    approvedMemberOf(both.first, both.admin),
  ]);
  const appoint = (app: TestApp, memberId: string) =>
    app
      .http()
      .post(`/api/v1/offices/${office._id}/holders`)
      .set(bearer(both.admin))
      .send({ memberId, startDate: "2025-01-01T00:00:00.000Z" });

  expect((await appoint(both.first, first.id)).status).toBe(201);
  const refused = await appoint(both.second, second.id);
  expect(refused.status).toBe(409);
  for (const app of instances()) {
    const read = await app.http().get(`/api/v1/offices/${office._id}`).set(bearer(both.admin));
    expect(read.body.data.activeHolders).toBe(1);
  }
});

test("a branch of service inserted, changed and deleted in the database shows on both instances", async () => {
  const tag = token();
  const title = `${tag} Prison Ministry`;
  const branch = branchDocument(title);
  for (const app of instances()) await listBranches(app, { search: tag });

  await branches().insertOne(branch);
  for (const app of instances()) {
    const searched = await listBranches(app, { search: tag.toUpperCase() });
    expect(titles(searched)).toEqual([title]);
    expect(searched.pagination.totalCount).toBe(1);
    expect((await listBranches(app, { limit: 1 })).data[0].id).toBe(branch._id);
    const read = await app.http().get(`/api/v1/branch-service/${branch._id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: branch._id, title });
  }

  const retitled = `${tag} Jail Ministry`;
  await branches().updateOne(
    { _id: branch._id },
    {
      $set: {
        title: retitled,
        titleKey: retitled.toLowerCase(),
        searchText: searchableText(retitled, "Imported from the old registry"),
        updatedAt: new Date(),
      },
    },
  );
  for (const app of instances()) {
    expect(titles(await listBranches(app, { search: "jail" }))).toEqual([retitled]);
    expect(titles(await listBranches(app, { search: `${tag} Prison` }))).toEqual([]);
    const read = await app.http().get(`/api/v1/branch-service/${branch._id}`);
    expect(read.body.data.title).toBe(retitled);
  }

  await branches().deleteOne({ _id: branch._id });
  for (const app of instances()) {
    const searched = await listBranches(app, { search: tag });
    expect(searched.data).toEqual([]);
    expect(searched.pagination.totalCount).toBe(0);
    expect((await app.http().get(`/api/v1/branch-service/${branch._id}`)).status).toBe(404);
  }
});
