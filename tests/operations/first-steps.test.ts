import { GRAPHIQL_DEFAULT_HEADERS, GRAPHIQL_DEFAULT_QUERY } from "../../src/http/explorers";
import { bearer } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/** The first administrator exactly as the README starts `npm start`. */
const README_ADMIN = { ADMIN_EMAIL: "admin@example.org", ADMIN_PASSWORD: "Admin#Chaplain1" };

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(README_ADMIN);
});
afterAll(() => app?.close());

const signIn = async () => {
  const login = await app
    .http()
    .post("/api/v1/auth/login")
    .send({ email: README_ADMIN.ADMIN_EMAIL, password: README_ADMIN.ADMIN_PASSWORD });
  return { token: login.body.accessToken as string };
};

type Operation = {
  security?: unknown[];
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
};
const openApi = async () =>
  (await app.http().get("/api/v1/openapi.json")).body as {
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };

describe("Swagger UI, as a newcomer meets it", () => {
  it("signs in with the login example as written", async () => {
    const doc = await openApi();
    const example = doc.paths["/auth/login"].post.requestBody?.content["application/json"].example;
    const login = await app.http().post("/api/v1/auth/login").send(example);
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { role: "ADMIN" }, accessToken: expect.any(String) });
  });

  it("creates an account with the register example as written, once", async () => {
    const doc = await openApi();
    const example = doc.paths["/auth/register"].post.requestBody?.content["application/json"]
      .example as { email: string };
    const created = await app.http().post("/api/v1/auth/register").send(example);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ user: { email: example.email, role: "MEMBER" } });
    // The address is taken now: the documented conflict.
    const again = await app.http().post("/api/v1/auth/register").send(example);
    expect(again.status).toBe(409);
  });

  it("offers only a scheme the Authorize dialog can use", async () => {
    const doc = await openApi();
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["bearerAuth"]);
  });
});

describe("GraphiQL, as a newcomer meets it", () => {
  it("opens on an example operation with a headers template", async () => {
    const script = (await app.http().get("/graphql/assets/explorer.js")).text;
    expect(script).toContain(`const defaultQuery = ${JSON.stringify(GRAPHIQL_DEFAULT_QUERY)};`);
    expect(script).toContain(`const defaultHeaders = ${JSON.stringify(GRAPHIQL_DEFAULT_HEADERS)};`);
    expect(script).toMatch(/GraphiQL, \{ fetcher, defaultQuery, defaultHeaders,/);
    expect(JSON.parse(GRAPHIQL_DEFAULT_HEADERS)).toEqual({ Authorization: "Bearer <accessToken>" });
  });

  it("whose operation runs as it is once the template holds a token", async () => {
    const admin = await signIn();
    const run = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({ query: GRAPHIQL_DEFAULT_QUERY });
    expect(run.body.errors).toBeUndefined();
    expect(run.body.data.offices.pagination).toMatchObject({ totalCount: expect.any(Number) });
  });
});

describe("the member CSV export", () => {
  it("starts with a UTF-8 byte order mark, so Excel reads Niño as Niño", async () => {
    const admin = await signIn();
    const csv = await app
      .http()
      .get("/api/v1/members/export.csv")
      .set(bearer(admin))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      });
    const bytes = csv.body as Buffer;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toMatch(/^id,status,/);
  });
});
