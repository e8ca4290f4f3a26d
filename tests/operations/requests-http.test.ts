import fs from "node:fs";
import path from "node:path";
import { BOOTSTRAP_ADMIN } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

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

const file = fs.readFileSync(path.join(__dirname, "..", "..", "requests.http"), "utf8");

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

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("requests.http", () => {
  const { variables, requests } = parse(file);

  it("has a request for every endpoint group", () => {
    const groups = new Set(requests.map((request) => request.title.split(":")[0]));
    expect([...groups].sort()).toEqual(
      [
        "Audit",
        "Auth",
        "Branch services",
        "GraphQL",
        "Members",
        "Office holders",
        "Office titles",
        "Operations",
        "Users",
      ].sort(),
    );
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
      const response = request.body ? await call.send(substitute(request.body)) : await call;
      expect([request.title, response.status < 300, response.body?.errors]).toEqual([
        request.title,
        true,
        undefined,
      ]);
      if (request.name) answers[request.name] = response.body;
    }
  });
});
