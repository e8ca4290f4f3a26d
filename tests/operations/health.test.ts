import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEngine, type DevEngine as Engine } from "../../tools/dev-db/engine";
import { startTestApp, type TestApp } from "../support/test-app";
import { eventually } from "../support/until";

// This file kills its database, so it has an engine of its own rather than the run's.
let engine: Engine;
let app: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "health-engine-"));
  engine = await startEngine({ dataDir, log: () => undefined });
  app = await startTestApp({}, engine.uri);
}, 60_000);
afterAll(async () => {
  await app?.close().catch(() => undefined);
  await engine?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const waitForHealth = (status: number, timeoutMs: number) =>
  eventually(
    () => app.http().get("/api/v1/health"),
    (response) => response.status === status,
    timeoutMs,
  );

describe("GET /api/v1/", () => {
  it("describes the service", async () => {
    const response = await app.http().get("/api/v1/");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: expect.any(String),
      version: "1.0.0",
      graphql: "/graphql",
      docs: "/api/v1/docs",
    });
  });
});

describe("GET /api/v1/health", () => {
  it("leaves no timer running once it has answered", async () => {
    const timers = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    for (let i = 0; i < 20; i += 1) {
      expect((await app.http().get("/api/v1/health")).status).toBe(200);
    }
    // A few timers of the driver or the server may come and go; one per probe would be 20.
    expect(timers() - before).toBeLessThan(5);
  });

  it("is ok while the database answers, degraded (503) while it is down, and recovers by itself", async () => {
    const up = await app.http().get("/api/v1/health");
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: "ok", db: "up", uptime: expect.any(Number) });

    await engine.stop();
    const down = await waitForHealth(503, 10_000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "degraded", db: "down" });

    const started = Date.now();
    const during = await app.http().get("/api/v1/branch-service");
    expect(during.status).toBe(503);
    expect(during.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(5_000);

    await engine.restart();
    const recovered = await waitForHealth(200, 30_000);
    expect(recovered.status).toBe(200);
    expect((await app.http().get("/api/v1/branch-service")).status).toBe(200);
  }, 60_000);
});
