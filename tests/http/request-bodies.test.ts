import net from "node:net";
import { rawDb } from "../support/raw-db";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * JSON bodies at the edge (issue 53.5 and 53.7): a body declared over the 1 MiB limit is
 * refused from its Content-Length alone, before any of it is read, and a UTF-8 byte order mark
 * before the JSON is ignored (RFC 8259 §8.1; the decision is in docs/security.md).
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const DECLARED = 99_000_000;

/**
 * Sends the head of a request declaring a DECLARED-byte JSON body and its first few bytes, and
 * never the rest; resolves with everything the service answered once it closed the
 * connection. Without the early refusal the service waits for the rest, and this never ends.
 */
function declareHugeBody(path: string): Promise<{ answer: string; stillWritable: boolean }> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = "";
    let stillWritable = false;
    socket.on("error", reject);
    socket.on("data", (chunk) => {
      // The answer came while this side had more to send and could still send it.
      if (answer === "") stillWritable = socket.writable;
      answer += chunk.toString();
    });
    socket.on("end", () => resolve({ answer, stillWritable }));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${DECLARED}\r\n\r\n{"title": "`,
    );
  });
}

describe("a JSON body declared over the limit", () => {
  it.each(["/api/v1/branch-service/create", "/graphql"])(
    "is refused 413 on %s before its body is sent, and the connection closed",
    async (path) => {
      const { answer, stillWritable } = await declareHugeBody(path);
      const [head, body] = answer.split("\r\n\r\n");
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(body)).toEqual({
        code: "PAYLOAD_TOO_LARGE",
        message: "The request body is larger than 1 MiB",
      });
      expect(stillWritable).toBe(true);
    },
  );

  it("changes nothing, and the service keeps answering", async () => {
    await declareHugeBody("/api/v1/branch-service/create");
    expect(await rawDb(app).branchServices.estimatedDocumentCount()).toBe(0);
    expect((await app.http().get("/api/v1/health")).status).toBe(200);
  });
});

describe("a UTF-8 byte order mark before the JSON", () => {
  const BOM = "\uFEFF";

  it("is ignored on REST: the body reads as without it", async () => {
    const credentials = JSON.stringify({ email: "nobody@example.org", password: "Wrong-1234!" });
    for (const body of [credentials, BOM + credentials]) {
      const response = await app
        .http()
        .post("/api/v1/auth/login")
        .set("content-type", "application/json; charset=utf-8")
        .send(body);
      expect([response.status, response.body.code]).toEqual([401, "INVALID_CREDENTIALS"]);
    }
  });

  it("is ignored on /graphql", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .set("content-type", "application/json")
      .send(BOM + JSON.stringify({ query: "{ __typename }" }));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: "Query" } });
  });

  it("is ignored once only: a second one, or one inside the JSON's syntax, is malformed JSON", async () => {
    for (const body of [`${BOM}${BOM}{"email": "a@b.co"}`, `{${BOM}"email": "a@b.co"}`]) {
      const response = await app
        .http()
        .post("/api/v1/auth/login")
        .set("content-type", "application/json")
        .send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: "BAD_REQUEST",
        message: "The request body is not valid JSON",
      });
    }
  });
});
