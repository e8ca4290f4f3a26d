/**
 * `npm run seed:demo`: the real command against the run's engine, into the database a running
 * instance serves, which lists the new records at once.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD } from "../../scripts/demo/demo-data";
import { REGIONS } from "../../src/mock/places";
import { canonicalRegion } from "../../src/modules/members/regions";
import { bearer, login, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app.close());

function seed(args: string[], env: Record<string, string> = {}) {
  return run(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "scripts/seed-demo.ts", ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        MONGODB_URI: process.env.TEST_MONGODB_URI!,
        DB_NAME: app.config.dbName,
        // The service's data directory, so the seed seals SSS/TIN with the service's data key.
        DATA_DIR: app.config.dataDir,
        BCRYPT_COST: "4",
        LOG_LEVEL: "silent",
        ...env,
      },
    },
  );
}

interface ListedMember {
  id: string;
  firstName: string;
  lastName: string;
  region: string;
  province: string;
  barangay: string;
  mobilePhoneNumber: string;
  status: string;
  user: { email: string };
  preferredBranches: { title: string }[];
}

async function list(query: Record<string, string | number | boolean>) {
  const response = await app.http().get("/api/v1/members").query(query).set(bearer(admin));
  expect(response.status).toBe(200);
  return response.body as { data: ListedMember[]; pagination: { totalCount: number } };
}

test("seeds N Philippine-style members that the running service lists, searches and signs in", async () => {
  const { stdout } = await seed(["150", "--seed=7"]);
  expect(stdout).toMatch(/seeded 150 members/);

  const all = await list({ includeArchived: true, limit: 100 });
  expect(all.pagination.totalCount).toBe(150);
  // Stored under the official names, as an application stores them.
  const regions = new Set(REGIONS.map((region) => canonicalRegion(region.name)));
  for (const member of all.data) {
    expect(regions.has(member.region)).toBe(true);
    expect(member.barangay.length).toBeGreaterThan(0);
    expect(member.mobilePhoneNumber).toMatch(/^09\d{9}$/);
    expect(member.user.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`)).toBe(true);
    expect(member.preferredBranches).toHaveLength(1);
  }
  const statuses = new Set(all.data.map((member) => member.status));
  expect(statuses).toEqual(new Set(["PENDING", "APPROVED", "REJECTED"]));

  const someone = all.data[17];
  const byName = await list({ search: `${someone.firstName} ${someone.lastName}`.toUpperCase() });
  expect(byName.data.map((member) => member.id)).toContain(someone.id);
  const byMobile = await list({ search: someone.mobilePhoneNumber, includeArchived: true });
  expect(byMobile.data.map((member) => member.id)).toContain(someone.id);

  const session = await login(app, someone.user.email, DEMO_PASSWORD);
  expect(session.token).toEqual(expect.any(String));
});

test("staffs the hierarchy of office titles with approved demo members", async () => {
  const offices = await app
    .http()
    .get("/api/v1/offices")
    .query({ sortBy: "level", sortOrder: "asc", limit: 100 })
    .set(bearer(admin));
  expect(offices.status).toBe(200);
  expect(offices.body.pagination.totalCount).toBeGreaterThan(100);
  const chief = offices.body.data[0];
  expect(chief).toMatchObject({ name: "Chief Chaplain", level: "CHIEF_CHAPLAIN", maxSlots: 1 });
  expect(chief.activeHolders).toBe(1);

  const holders = await app.http().get(`/api/v1/offices/${chief.id}/holders`).set(bearer(admin));
  const holder = holders.body.data[0];
  const record = await app
    .http()
    .get(`/api/v1/members/${holder.member.id}/offices`)
    .set(bearer(admin));
  expect(record.body.data.map((entry: { id: string }) => entry.id)).toContain(holder.id);
  const approved = await list({ status: "APPROVED", search: holder.member.name, limit: 100 });
  expect(approved.data.map((member) => member.id)).toContain(holder.member.id);
});

test("a second run adds nobody twice and says so; another seed adds other people", async () => {
  const count = async () => (await list({ includeArchived: true })).pagination.totalCount;
  const before = await count();
  const again = await seed(["150", "--seed=7"]);
  expect(again.stdout).toMatch(/seeded 0 members/);
  expect(again.stdout).toMatch(/150 of the 150 demo people of seed 7 were there already/);
  expect(await count()).toBe(before);

  const other = await seed(["20", "--seed=8"]);
  const added = Number(/seeded (\d+) members/.exec(other.stdout)?.[1]);
  expect(added).toBeGreaterThan(15);
  expect(await count()).toBe(before + added);
}, 120_000);

test("refuses a bad count and a production database, and changes nothing", async () => {
  const before = (await list({ includeArchived: true })).pagination.totalCount;
  await expect(seed(["lots"])).rejects.toMatchObject({
    stderr: expect.stringContaining('members must be a whole number, got "lots"'),
  });
  await expect(
    seed(["5"], {
      NODE_ENV: "production",
      JWT_SECRET: "x".repeat(40),
      DATA_KEY: "a".repeat(64),
    }),
  ).rejects.toMatchObject({
    stderr: expect.stringContaining("Refusing to put demo data into a production database"),
  });
  expect((await list({ includeArchived: true })).pagination.totalCount).toBe(before);
  // Two processes that each compile the scripts: slow on a busy machine.
}, 90_000);
