import pino from "pino";
import supertest from "supertest";
import { REGIONS } from "../../src/mock/places";
import { MOCK_MISSING_ID, MOCK_TOTAL } from "../../src/mock/mock-schema";
import { startMockServer, type MockServer } from "../../src/mock/mock-server";
import { restRoutes } from "../../src/graphql/rest-route";
import { buildAppSchemaSync } from "../../src/graphql/schema";
import { SAMPLE_APPLICATION } from "../../src/modules/members/sample-application";

const REST_ROUTES = restRoutes(buildAppSchemaSync());

let mock: MockServer;
let token: string;
const http = () => supertest(mock.url);
const auth = () => ({ authorization: `Bearer ${token}` });
const ID = "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b";

beforeAll(async () => {
  mock = await startMockServer({ port: 0, host: "127.0.0.1", log: pino({ level: "silent" }) });
  const login = await http()
    .post("/api/v1/auth/login")
    .send({ email: "maria.santos@example.org", password: "Chaplain#2026" });
  token = login.body.accessToken;
}, 30_000);
afterAll(() => mock.close());

describe("the mock server: auth", () => {
  it("signs in with a token and echoes who signed in", async () => {
    const login = await http()
      .post("/api/v1/auth/login")
      .send({ email: "ana@example.org", password: "Chaplain#2026" });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({
      code: "OK",
      mfaRequired: false,
      user: { email: "ana@example.org" },
    });
    expect(login.body.accessToken).toEqual(expect.any(String));
    expect(login.body).not.toHaveProperty("mfaToken");
  });

  it("refuses bad input and missing tokens in the service's envelopes", async () => {
    const invalid = await http()
      .post("/api/v1/auth/register")
      .send({ name: "Ana", email: "not-an-email", password: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: "VALIDATION_ERROR", errors: expect.any(Array) });
    const anonymous = await http().delete("/api/v1/auth/logout");
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHENTICATED"]);
    const unknown = await http().get("/api/v1/nowhere");
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("the mock server: users", () => {
  it("answers the current user and an offset-paged list", async () => {
    const current = await http().get("/api/v1/users/current").set(auth());
    expect(current.status).toBe(200);
    expect(current.body.user).toMatchObject({ email: expect.stringMatching(/@example\.org$/) });
    const users = await http().get("/api/v1/users?limit=5&offset=20").set(auth());
    expect(users.body).toMatchObject({ total: MOCK_TOTAL, limit: 5, offset: 20, hasMore: false });
    expect(users.body.users).toHaveLength(MOCK_TOTAL - 20);
  });
});

describe("the mock server: members", () => {
  it("pages through realistic Philippine records with every enum value", async () => {
    const page = await http().get("/api/v1/members?limit=12").set(auth());
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: MOCK_TOTAL,
      limit: 12,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    const members = page.body.data as Record<string, string>[];
    const regions = REGIONS.map((region) => region.name);
    for (const member of members) {
      expect(regions).toContain(member.region);
      expect(member.nationality).toBe("Filipino");
      expect(member.mobilePhoneNumber).toMatch(/^09\d{9}$/);
    }
    expect(new Set(members.map((m) => m.status))).toEqual(
      new Set(["PENDING", "APPROVED", "REJECTED"]),
    );
    expect(new Set(members.map((m) => m.civilStatus)).size).toBe(5);
    expect(new Set(members.map((m) => m.gender))).toEqual(
      new Set(["MALE", "FEMALE", "PREFER_NOT_TO_SAY"]),
    );
    const last = await http().get("/api/v1/members?limit=12&page=2").set(auth());
    expect(last.body.data).toHaveLength(MOCK_TOTAL - 12);
  });

  it("honours an enum filter and answers an application with 201 and what was sent", async () => {
    const approved = await http().get("/api/v1/members?status=APPROVED").set(auth());
    expect(new Set(approved.body.data.map((m: { status: string }) => m.status))).toEqual(
      new Set(["APPROVED"]),
    );
    const applied = await http().post("/api/v1/members/apply").set(auth()).send(SAMPLE_APPLICATION);
    expect(applied.status).toBe(201);
    expect(applied.body).toMatchObject({
      code: "CREATED",
      data: { firstName: "Maria", province: "Cebu" },
    });
  });
});

describe("the mock server: offices", () => {
  it("lists every office level and answers a record by its id, 404 for the missing id", async () => {
    const offices = await http().get("/api/v1/offices?limit=11").set(auth());
    expect(new Set(offices.body.data.map((o: { level: string }) => o.level)).size).toBe(11);
    const office = await http().get(`/api/v1/offices/${ID}`).set(auth());
    expect(office.body).toMatchObject({ code: "OK", data: { id: ID } });
    const missing = await http().get(`/api/v1/offices/${MOCK_MISSING_ID}`).set(auth());
    expect([missing.status, missing.body.code]).toEqual([404, "NOT_FOUND"]);
    const notUuid = await http().get("/api/v1/offices/42").set(auth());
    expect([notUuid.status, notUuid.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const holders = await http().get(`/api/v1/offices/${ID}/holders`).set(auth());
    expect(holders.body.data[0]).toMatchObject({
      office: { level: expect.any(String) },
      member: { name: expect.any(String) },
    });
  });
});

describe("the mock server: branch services", () => {
  it("lists branches publicly and deletes with 204", async () => {
    const branches = await http().get("/api/v1/branch-service");
    expect(branches.status).toBe(200);
    expect(branches.body.data[0].title).toBe("Philippine Army");
    const deleted = await http().delete(`/api/v1/branch-service/${ID}`).set(auth());
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
  });
});

describe("the mock server: operations", () => {
  it("serves health, the root, the same OpenAPI paths and both explorers", async () => {
    expect((await http().get("/api/v1/health")).body).toMatchObject({ status: "ok" });
    expect((await http().get("/").set("accept", "application/json")).body).toMatchObject({
      docs: "/api/v1/docs",
    });
    const doc = (await http().get("/api/v1/openapi.json")).body as {
      paths: Record<string, object>;
    };
    for (const route of REST_ROUTES)
      expect(doc.paths[route.path.replace(/:(\w+)/g, "{$1}")]).toHaveProperty(
        route.method.toLowerCase(),
      );
    expect((await http().get("/api/v1/docs/")).text).toContain("swagger-ui");
    expect((await http().get("/graphql").set("accept", "text/html")).text).toContain("graphiql");
  });

  it("answers the same data to the same request on another start (seeded)", async () => {
    const again = await startMockServer({
      port: 0,
      host: "127.0.0.1",
      log: pino({ level: "silent" }),
    });
    try {
      const path = "/api/v1/members?page=2&limit=5";
      const first = await http().get(path).set(auth());
      const second = await supertest(again.url).get(path).set(auth());
      expect(second.body).toEqual(first.body);
    } finally {
      await again.close();
    }
  });
});

describe("the mock server: /graphql", () => {
  it("runs queries with the same role gate, and answers introspection", async () => {
    const query = "{ offices(limit: 3) { code data { name level } pagination { totalCount } } }";
    const signedIn = await http().post("/graphql").set(auth()).send({ query });
    expect(signedIn.body.data.offices).toMatchObject({
      code: "OK",
      pagination: { totalCount: MOCK_TOTAL },
    });
    expect(signedIn.body.data.offices.data).toHaveLength(3);
    const anonymous = await http().post("/graphql").send({ query });
    expect(anonymous.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    const types = await http()
      .post("/graphql")
      .send({ query: "{ __schema { queryType { name } } }" });
    expect(types.body.data.__schema.queryType.name).toBe("Query");
  });
});
