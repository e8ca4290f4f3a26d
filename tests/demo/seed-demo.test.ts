/**
 * `npm run seed:demo`: the real command against the run's engine, into the database a running
 * instance serves, which lists the new records at once.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { DEMO_EMAIL_DOMAIN, DEMO_PASSWORD } from "../../scripts/demo/demo-data";
import { DEMO_PERSONAS, personaEmail } from "../../scripts/demo/demo-onboarding";
import { REGIONS } from "../../src/mock/places";
import { canonicalRegion } from "../../src/modules/members/regions";
import { bearer, login, type TestUser } from "../support/factories";
import { COMPILED } from "../support/service-build";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

function seed(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, [COMPILED.seedDemo, ...args], {
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
  });
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
  // The demo people, and the personas of every feature (onboarding, service chaplains).
  expect(all.pagination.totalCount).toBe(150 + DEMO_PERSONAS.length);
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
}, 300_000);

/** A picture a public page links to: it loads without a token, and is an image. */
async function expectPicture(url: string) {
  const { pathname } = new URL(url);
  const picture = await app.http().get(pathname).buffer(true);
  expect([picture.status, picture.headers["content-type"]]).toEqual([
    200,
    expect.stringMatching(/^image\//),
  ]);
}

test("puts every feature on the public pages: events, news, interviewers, service chaplains", async () => {
  const events = await app.http().get("/api/v1/events/public").query({ limit: 100 });
  expect(events.status).toBe(200);
  expect(events.body.data.length).toBeGreaterThanOrEqual(5);
  for (const event of events.body.data) {
    expect(new Date(event.endsAt).getTime()).toBeGreaterThan(new Date(event.startsAt).getTime());
    expect(event.location ?? event.type).toBeTruthy();
    await expectPicture(event.thumbnailUrl);
  }
  const upcoming = events.body.data.filter(
    (event: { startsAt: string }) => new Date(event.startsAt) > new Date(),
  );
  expect(upcoming.length).toBeGreaterThanOrEqual(3);
  // The private one is for signed-in members only.
  const all = await app.http().get("/api/v1/events").query({ limit: 100 }).set(bearer(admin));
  expect(all.body.pagination.totalCount).toBe(events.body.pagination.totalCount + 1);

  const news = await app.http().get("/api/v1/news-blogs/public").query({ limit: 100 });
  expect(news.status).toBe(200);
  expect(news.body.data.length).toBeGreaterThanOrEqual(3);
  for (const post of news.body.data) {
    expect(post.status).toBe("PUBLISHED");
    await expectPicture(post.media[0].fileUrl);
  }
  const tagged = news.body.data.flatMap((post: { taggedMembers: { fullName: string }[] }) =>
    post.taggedMembers.map((member) => member.fullName),
  );
  expect(tagged.length).toBeGreaterThan(0);
  const sworn = DEMO_PERSONAS.filter((p) => p.stepsDone === 7).map(
    (p) => `${p.firstName} ${p.lastName}`,
  );
  for (const name of tagged) expect(sworn).toContain(name);
  const drafts = await app
    .http()
    .get("/api/v1/news-blogs")
    .query({ limit: 100 })
    .set(bearer(admin));
  expect(drafts.body.data.map((post: { status: string }) => post.status)).toContain("DRAFT");

  const interviewers = await app.http().get("/api/v1/interviewers").set(bearer(admin));
  expect(interviewers.body.data.map((row: { key: string }) => row.key).sort()).toEqual([
    "ptr-jose",
    "ptr-maria",
    "ptr-rodel",
  ]);
  for (const row of interviewers.body.data) expect(row.nextFree.length).toBeGreaterThan(0);

  const chaplains = await app.http().get("/api/v1/members/public/service-chaplains");
  expect(chaplains.status).toBe(200);
  const certified = DEMO_PERSONAS.filter((p) => p.badge);
  expect(chaplains.body.data.map((c: { fullName: string }) => c.fullName).sort()).toEqual(
    certified.map((p) => `${p.firstName} ${p.lastName}`).sort(),
  );
  for (const chaplain of chaplains.body.data) {
    expect(chaplain).toMatchObject({
      memberType: "CERTIFIED_SPECIALIST_TRAINING_OFFICER_INSTRUCTOR",
      badgeNumber: expect.stringMatching(/^CSTOI-/),
    });
  }
}, 60_000);

test("has a member at each onboarding step, each signing in to their own wizard", async () => {
  const steps = [
    "REQUIREMENTS",
    "PRE_ORIENTATION",
    "PAYMENT_CHECKOUT",
    "ONLINE_INTERVIEW",
    "ID_GENERATION",
    "CHAPLAINCY_101",
    "OATH_TAKING",
  ];
  for (const persona of DEMO_PERSONAS.filter((p) => !p.badge)) {
    const session = await login(app, personaEmail(persona), DEMO_PASSWORD);
    const progress = await app
      .http()
      .get("/api/v1/members/current/onboarding-progress")
      .set(bearer(session));
    const data = progress.body.data as {
      currentStep: string;
      completedAt: string | null;
      steps: { step: string; done: boolean }[];
    };
    expect([persona.firstName, data.currentStep]).toEqual([
      persona.firstName,
      steps[persona.stepsDone - 1],
    ]);
    const done = data.steps.filter((step) => step.done).map((step) => step.step);
    expect(done).toEqual(steps.slice(0, persona.stepsDone));
    expect(data.completedAt === null).toBe(persona.stepsDone < 7);
  }
  // The administrators' onboarding list shows each of them at their step.
  for (const step of steps.slice(1, 6)) {
    const listed = await app
      .http()
      .get("/api/v1/onboarding")
      .query({ step, limit: 100 })
      .set(bearer(admin));
    expect([step, listed.body.pagination.totalCount]).toEqual([step, 1]);
  }
}, 60_000);

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
  expect(again.stdout).toMatch(/added 0 events and 0 news posts with pictures, 0 members/);
  expect(await count()).toBe(before);

  const other = await seed(["20", "--seed=8"]);
  const added = Number(/seeded (\d+) members/.exec(other.stdout)?.[1]);
  expect(added).toBeGreaterThan(15);
  expect(await count()).toBe(before + added);
}, 300_000);

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
}, 180_000);
