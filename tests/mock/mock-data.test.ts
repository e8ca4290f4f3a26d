// Raw GraphQL text, not tests/graphql/operations: it talks to the mock server, which has no typed client here.
import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import supertest from "supertest";
import { MOCK_TOTAL } from "../../src/mock/mock-schema";
import { startMockServer, type MockServer } from "../../src/mock/mock-server";
import { UUID_V7 } from "../support/expectations";

let mock: MockServer;
const http = () => supertest(mock.url);
const auth = { authorization: "Bearer any-token-at-all" };
const get = (url: string) => http().get(url).set(auth);

beforeAll(async () => {
  mock = await startMockServer({ port: 0, host: "127.0.0.1", log: pino({ level: "silent" }) });
}, 30_000);
afterAll(() => mock.close());

type Json = Record<string, unknown>;

/** Every value under a key that holds an id: `id`, `…Id`, a status change's `by`. */
function idsIn(value: unknown, key = ""): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => idsIn(item, key));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([name, inner]) => idsIn(inner, name));
  // uniqueId is the organisation's POI-<YYYY>-<NNNNN>, not a record's UUID.
  const isId = key === "id" || (key.endsWith("Id") && key !== "uniqueId") || key === "by";
  return isId ? [value] : [];
}

describe("the mock's records", () => {
  it("carry a valid uuid everywhere an id goes, and one letter for a middle initial", async () => {
    const answers = await Promise.all(
      ["/api/v1/members?limit=23", "/api/v1/audit-logs?limit=23", `/api/v1/users?limit=23`].map(
        (url) => get(url),
      ),
    );
    const ids = answers.flatMap((answer) => idsIn(answer.body));
    expect(ids.length).toBeGreaterThan(100);
    // requestId/clientRequestId aside, ids that may be null (a branch's memberId) are null.
    for (const id of ids.filter((id) => id !== null)) expect(id).toMatch(UUID_V7);
    for (const member of answers[0].body.data as Json[]) {
      expect(member.middleInitial).toMatch(/^\p{Lu}$/u);
      expect(member.publicUrl).toBe(`http://localhost:3000/profile/${String(member.uniqueId)}`);
    }
  });

  it("are the same person under the same id in every answer", async () => {
    const offices = (await get("/api/v1/offices?limit=5")).body.data as Json[];
    const detail = await get(`/api/v1/offices/${String(offices[2].id)}`);
    expect(detail.body.data).toEqual(offices[2]);

    const holders = (await get(`/api/v1/offices/${String(offices[0].id)}/holders`)).body.data as {
      member: { id: string; name: string };
    }[];
    const members = (await get("/api/v1/members?limit=23")).body.data as Json[];
    const held = members.find((member) => member.id === holders[0].member.id);
    expect(held).toBeDefined();
    expect(`${String(held!.firstName)} ${String(held!.lastName)}`).toBe(holders[0].member.name);

    const users = (await get("/api/v1/users?limit=23")).body.users as Json[];
    const user = users.find((candidate) => candidate.id === held!.userId);
    expect(user).toMatchObject({ name: holders[0].member.name });
    expect((await get(`/api/v1/users/${String(user!.id)}`)).body.user).toEqual(user);

    const graphql = await http()
      .post("/graphql")
      .set(auth)
      .send({ query: `{ office(id: "${String(offices[2].id)}") { data { id name level } } }` });
    expect(graphql.body.data.office.data).toEqual({
      id: offices[2].id,
      name: offices[2].name,
      level: offices[2].level,
    });
  });
});

describe("the mock's lists", () => {
  it("apply a filter, and count what is left", async () => {
    const approved = await get("/api/v1/members?status=APPROVED&limit=100");
    const statuses = (approved.body.data as Json[]).map((member) => member.status);
    expect(new Set(statuses)).toEqual(new Set(["APPROVED"]));
    expect(approved.body.pagination.totalCount).toBe(statuses.length);
    expect(statuses.length).toBeLessThan(MOCK_TOTAL);
  });

  it("search case-insensitively, as the service does", async () => {
    const all = (await get("/api/v1/members?limit=100")).body.data as Json[];
    const lastName = String(all[4].lastName);
    const found = await get(`/api/v1/members?limit=100&search=${lastName.toUpperCase()}`);
    const names = (found.body.data as Json[]).map(
      (m) => `${String(m.firstName)} ${String(m.lastName)}`,
    );
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(MOCK_TOTAL);
    for (const name of names) expect(name.toLowerCase()).toContain(lastName.toLowerCase());
    const none = await get("/api/v1/members?search=no-such-person-anywhere");
    expect([none.body.data, none.body.pagination.totalCount]).toEqual([[], 0]);
  });

  it("sort by the field asked, levels by the hierarchy, newest first otherwise", async () => {
    const byName = (await get("/api/v1/offices?limit=100&sortBy=name&sortOrder=asc")).body.data as {
      name: string;
    }[];
    const names = byName.map((office) => office.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byLevel = (await get("/api/v1/offices?limit=3&sortBy=level&sortOrder=asc")).body.data as {
      level: string;
    }[];
    expect(byLevel[0].level).toBe("CHIEF_CHAPLAIN");
    const newest = (await get("/api/v1/members?limit=100")).body.data as { createdAt: string }[];
    const times = newest.map((member) => member.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("export as CSV with a row per member, after a UTF-8 byte order mark", async () => {
    const csv = await get("/api/v1/members/export.csv").buffer(true);
    expect(csv.status).toBe(200);
    const bytes = Buffer.from(csv.text, "utf8");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toMatch(/^id,status,/);
    expect(lines).toHaveLength(MOCK_TOTAL + 1);
    const approved = await get("/api/v1/members/export.csv?status=APPROVED").buffer(true);
    expect(
      approved.text
        .trim()
        .split("\r\n")
        .slice(1)
        .every((line) => line.includes(",APPROVED,")),
    ).toBe(true);
  });
});

describe("the mock says it is one", () => {
  it("signs in as an administrator, as the README says", async () => {
    const login = await http()
      .post("/api/v1/auth/login")
      .send({ email: "admin@example.org", password: "Admin#Chaplain1" });
    expect(login.body).toMatchObject({ user: { email: "admin@example.org", role: "ADMIN" } });
    const current = await http()
      .get("/api/v1/users/current")
      .set({ authorization: `Bearer ${String(login.body.accessToken)}` });
    expect(current.body.user.role).toBe("ADMIN");
  });

  it("answers X-Mock: true on everything, errors and explorers included", async () => {
    const answers = await Promise.all([
      http().get("/api/v1/health"),
      http().get("/api/v1/nowhere"),
      http().delete("/api/v1/auth/logout"),
      http().post("/graphql").send({ query: "{ __typename }" }),
      http().get("/api/v1/docs/"),
    ]);
    for (const answer of answers) expect(answer.headers["x-mock"]).toBe("true");
  });

  it("puts a banner on both explorers", async () => {
    const swagger = await http().get("/api/v1/docs/");
    const graphiql = await http().get("/graphql").set("accept", "text/html");
    for (const page of [swagger.text, graphiql.text])
      expect(page).toMatch(
        /<div role="status" class="explorer-banner"[^>]*>MOCK SERVER: made-up data/,
      );
  });

  it("imports nothing from scripts/", () => {
    const dir = path.join(__dirname, "..", "..", "src", "mock");
    for (const file of fs.readdirSync(dir))
      expect([file, fs.readFileSync(path.join(dir, file), "utf8")]).not.toEqual([
        file,
        expect.stringMatching(/from "[./]*scripts\//),
      ]);
  });
});
