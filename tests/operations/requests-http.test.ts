import fs from "node:fs";
import path from "node:path";
import { BOOTSTRAP_ADMIN, startTestApp, type TestApp } from "../support/test-app";

/**
 * Runs requests.http (VS Code REST Client syntax) from the top against the real service, so
 * the file a newcomer starts from keeps working as the API changes.
 */
interface HttpRequest {
  title: string;
  name?: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const ROOT = path.join(__dirname, "..", "..");
const file = fs.readFileSync(path.join(ROOT, "requests.http"), "utf8");

function parse(text: string): { variables: Record<string, string>; requests: HttpRequest[] } {
  const [preamble, ...blocks] = text.split(/^###/m);
  const variables = Object.fromEntries(
    [...preamble.matchAll(/^@(\w+)\s*=\s*(.*)$/gm)].map((match) => [match[1], match[2].trim()]),
  );
  const requests = blocks.map((block) => {
    const [title, ...lines] = block.split("\n");
    const name = /^# @name (\w+)$/m.exec(block)?.[1];
    const content = lines.filter((line) => !line.startsWith("#"));
    const start = content.findIndex((line) => line.trim() !== "");
    const [method, url] = content[start].trim().split(/\s+/);
    const headers: Record<string, string> = {};
    let index = start + 1;
    for (; index < content.length && content[index].trim() !== ""; index++) {
      const [header, ...value] = content[index].split(":");
      headers[header.trim().toLowerCase()] = value.join(":").trim();
    }
    return {
      title: title.trim(),
      name,
      method,
      url,
      headers,
      body: content.slice(index).join("\n").trim(),
    };
  });
  return { variables, requests };
}

/**
 * The body as REST Client sends it: a multipart one with CRLF line ends and each `< ./file`
 * line replaced by that file's bytes (relative to requests.http).
 */
function bodyOf(request: HttpRequest, substitute: (text: string) => string): string | Buffer {
  const text = substitute(request.body);
  if (!request.headers["content-type"]?.startsWith("multipart/form-data")) return text;
  const parts = text.split("\n").map((line) => {
    const included = /^< (.+)$/.exec(line.trim());
    return included ? fs.readFileSync(path.join(ROOT, included[1])) : Buffer.from(line);
  });
  return Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [CRLF, part])));
}
const CRLF = Buffer.from("\r\n");

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("requests.http", () => {
  const { variables, requests } = parse(file);

  it("has a request for every tag of the OpenAPI document, each titled by its tag", async () => {
    const document = (await app.http().get("/api/v1/openapi.json")).body as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^/api/v1${template.replace(/\{\w+\}/g, "[^/]+")}$`),
        tags: operation.tags ?? [],
      })),
    );
    const covered = new Set<string>();
    for (const request of requests) {
      // A value answered by an earlier request stands in as one path segment.
      const pathname = request.url
        .replace(/\{\{[^}]+\}\}/g, (all) => (all === "{{baseUrl}}" ? "" : "x"))
        .split("?")[0];
      const operation = operations.find(
        (candidate) => candidate.method === request.method && candidate.pattern.test(pathname),
      );
      for (const tag of operation?.tags ?? []) {
        covered.add(tag);
        expect([request.title, request.title.startsWith(`${tag}:`)]).toEqual([request.title, true]);
      }
    }
    const missing = document.tags.map((tag) => tag.name).filter((tag) => !covered.has(tag));
    expect(missing).toEqual([]);
  });

  it("runs from the top against the service, each request answered with success", async () => {
    const values: Record<string, string> = {
      ...variables,
      adminEmail: BOOTSTRAP_ADMIN.email,
      adminPassword: BOOTSTRAP_ADMIN.password,
    };
    const answers: Record<string, unknown> = {};
    const substitute = (text: string) =>
      text.replace(/\{\{([^}]+)\}\}/g, (_all, expression: string) => {
        const random = /^\$randomInt (\d+) (\d+)$/.exec(expression);
        if (random)
          return String(
            Number(random[1]) + Math.floor(Math.random() * (Number(random[2]) - Number(random[1]))),
          );
        const answer = /^(\w+)\.response\.body\.\$\.(.+)$/.exec(expression);
        if (answer)
          return String(
            answer[2]
              .split(".")
              .reduce<unknown>(
                (value, key) => (value as Record<string, unknown>)[key],
                answers[answer[1]],
              ),
          );
        if (expression === "baseUrl") return app.url;
        if (!(expression in values))
          throw new Error(`requests.http uses an unknown {{${expression}}}`);
        return values[expression];
      });
    // One agent: it keeps the refreshToken cookie as REST Client does.
    const agent = app.http();
    for (const request of requests) {
      const url = new URL(substitute(request.url));
      const call = agent[request.method.toLowerCase() as "get"](url.pathname + url.search);
      for (const [header, value] of Object.entries(request.headers))
        call.set(header, substitute(value));
      const response = request.body ? await call.send(bodyOf(request, substitute)) : await call;
      expect([request.title, response.status < 300, response.body?.errors]).toEqual([
        request.title,
        true,
        undefined,
      ]);
      if (request.name) answers[request.name] = response.body;
    }
    // Some fifty requests, one of them rendering PDFs: more than the default on a busy machine.
  }, 180_000);
});
