// Raw GraphQL text, not tests/graphql/operations: its subject is the request itself (body size, headers, tokens), not an operation.
import jwt from "jsonwebtoken";
import { buildAdmin, buildUser } from "../support/factories";
import { PRODUCTION_ENV, startTestApp, TEST_JWT_SECRET, type TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const ONE_MIB = 1024 * 1024;

describe("request bodies", () => {
  it("answers 413 in the error envelope for a body over 1 MiB, on REST and /graphql", async () => {
    const admin = await buildAdmin(app);
    const huge = JSON.stringify({ title: "big", description: "x".repeat(ONE_MIB) });
    const rest = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("authorization", `Bearer ${admin.token}`)
      .set("content-type", "application/json")
      .send(huge);
    expect(rest.status).toBe(413);
    // The limit in words, as the API's documented example says it.
    const message = "The request body is larger than 1 MiB";
    expect(rest.body).toEqual({ code: "PAYLOAD_TOO_LARGE", message });
    const doc = (await app.http().get("/api/v1/openapi.json")).body;
    const documented = doc.paths["/branch-service/create"].post.responses["413"];
    expect(documented.description).toBe("Body larger than 1 MiB");
    expect(documented.content["application/json"].examples.PAYLOAD_TOO_LARGE.value).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message,
    });
    // An upload's example names the file limit (FILE_MAX_BYTES, 4 MiB by default).
    const upload = doc.paths["/files"].post.responses["413"];
    expect(upload.content["application/json"].examples.PAYLOAD_TOO_LARGE.value.message).toBe(
      "The file is larger than 4 MiB, the most a file may be",
    );
    const graphql = await app
      .http()
      .post("/graphql")
      .set("content-type", "application/json")
      .send(JSON.stringify({ query: "{__typename}", pad: "x".repeat(ONE_MIB) }));
    expect(graphql.status).toBe(413);
    expect(graphql.body).toEqual({ code: "PAYLOAD_TOO_LARGE", message });
    expect(await rawDb(app).branchServices.estimatedDocumentCount()).toBe(0);
  });

  it("answers 400 BAD_REQUEST for malformed JSON, on REST and /graphql", async () => {
    const rest = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("content-type", "application/json")
      .send('{"title": ');
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({
      code: "BAD_REQUEST",
      message: "The request body is not valid JSON",
    });
    const graphql = await app
      .http()
      .post("/graphql")
      .set("content-type", "application/json")
      .send("{oops");
    expect(graphql.status).toBe(400);
    expect(graphql.body.code).toBe("BAD_REQUEST");
  });

  it("answers 400 for a JSON body that is not an object and 415 for a body that is not JSON", async () => {
    const array = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("content-type", "application/json")
      .send("[1,2]");
    expect(array.status).toBe(400);
    expect(array.body.code).toBe("BAD_REQUEST");
    const text = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("content-type", "text/plain")
      .send("title=x");
    expect(text.status).toBe(415);
    expect(text.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("unknown paths", () => {
  it.each([
    ["GET", "/api/v1/nothing-here"],
    ["POST", "/api/v1/webhook"],
    ["DELETE", "/api/v1/webhook/123"],
    ["GET", "/api/v1/branch-services"],
    ["PATCH", "/api/v1/branch-service/0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b"],
    ["GET", "/elsewhere"],
  ])("%s %s answers 404 in the error envelope", async (method, path) => {
    const response = await app.http()[method.toLowerCase() as "get"](path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });
});

describe("the shared auth context", () => {
  const createBody = { title: "Auth check", description: "d" };

  it.each([
    [
      "a token signed with another secret",
      () =>
        jwt.sign({ role: "ADMIN", sid: "s" }, "another-secret-another-secret-12345", {
          subject: "x",
          jwtid: "j",
        }),
    ],
    [
      "an expired token",
      () =>
        jwt.sign(
          { role: "ADMIN", sid: "s", exp: Math.floor(Date.now() / 1000) - 10 },
          TEST_JWT_SECRET,
          { subject: "x", jwtid: "j" },
        ),
    ],
    [
      "a token with alg none",
      () =>
        jwt.sign({ role: "ADMIN", sid: "s" }, "", { algorithm: "none", subject: "x", jwtid: "j" }),
    ],
    ["garbage", () => "not.a.jwt"],
  ])("refuses %s with 401 on REST and /graphql", async (_case, makeToken) => {
    const token = makeToken();
    const rest = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("authorization", `Bearer ${token}`)
      .send(createBody);
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe("UNAUTHENTICATED");
    const graphql = await app
      .http()
      .post("/graphql")
      .set("authorization", `Bearer ${token}`)
      .send({ query: 'mutation { createBranchService(title: "t", description: "d") { code } }' });
    expect(graphql.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("refuses the token of an account that no longer exists", async () => {
    const admin = await buildAdmin(app);
    await rawDb(app).users.deleteOne({ _id: admin.id });
    const response = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("authorization", `Bearer ${admin.token}`)
      .send(createBody);
    expect(response.status).toBe(401);
  });

  it("uses the stored role, not the role inside the token", async () => {
    const user = await buildUser(app);
    // Signed with the app's secret for the user's own live session, but claiming ADMIN.
    const { sid } = jwt.decode(user.token) as { sid: string };
    const forged = app.internals.tokens.signAccessToken(user.id, "ADMIN" as never, sid);
    const response = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("authorization", `Bearer ${forged}`)
      .send(createBody);
    expect(response.status).toBe(403);
  });

  it("refuses an Authorization header that is not a bearer token", async () => {
    const response = await app
      .http()
      .post("/api/v1/branch-service/create")
      .set("authorization", "Basic dXNlcjpwYXNz")
      .send(createBody);
    expect(response.status).toBe(401);
  });
});

describe("responses", () => {
  it("carry a request id and security headers, and no x-powered-by", async () => {
    // The id is the service's own: a client's x-request-id is logged beside it, not adopted.
    const response = await app.http().get("/api/v1/").set("x-request-id", "trace-123");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers["x-powered-by"]).toBeUndefined();
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    const generated = await app.http().get("/api/v1/");
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("carry no ETag: answers are per account and are never revalidated", async () => {
    const graphql = await app
      .http()
      .post("/graphql")
      .set("content-type", "application/json")
      .send({ query: "{ __typename }" });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.etag).toBeUndefined();
    const openApi = await app.http().get("/api/v1/openapi.json");
    expect(openApi.status).toBe(200);
    expect(openApi.headers.etag).toBeUndefined();
  });

  it("never carry a stack trace in production, even for unexpected failures", async () => {
    const prod = await startTestApp(PRODUCTION_ENV);
    try {
      const admin = await buildAdmin(prod);
      // Break the collection's data behind the service's back so that mapping it throws.
      await rawDb(prod).branchServices.collection.insertOne({
        _id: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b" as never,
        title: "broken",
      });
      const response = await prod
        .http()
        .get("/api/v1/branch-service/0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b")
        .set("authorization", `Bearer ${admin.token}`);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ code: "INTERNAL_SERVER_ERROR", message: expect.any(String) });
      expect(response.text).not.toMatch(/at .*\.(ts|js):\d+/);
    } finally {
      await prod.close();
    }
  });
});
