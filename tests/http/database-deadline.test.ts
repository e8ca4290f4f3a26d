/**
 * The last bound on a request while the database is lost (src/http/database-deadline.ts): a
 * request whose database work never settles (as a command the driver wrote to a just-closed
 * socket can) is answered 503 once the deadline passes, if the driver lost its server in the
 * meantime; a request that is merely slow on a database that stays up is left to finish.
 * The handlers stand in for the stuck and the slow work; the driver and its events are real.
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import type { Connection } from "mongoose";
import { connectDatabase } from "../../src/db/connection";
import { databaseDeadline } from "../../src/http/database-deadline";
import { probe } from "../support/service-process";
import { engineTarget, TcpProxy } from "../support/tcp-proxy";

const DEADLINE_MS = 1_500;

let proxy: TcpProxy;
let connection: Connection;
let server: http.Server;
let url: string;

beforeAll(async () => {
  proxy = await TcpProxy.start(engineTarget(process.env.TEST_MONGODB_URI!));
  connection = await connectDatabase({
    uri: `mongodb://127.0.0.1:${proxy.port}/`,
    dbName: `t_deadline_${randomBytes(3).toString("hex")}`,
  });
  const guard = databaseDeadline(connection, DEADLINE_MS);
  server = http.createServer((req, res) => {
    guard(req, res);
    // "/stuck" never answers; "/slow" answers after twice the deadline.
    if (req.url === "/slow") setTimeout(() => res.end("done"), DEADLINE_MS * 2);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  proxy.forward();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await connection?.close();
  await proxy?.close();
});

it("leaves a slow request alone while the database stays up", async () => {
  const answer = await probe(`${url}/slow`, DEADLINE_MS * 4);
  expect(answer.status).toBe(200);
  expect(answer.body).toBe("done");
});

it("answers a request stuck while the database is lost 503 SERVICE_UNAVAILABLE at the deadline", async () => {
  const pending = probe(`${url}/stuck`, DEADLINE_MS * 4);
  proxy.blackhole();
  proxy.cutAll();
  const answer = await pending;
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
  expect(answer.ms).toBeLessThan(DEADLINE_MS * 3);
}, 20_000);
