import { execFileSync } from "node:child_process";
import path from "node:path";
import { MEMBER_EXPORT_PATH } from "../../src/http/member-export";
import { restRoutes } from "../../src/graphql/rest-route";
import { buildAppSchemaSync } from "../../src/graphql/schema";
import { CSV_HEADER } from "../../src/modules/members/member-csv";
import { BranchServicesDocument } from "../graphql/generated";
import { bearer, buildAdmin, buildUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

const REST_ROUTES = restRoutes(buildAppSchemaSync());

let app: TestApp;
let doc: {
  openapi: string;
  servers: { url: string }[];
  paths: Record<
    string,
    Record<string, { security: unknown[]; responses: Record<string, unknown>; operationId: string }>
  >;
};

beforeAll(async () => {
  app = await startTestApp();
  doc = (await app.http().get("/api/v1/openapi.json")).body;
});
afterAll(() => app?.close());

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** The byte routes of stored files (src/http/file-routes.ts), named here, not read from their table. */
const BYTE_ROUTES = [
  { method: "POST", path: "/files", operation: "upload a file" },
  { method: "GET", path: "/files/:id", operation: "read a private file" },
  { method: "GET", path: "/files/public/:id", operation: "read a public file" },
  {
    method: "POST",
    path: "/members/requirements/upload",
    operation: "the site's requirementUploader",
  },
  {
    method: "POST",
    path: "/members/certificates/upload",
    operation: "the site's certificate uploader",
  },
  {
    method: "POST",
    path: "/members/public-records/upload",
    operation: "the site's public-record uploader",
  },
  { method: "POST", path: "/users/avatar/upload", operation: "the site's avatarUploader" },
  { method: "HEAD", path: "/files/ingest/:ticket", operation: "an upload link's state" },
  { method: "PUT", path: "/files/ingest/:ticket", operation: "an upload by link" },
];

/** Mounted beside the Sofa routes: plain express routes, described where the document is made. */
const PLAIN_ROUTES = [
  { method: "GET", path: MEMBER_EXPORT_PATH, operation: "member export" },
  ...BYTE_ROUTES,
];

describe("GET /api/v1/openapi.json", () => {
  it("lists exactly the routes the server mounts, under /api/v1", () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      [...REST_ROUTES, ...PLAIN_ROUTES].map((r) => `${r.method} ${openApiPath(r.path)}`).sort(),
    );
  });

  it("gives each route its real success status", () => {
    for (const route of REST_ROUTES) {
      const responses = doc.paths[openApiPath(route.path)][route.method.toLowerCase()].responses;
      expect(Object.keys(responses)).toContain(String(route.status));
    }
    expect(doc.paths["/branch-service/create"].post.responses).toHaveProperty("201");
    expect(doc.paths["/branch-service/{id}"].delete.responses).toHaveProperty("204");
    expect(doc.paths["/branch-service/{id}"].delete.responses).not.toHaveProperty("200");
  });

  it("marks bearer security exactly where the server asks for a token", async () => {
    const admin = await buildAdmin(app);
    expect(admin.token).toBeTruthy();
    for (const route of [...REST_ROUTES, ...PLAIN_ROUTES]) {
      const operation = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const path = route.path.replace(/:id/, "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b");
      const request = app.http()[route.method.toLowerCase() as "get"](`/api/v1${path}`);
      // A HEAD carries no body.
      const anonymous = route.method === "HEAD" ? await request : await request.send({});
      // `[{}, {bearerAuth: []}]`: a token is optional (register).
      const secured =
        operation.security.length > 0 &&
        operation.security.every((requirement) => Object.keys(requirement as object).length > 0);
      // The refresh cookie asks for no scheme (the browser sends it), yet without it: 401.
      const byCookie = "refreshCookie" in route && route.refreshCookie === "rotates";
      expect([route.operation, anonymous.status === 401]).toEqual([
        route.operation,
        secured || byCookie,
      ]);
      if (secured || byCookie) expect(operation.responses).toHaveProperty("401");
    }
  });

  it("documents the error envelope and the validation shape", () => {
    const create = doc.paths["/branch-service/create"].post.responses as Record<
      string,
      { content: { "application/json": { schema: { $ref: string } } } }
    >;
    expect(create["400"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ValidationErrorResponse",
    );
    expect(create["409"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ErrorResponse",
    );
    expect(create).toHaveProperty("403");
  });
});

describe("the accounts paths in OpenAPI", () => {
  type Operation = {
    parameters?: { name: string; in: string }[];
    requestBody?: { content: { "application/json": { schema: { properties: object } } } };
    responses: Record<string, { headers?: Record<string, unknown> }>;
    security: Record<string, unknown>[];
  };
  const operation = (path: string, method: string) =>
    doc.paths[path][method] as unknown as Operation;

  it("documents the refresh cookie where it is set, rotated, read and cleared", () => {
    for (const [path, method] of [
      ["/auth/register", "post"],
      ["/auth/login", "post"],
      ["/auth/mfa/verify", "post"],
      ["/auth/refresh-token", "get"],
      ["/auth/logout", "delete"],
    ]) {
      expect([path, operation(path, method).responses["200"].headers]).toEqual([
        path,
        { "Set-Cookie": expect.objectContaining({ description: expect.any(String) }) },
      ]);
    }
    // The HttpOnly cookie travels by itself: no scheme for Swagger UI's Authorize dialog.
    expect(operation("/auth/refresh-token", "get").security).toEqual([]);
    expect(operation("/auth/login", "post").responses).toHaveProperty("401");
    expect(operation("/auth/register", "post").responses).toHaveProperty("409");
  });

  it("puts the reset token in the query and every other body argument in the body only", () => {
    const reset = operation("/auth/reset-password", "post");
    expect(reset.parameters).toEqual([expect.objectContaining({ name: "token", in: "query" })]);
    expect(Object.keys(reset.requestBody!.content["application/json"].schema.properties)).toEqual([
      "password",
      "confirmPassword",
    ]);
    expect(operation("/branch-service/{id}", "put").parameters).toEqual([
      expect.objectContaining({ name: "id", in: "path" }),
    ]);
  });

  it("gives the user deletes 204 and the admin paths 403", () => {
    expect(operation("/users/{userId}", "delete").responses).toHaveProperty("204");
    expect(operation("/users/current", "delete").responses).toHaveProperty("204");
    expect(operation("/users", "get").responses).toHaveProperty("403");
    expect(operation("/users/current", "get").responses).not.toHaveProperty("403");
  });
});

describe("parameters with defaults and path parameters", () => {
  type Operation = {
    parameters?: { name: string; in: string; required?: boolean; schema?: { default?: unknown } }[];
    requestBody?: { content: { "application/json": { schema: { properties?: object } } } };
  };
  const operation = (path: string, method: string) =>
    (doc.paths[path] as unknown as Record<string, Operation>)[method];

  it("marks arguments with a default optional and shows the default", () => {
    const parameters = operation("/offices", "get").parameters ?? [];
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    expect(byName.page).toMatchObject({ required: false, schema: { default: 1 } });
    expect(byName.limit).toMatchObject({ required: false, schema: { default: 10 } });
    expect(byName.sortBy).toMatchObject({ required: false, schema: { default: "createdAt" } });
    expect(byName.sortOrder).toMatchObject({ required: false, schema: { default: "desc" } });
    const holders = operation("/offices/{id}/holders", "get").parameters ?? [];
    expect(holders.find((p) => p.name === "id")).toMatchObject({ in: "path", required: true });
  });

  it("does not ask for path parameters in the body, nor for a body that would be empty", () => {
    expect(operation("/offices/{id}/holders/{holderId}/end", "patch").requestBody).toBeUndefined();
    const update = operation("/offices/{id}", "put").requestBody;
    const properties = Object.keys(update?.content["application/json"].schema.properties ?? {});
    expect(properties).toContain("maxSlots");
    expect(properties).not.toContain("id");
  });
});

describe("the member CSV export in OpenAPI", () => {
  type Parameter = { name: string; in: string; required?: boolean; schema?: object };
  type Operation = {
    operationId: string;
    tags: string[];
    description: string;
    parameters: Parameter[];
    security: Record<string, unknown>[];
    responses: Record<
      string,
      {
        description: string;
        headers?: Record<string, unknown>;
        content: Record<string, { schema: { $ref?: string; type?: string; format?: string } }>;
      }
    >;
  };
  const operation = (path: string) => (doc.paths[path] as unknown as Record<string, Operation>).get;

  it("documents GET /members/export.csv with the list's filters, as the list documents them", () => {
    const csvExport = operation("/members/export.csv");
    const list = operation("/members");
    expect(csvExport.operationId).toBe("exportMembersCsv");
    expect(csvExport.tags).toEqual(list.tags);
    expect(csvExport.parameters.map((p) => p.name).sort()).toEqual([
      "includeArchived",
      "search",
      "status",
    ]);
    for (const parameter of csvExport.parameters) {
      expect(parameter).toEqual(list.parameters.find((p) => p.name === parameter.name));
      expect(parameter).toMatchObject({ in: "query", required: false });
    }
    const byName = Object.fromEntries(csvExport.parameters.map((p) => [p.name, p.schema]));
    expect(byName.status).toEqual({ $ref: "#/components/schemas/MemberStatus" });
    expect(byName.includeArchived).toMatchObject({ type: "boolean", default: false });
    expect(byName.search).toMatchObject({ type: "string" });
  });

  it("answers 200 with text/csv whose columns are the export's header", () => {
    const success = operation("/members/export.csv").responses["200"];
    expect(Object.keys(success.content)).toEqual(["text/csv"]);
    expect(success.content["text/csv"].schema).toEqual({ type: "string", format: "binary" });
    for (const column of CSV_HEADER.trim().split(","))
      expect(success.description).toContain(column);
    expect(success.headers).toHaveProperty("Content-Disposition");
  });

  it("is documented as an admin operation with bearer security and the error envelope", () => {
    const csvExport = operation("/members/export.csv");
    expect(csvExport.security).toEqual([{ bearerAuth: [] }]);
    expect(csvExport.description).toMatch(/^Roles: ADMIN\./);
    const { responses } = csvExport;
    expect(Object.keys(responses).sort()).toEqual(
      Object.keys(operation("/members").responses).sort(),
    );
    expect(responses["400"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ValidationErrorResponse",
    );
    for (const status of ["401", "403"]) {
      expect(responses[status].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/ErrorResponse",
      );
    }
  });

  it("matches what the route answers: 401, 403, 400 in the envelope, and text/csv", async () => {
    const admin = await buildAdmin(app);
    const member = await buildUser(app);
    const url = `/api/v1${MEMBER_EXPORT_PATH}`;
    const anonymous = await app.http().get(url);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHENTICATED"]);
    const forbidden = await app.http().get(url).set(bearer(member));
    expect([forbidden.status, forbidden.body.code]).toEqual([403, "FORBIDDEN"]);
    const invalid = await app.http().get(url).query({ status: "MAYBE" }).set(bearer(admin));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: [expect.objectContaining({ path: "status" })],
    });
    const csv = await app.http().get(url).query({ includeArchived: true }).set(bearer(admin));
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
  });
});

