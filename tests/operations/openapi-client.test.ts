import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { startTestApp, type TestApp } from "../support/test-app";

const run = promisify(execFile);
const root = path.join(__dirname, "..", "..");

let app: TestApp;
let doc: OpenApi;
/** Inside node_modules, so the generated client resolves openapi-fetch as any project would. */
let workDir: string;

interface Operation {
  summary?: string;
  tags: string[];
  security: Record<string, unknown>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { examples?: Record<string, { value: { code: string } }> }>;
    }
  >;
}
interface OpenApi {
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
}

beforeAll(async () => {
  app = await startTestApp();
  doc = (await app.http().get("/api/v1/openapi.json")).body as OpenApi;
  workDir = path.join(
    root,
    "node_modules",
    ".cache",
    `openapi-client-${randomBytes(4).toString("hex")}`,
  );
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "openapi.json"), JSON.stringify(doc));
});
afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  await app?.close();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${route}`,
      operation,
    })),
  );

describe("the OpenAPI document a client is generated from", () => {
  it("passes Redocly's recommended rules without an error", async () => {
    const { stdout } = await run(
      process.execPath,
      // `npm run openapi:lint`'s script, compiled by jest's global set-up.
      ["dist/scripts/lint-openapi.js", path.join(workDir, "openapi.json")],
      { cwd: root },
    ).catch((failure: { stdout: string }) => failure);
    const problems = stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as { severity: string; rule: string; message: string; pointer: string },
      );
    expect(problems.filter((problem) => problem.severity === "error")).toEqual([]);
    // The warnings left are the ones docs/decisions.md explains.
    // The contract fixes GET /members/public/{id} beside /members/{id}/…: other methods or a
    // UUID-only {id} keep them apart, which Redocly cannot see. Any other ambiguity is ours.
    const ambiguous = problems.filter((problem) => problem.rule === "no-ambiguous-paths");
    // The client's DELETE /users/sessions/{id} sits beside GET /users/{userId}/export: no method
    // is on both, so no request can reach the wrong one.
    for (const problem of ambiguous) {
      expect(problem.message).toMatch(
        /`\/members\/public\/\{id\}`|`\/users\/\{userId\}\/export` and `\/users\/sessions\/\{id\}`/,
      );
    }
    const warned = new Set(
      problems.filter((problem) => !ambiguous.includes(problem)).map((problem) => problem.rule),
    );
    for (const rule of warned)
      expect([
        "info-license",
        "no-illogical-composition-keywords",
        "no-unused-components",
      ]).toContain(rule);
  }, 60_000);

  it("gives every operation a summary and lists the tags in a reader's order, Auth first", () => {
    for (const { name, operation } of operations())
      expect([name, typeof operation.summary, (operation.summary ?? "").length > 3]).toEqual([
        name,
        "string",
        true,
      ]);
    expect(doc.tags[0]).toEqual({ name: "Auth", description: expect.any(String) });
    const used = new Set(operations().flatMap(({ operation }) => operation.tags));
    expect(doc.tags.map((tag) => tag.name)).toEqual(expect.arrayContaining([...used]));
  });

  it("gives each error status an example with its own code", () => {
    const expected: Record<string, string> = {
      "400": "VALIDATION_ERROR",
      "401": "UNAUTHENTICATED",
      "403": "FORBIDDEN",
      "404": "NOT_FOUND",
      "409": "CONFLICT",
      "413": "PAYLOAD_TOO_LARGE",
      "415": "UNSUPPORTED_MEDIA_TYPE",
      "429": "TOO_MANY_REQUESTS",
      "500": "INTERNAL_SERVER_ERROR",
      "503": "SERVICE_UNAVAILABLE",
    };
    for (const { name, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const examples = response.content?.["application/json"]?.examples ?? {};
        const codes = Object.values(examples).map((example) => example.value.code);
        expect([name, status, codes]).toEqual([
          name,
          status,
          expect.arrayContaining([expected[status]]),
        ]);
      }
    }
    const login = doc.paths["/auth/login"].post.responses["401"].content!["application/json"];
    expect(Object.keys(login.examples!)).toContain("INVALID_CREDENTIALS");
    expect(
      doc.paths["/members/apply"].post.responses["403"].content!["application/json"].examples,
    ).toHaveProperty("EMAIL_NOT_VERIFIED");
    expect(doc.paths["/auth/login"].post.responses["429"].headers).toHaveProperty("Retry-After");
  });

  it("has an example for every request body, an optional bearer on register, and no root types", () => {
    for (const { name, operation } of operations()) {
      if (!operation.requestBody) continue;
      // JSON everywhere but the upload's multipart form.
      const [media] = Object.values(operation.requestBody.content);
      expect([name, media.example]).toEqual([name, expect.any(Object)]);
    }
    expect(doc.paths["/auth/register"].post.security).toEqual([{}, { bearerAuth: [] }]);
    expect(doc.components.schemas).not.toHaveProperty("Query");
    expect(doc.components.schemas).not.toHaveProperty("Mutation");
  });

  it("says nullable where the service answers null", () => {
    const office = doc.components.schemas.OfficeTitle.properties!;
    expect(office.maxSlots).toMatchObject({ nullable: true });
    expect(office.name.nullable).toBeUndefined();
    // Left out when null on REST (omitWhenNull), so never null there.
    expect(doc.components.schemas.AuthPayload.properties!.accessToken.nullable).toBeUndefined();
  });
});

describe("a client generated with openapi-typescript and openapi-fetch", () => {
  it("type-checks and signs up, signs in and lists offices on the real service", async () => {
    await run(
      process.execPath,
      [
        path.join(root, "node_modules", "openapi-typescript", "bin", "cli.js"),
        path.join(workDir, "openapi.json"),
        "--output",
        path.join(workDir, "api.d.ts"),
      ],
      { cwd: workDir },
    );
    fs.writeFileSync(path.join(workDir, "client.ts"), CLIENT);
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    await run(
      process.execPath,
      [
        tsc,
        "--strict",
        "--noUnusedLocals",
        "--target",
        "es2022",
        "--module",
        "node16",
        "--moduleResolution",
        "node16",
        "--skipLibCheck",
        "client.ts",
      ],
      { cwd: workDir },
    ).catch((failure: { stdout: string }) => {
      throw new Error(`the generated client does not type-check:\n${failure.stdout}`);
    });
    const email = `client-${randomBytes(4).toString("hex")}@example.org`;
    const { stdout } = await run(process.execPath, ["client.js", `${app.url}/api/v1`, email], {
      cwd: workDir,
    });
    expect(JSON.parse(stdout)).toEqual({
      registered: email,
      signedIn: true,
      officesPage: 1,
      missingOffice: "NOT_FOUND",
      unauthenticated: "UNAUTHENTICATED",
    });
  }, 90_000);
});

/** What an application's code would look like: typed paths, bodies, answers and errors. */
const CLIENT = `import createClient from "openapi-fetch";
import type { paths } from "./api";

