// Raw GraphQL text, not tests/graphql/operations: misspelt fields and introspection-free answers are its subject.
import { bearer, buildUser, TEST_PASSWORD } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/** Issue 35, point 6: no-store, no schema hints without introspection, JSON bodies only. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ GRAPHQL_INTROSPECTION: "false" });
});
afterAll(() => app?.close());

describe("Cache-Control", () => {
  it("is no-store on answers with tokens or personal data, REST and /graphql", async () => {
    const user = await buildUser(app);
    const signIn = await app
      .http()
      .post("/api/v1/auth/login")
      .send({ email: user.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.headers["cache-control"]).toBe("no-store");
    const me = await app.http().get("/api/v1/users/current").set(bearer(user));
    expect(me.status).toBe(200);
    expect(me.headers["cache-control"]).toBe("no-store");
    const graphql = await app
      .http()
      .post("/graphql")
      .set(bearer(user))
      .send({ query: "{ currentUser { user { email } } }" });
    expect(graphql.status).toBe(200);
    expect(graphql.headers["cache-control"]).toBe("no-store");
    // Errors too: a 401 and a 404 answer of the API.
    const refused = await app.http().get("/api/v1/users/current");
    expect(refused.status).toBe(401);
    expect(refused.headers["cache-control"]).toBe("no-store");
    const unknown = await app.http().get("/api/v1/no-such-path");
    expect(unknown.headers["cache-control"]).toBe("no-store");
  });

  it("leaves the explorers' static files cacheable", async () => {
    const asset = await app.http().get("/api/v1/docs/assets/swagger-ui.css");
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toMatch(/max-age/);
  });
});

describe("GraphQL errors without introspection", () => {
  it("suggest no field names", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .send({ query: 'mutation { deleteUsr(id: "x") { code } }' });
    expect(response.status).toBe(400);
    const message = (response.body as { errors: { message: string }[] }).errors[0].message;
    expect(message).toMatch(/Cannot query field "deleteUsr"/);
    expect(message).not.toMatch(/Did you mean/);
    expect(JSON.stringify(response.body)).not.toMatch(/deleteUser/);
  });
});

describe("request bodies must be labelled application/json", () => {
  const body = JSON.stringify({ email: "nobody@example.org", password: "Wrong#Pass1" });

  it.each([
    ["no content type", undefined],
    ["application/x-evil+json", "application/x-evil+json"],
    ["text/plain", "text/plain"],
    ["application/jsonp", "application/jsonp"],
  ])("REST answers 415 for %s", async (_label, contentType) => {
    const request = app.http().post("/api/v1/auth/login");
    if (contentType) request.set("content-type", contentType);
    else request.unset("content-type");
    // supertest labels a string body text/plain unless told otherwise; a Buffer goes unlabelled.
    const response = await request.send(contentType ? body : Buffer.from(body));
    expect(response.status).toBe(415);
    expect(response.body).toEqual({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: expect.any(String),
    });
  });

  it("REST accepts application/json with a charset, and body-less GET and DELETE", async () => {
    const user = await buildUser(app);
    const login = await app
      .http()
      .post("/api/v1/auth/login")
      .set("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ email: user.email, password: TEST_PASSWORD }));
    expect(login.status).toBe(200);
    expect((await app.http().get("/api/v1/users/current").set(bearer(user))).status).toBe(200);
    expect((await app.http().delete("/api/v1/auth/logout").set(bearer(user))).status).toBe(200);
  });

  it.each([
    ["application/x-evil+json", "application/x-evil+json"],
    ["text/plain", "text/plain"],
  ])("/graphql answers 415 for %s", async (_label, contentType) => {
    const response = await app
      .http()
      .post("/graphql")
      .set("content-type", contentType)
      .set("apollo-require-preflight", "true")
      .send(JSON.stringify({ query: "{ __typename }" }));
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ code: "UNSUPPORTED_MEDIA_TYPE", message: expect.any(String) });
  });

  it("/graphql still answers GET queries and JSON posts with a charset", async () => {
    const get = await app
      .http()
      .get("/graphql?query=%7B__typename%7D")
      .set("apollo-require-preflight", "true")
      .set("accept", "application/json");
    expect(get.status).toBe(200);
    const post = await app
      .http()
      .post("/graphql")
      .set("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ query: "{ __typename }" }));
    expect(post.status).toBe(200);
    expect(post.body).toEqual({ data: { __typename: "Query" } });
  });
});
