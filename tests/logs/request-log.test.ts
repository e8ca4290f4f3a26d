/**
 * Issue 35, point 5: a request's log line says who asked (account id, client address) and
 * stays small: no response headers, no stack trace for a failed status.
 */
import fs from "node:fs";
import path from "node:path";
import { bearer, buildUser } from "../support/factories";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";
import { startTestApp, type TestApp } from "../support/test-app";
import { eventually } from "../support/until";

/** A request line with its ids, method, path, status, caller and address fits well in this. */
const MAX_LINE_BYTES = 600;

let proxy: TcpProxy;
let app: TestApp;

beforeAll(async () => {
  proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  app = await startTestApp({}, `mongodb://127.0.0.1:${proxy.port}`);
});
afterAll(async () => {
  await app?.close();
  await proxy?.close();
});

interface RequestLine {
  msg: string;
  userId?: string;
  req: { id: string; method: string; url: string; ip?: string; clientRequestId?: string };
  res: Record<string, unknown>;
  bytes: number;
}

/** The completion line of the request with this (service-made) id, from the app's log file. */
function lineOf(requestId: string): RequestLine {
  const file = path.join(process.env.TEST_LOG_DIR!, `${app.config.dbName}.log`);
  const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
  const found = lines
    .map((text) => ({ text, json: JSON.parse(text) as Omit<RequestLine, "bytes"> }))
    .find(({ json }) => json.req?.id === requestId && json.res !== undefined);
  if (!found) throw new Error(`no log line for request ${requestId}`);
  return { ...found.json, bytes: Buffer.byteLength(found.text) };
}

it("names the caller's account and address, keeps the client's id apart, and lists no headers", async () => {
  const user = await buildUser(app);
  const response = await app
    .http()
    .get("/api/v1/users/current")
    .set(bearer(user))
    .set("x-request-id", "client-trace-7");
  expect(response.status).toBe(200);
  const line = lineOf(response.headers["x-request-id"]);
  expect(line.userId).toBe(user.id);
  expect(line.req).toMatchObject({
    method: "GET",
    url: "/api/v1/users/current",
    ip: expect.stringMatching(/127\.0\.0\.1/),
    clientRequestId: "client-trace-7",
  });
  expect(line.res).toEqual({ statusCode: 200 });
  expect(line.bytes).toBeLessThan(MAX_LINE_BYTES);
});

it("an anonymous request's line has no account id", async () => {
  const response = await app.http().get("/api/v1/");
  const line = lineOf(response.headers["x-request-id"]);
  expect(line.userId).toBeUndefined();
  expect(line.req.ip).toMatch(/127\.0\.0\.1/);
});

it("a 503 while the database is unreachable is one short line", async () => {
  proxy.blackhole();
  proxy.cutAll();
  let response;
  try {
    response = await app.http().get("/api/v1/health");
  } finally {
    proxy.forward();
  }
  expect(response.status).toBe(503);
  const line = lineOf(response.headers["x-request-id"]);
  expect(line.res).toEqual({ statusCode: 503 });
  expect(line.bytes).toBeLessThan(MAX_LINE_BYTES);
  expect(JSON.stringify(line)).not.toMatch(/stack|headers/);
  // Back up before the app closes (it drops its database then).
  const health = await eventually(
    () => app.http().get("/api/v1/health"),
    (answer) => answer.status === 200,
    20_000,
  );
  expect(health.status).toBe(200);
});