async function main(baseUrl: string, email: string): Promise<void> {
  const api = createClient<paths>({ baseUrl });
  const registered = await api.POST("/auth/register", {
    body: { name: "Maria Santos", email, password: "Chaplain#2026" },
  });
  if (!registered.data) throw new Error(JSON.stringify(registered.error));
  const signedIn = await api.POST("/auth/login", { body: { email, password: "Chaplain#2026" } });
  const token: string | undefined = signedIn.data?.accessToken;
  if (!token) throw new Error(JSON.stringify(signedIn.error));
  const headers = { Authorization: \`Bearer \${token}\` };
  const offices = await api.GET("/offices", { params: { query: { page: 1, limit: 5 } }, headers });
  const missing = await api.GET("/offices/{id}", {
    params: { path: { id: "0190a5f4-1c2d-7e3f-8a9b-0c1d2e3f4a5b" } },
    headers,
  });
  const anonymous = await api.GET("/users/current");
  const user: { email: string } | undefined = registered.data.user;
  console.log(
    JSON.stringify({
      registered: user?.email,
      signedIn: signedIn.data?.mfaRequired === false,
      officesPage: offices.data?.pagination.currentPage,
      missingOffice: missing.error?.code,
      unauthenticated: anonymous.error?.code,
    }),
  );
}

void main(process.argv[2], process.argv[3]);
`;
