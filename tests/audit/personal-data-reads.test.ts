/**
 * Issue 35, point 5: an administrator's reads of other people's personal data are audit
 * entries (one per read, not per record), and an entry carries the request id the service
 * made, with the client's own x-request-id beside it and never in its place.
 */
import { randomBytes } from "node:crypto";
import { print } from "graphql";
import { PersonalDataListsDocument } from "../graphql/generated";
import { applyAs, bearer, buildUser, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { startScenario } from "../support/scenario";

const API = "/api/v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

interface Entry {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  requestId: string;
  clientRequestId: string | null;
}

async function entriesOf(requestId: string): Promise<Entry[]> {
  const response = await app
    .http()
    .get(`${API}/audit-logs`)
    .query({ actorId: admin.id, limit: 100 })
    .set(bearer(admin));
  expect(response.status).toBe(200);
  return (response.body.data as Entry[]).filter((entry) => entry.requestId === requestId);
}

/** GET `path` as the administrator; answers the entries that request left. */
async function readAsAdmin(path: string, query: Record<string, string> = {}): Promise<Entry[]> {
  const response = await app.http().get(`${API}${path}`).query(query).set(bearer(admin));
  expect(response.status).toBe(200);
  return entriesOf(response.headers["x-request-id"]);
}

describe("an administrator's reads of personal data", () => {
  it("GET /users/{id} and GET /users: one entry each, naming the account read", async () => {
    const person = await buildUser(app);
    await buildUser(app);
    const one = await readAsAdmin(`/users/${person.id}`);
    expect(one).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        action: "user.read",
        targetType: "user",
        targetId: person.id,
      }),
    ]);
    // A page of several accounts is one entry, not one per account.
    const page = await readAsAdmin("/users", { limit: "50" });
    expect(page).toEqual([
      expect.objectContaining({ action: "user.list", targetType: "user", targetId: null }),
    ]);
  });

  it("member lists, pending lists and searches; the search term is not kept", async () => {
    const surname = `Auditedname${randomBytes(3).toString("hex")}`;
    const applicant = await buildUser(app);
    await applyAs(app, applicant, { lastName: surname });
    expect((await readAsAdmin("/members")).map((e) => e.action)).toEqual(["member.list"]);
    expect((await readAsAdmin("/members/pending")).map((e) => e.action)).toEqual([
      "member.pending",
    ]);
    const search = await readAsAdmin("/members", { search: surname });
    expect(search.map((e) => e.action)).toEqual(["member.search"]);
    expect(JSON.stringify(search)).not.toContain(surname);
    const pendingSearch = await readAsAdmin("/members/pending", { search: surname });
    expect(pendingSearch.map((e) => e.action)).toEqual(["member.pendingSearch"]);
  });

  it("the same over /graphql", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({ query: print(PersonalDataListsDocument) });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const actions = (await entriesOf(response.headers["x-request-id"])).map((e) => e.action).sort();
    expect(actions).toEqual(["member.list", "user.list"]);
  });

  it("a person's reads of their own data are not audited", async () => {
    const person = await buildUser(app);
    await applyAs(app, person);
    expect((await app.http().get(`${API}/users/current`).set(bearer(person))).status).toBe(200);
    expect((await app.http().get(`${API}/members/me`).set(bearer(person))).status).toBe(200);
    const mine = await app
      .http()
      .get(`${API}/audit-logs`)
      .query({ actorId: person.id })
      .set(bearer(admin));
    expect((mine.body.data as Entry[]).map((e) => e.action)).toEqual(["member.apply"]);
  });
});

describe("request ids", () => {
  it("an entry carries the service's request id; a forged x-request-id is kept apart", async () => {
    const person = await buildUser(app);
    const forged = "forged-request-id-1";
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await app
        .http()
        .get(`${API}/users/${person.id}`)
        .set(bearer(admin))
        .set("x-request-id", forged);
      expect(response.status).toBe(200);
      const served = response.headers["x-request-id"];
      expect(served).toMatch(UUID);
      const [entry] = await entriesOf(served);
      expect(entry).toMatchObject({ requestId: served, clientRequestId: forged });
      ids.push(served);
    }
    // The same forged id twice: two requests, two ids of the service's own.
    expect(ids[0]).not.toBe(ids[1]);
  });
});