describe("the byte routes of files in OpenAPI", () => {
  type Content = Record<string, { schema: Record<string, unknown> }>;
  type Operation = {
    operationId: string;
    tags: string[];
    security: Record<string, unknown>[];
    parameters: { name: string; in: string; required?: boolean }[];
    requestBody?: { required: boolean; content: Content };
    responses: Record<string, { headers?: Record<string, unknown>; content: Content }>;
  };
  const operation = (path: string, method: string) =>
    (doc.paths[path] as unknown as Record<string, Operation> | undefined)?.[method];

  it("documents every byte route the server mounts, as a Files operation", async () => {
    for (const route of BYTE_ROUTES) {
      const documented = operation(openApiPath(route.path), route.method.toLowerCase());
      expect([route.operation, documented?.tags]).toEqual([route.operation, ["Files"]]);
      // Mounted: the route's own answer, not the unknown path's.
      const path = `/api/v1${route.path.replace(":id", "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b")}`;
      const answer = await app.http()[route.method.toLowerCase() as "get"](path);
      expect([route.operation, answer.body.message]).not.toEqual([
        route.operation,
        expect.stringMatching(/^No route/),
      ]);
    }
  });

  it("POST /files: a multipart body of `file` and `purpose`, 201 with the record, 4xx as {code,message}", () => {
    const upload = operation("/files", "post")!;
    expect(upload.security).toEqual([{ bearerAuth: [] }]);
    const form = upload.requestBody!.content["multipart/form-data"].schema as {
      required: string[];
      properties: Record<string, { type: string; format?: string; enum?: string[] }>;
    };
    expect(form.required.sort()).toEqual(["file", "purpose"]);
    expect(form.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(form.properties.purpose.enum).toContain("REQUIREMENT");
    expect(upload.responses["201"].content["application/json"].schema).toMatchObject({
      properties: { data: { $ref: "#/components/schemas/StoredFile" } },
    });
    for (const status of ["401", "403", "409", "413", "415", "429"]) {
      expect([status, upload.responses[status]?.content["application/json"].schema]).toEqual([
        status,
        { $ref: "#/components/schemas/ErrorResponse" },
      ]);
    }
    expect(upload.responses["400"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/ValidationErrorResponse",
    );
  });

  it("GET /files/{id} and /files/public/{id}: the bytes, their headers and one 404", () => {
    const read = operation("/files/{id}", "get")!;
    const readPublic = operation("/files/public/{id}", "get")!;
    // A Bearer or a signed link: the token is optional.
    expect(read.security).toEqual([{}, { bearerAuth: [] }]);
    expect(readPublic.security).toEqual([]);
    expect(read.parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual([
      "expires",
      "reader",
      "signature",
    ]);
    for (const bytes of [read, readPublic]) {
      const success = bytes.responses["200"];
      expect(Object.keys(success.content)).toEqual(
        expect.arrayContaining(["application/pdf", "image/jpeg", "image/png", "image/webp"]),
      );
      expect(Object.keys(success.headers!)).toEqual(
        expect.arrayContaining(["Content-Disposition", "X-Content-Type-Options", "Cache-Control"]),
      );
      expect(bytes.responses["404"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/ErrorResponse",
      });
      expect(bytes.responses).not.toHaveProperty("401");
    }
  });
});

describe("explorers served from local files", () => {
  it("serves Swagger UI and its assets without any external URL", async () => {
    const page = await app.http().get("/api/v1/docs/");
    expect(page.status).toBe(200);
    expect(page.text).toContain("swagger-ui-bundle.js");
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of ["assets/swagger-ui-bundle.js", "assets/swagger-ui.css", "init.js"]) {
      const response = await app.http().get(`/api/v1/docs/${asset}`);
      expect([asset, response.status]).toEqual([asset, 200]);
    }
    expect((await app.http().get("/api/v1/docs")).status).toBe(301);
  });

  it("serves Swagger UI's bundle as a file without loading it into the process", () => {
    // swagger-ui-dist's main module requires its 3.4 MB browser bundle (about 10 MB of heap).
    const loaded = execFileSync(
      process.execPath,
      [
        "-r",
        "reflect-metadata",
        "-e",
        // The compiled app (built by jest's global set-up), as a started service loads it.
        'require("./dist/src/http/app"); console.log(Object.keys(require.cache).filter((file) => file.includes("swagger-ui-dist")).join("\\n"))',
      ],
      { cwd: path.join(__dirname, "..", ".."), encoding: "utf8" },
    );
    expect(loaded.trim()).toBe("");
  });

  it("serves GraphiQL to a browser on GET /graphql, and GraphQL to API clients", async () => {
    const page = await app.http().get("/graphql").set("accept", "text/html");
    expect(page.status).toBe(200);
    expect(page.text).toContain("graphiql");
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of [
      "react.js",
      "react-dom.js",
      "graphiql.js",
      "graphiql.css",
      "explorer.js",
    ]) {
      expect([asset, (await app.http().get(`/graphql/assets/${asset}`)).status]).toEqual([
        asset,
        200,
      ]);
    }
    const api = await app.graphql(BranchServicesDocument);
    expect(api.data?.branchServices.code).toBe("OK");
  });
});
