import fs from "node:fs";
import path from "node:path";
import { PNG, upload } from "../support/file-samples";
import { buildUser } from "../support/factories";
import { PRODUCTION_ENV, startTestApp, type TestApp } from "../support/test-app";

/**
 * Pairing a web client with the service (docs/web-client.md, issue 48.6): outside production the
 * site at APP_URL may call the API without any CORS setting, an origin that is refused is
 * logged once with the setting that admits it, and file links are absolute. Production's
 * half of it (APP_URL and CORS_ORIGINS required) is in tests/config/production-config.test.ts.
 */

const SITE = "http://localhost:3000";

/** The warnings this app logged about refused origins (its log file, tests/support/test-app.ts). */
function refusalsLogged(app: TestApp): { origin: string; setting?: string; msg: string }[] {
  const file = path.join(process.env.TEST_LOG_DIR!, `${app.config.dbName}.log`);
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.includes("CORS refused"))
    .map((line) => JSON.parse(line) as { origin: string; setting?: string; msg: string });
}

const fromOrigin = (app: TestApp, origin: string) =>
  app.http().get("/api/v1/branch-service").set("origin", origin);

describe("outside production, with no CORS_ORIGINS", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_URL: `${SITE}/` });
  });
  afterAll(() => app?.close());

  it("lets the site at APP_URL call the API, preflight and credentials included", async () => {
    const preflight = await app
      .http()
      .options("/api/v1/auth/login")
      .set("origin", SITE)
      .set("access-control-request-method", "POST")
      .set("access-control-request-headers", "content-type,authorization");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(SITE);
    expect(preflight.headers["access-control-allow-credentials"]).toBe("true");
    const read = await fromOrigin(app, SITE);
    expect(read.headers["access-control-allow-origin"]).toBe(SITE);
    expect(read.headers.vary).toMatch(/\bOrigin\b/);
    expect(refusalsLogged(app).filter((line) => line.origin === SITE)).toEqual([]);
  });

  it("refuses another origin and logs it once, with the setting that admits it", async () => {
    const other = "http://192.168.1.20:3000";
    for (let n = 0; n < 3; n += 1) {
      const refused = await fromOrigin(app, other);
      expect(refused.status).toBe(200);
      expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
      expect(refused.headers.vary).toMatch(/\bOrigin\b/);
    }
    expect(refusalsLogged(app).filter((line) => line.origin === other)).toEqual([
      expect.objectContaining({
        setting: `CORS_ORIGINS=${other}`,
        msg: `CORS refused the browser origin ${other}; to let it call the API, set CORS_ORIGINS=${other}`,
      }),
    ]);
  });

  it("logs nothing for the service's own pages, which send its own origin", async () => {
    const own = new URL(app.url).origin;
    await app.http().post("/graphql").set("origin", own).send({ query: "{ __typename }" });
    expect(refusalsLogged(app).filter((line) => line.origin === own)).toEqual([]);
  });

  it("keeps a bounded memory of refused origins: past 100, one line says no more are logged", async () => {
    for (let n = 0; n < 120; n += 1) await fromOrigin(app, `https://probe-${n}.example.net`);
    const logged = refusalsLogged(app);
    expect(logged.length).toBeLessThanOrEqual(101);
    expect(logged.filter((line) => line.origin?.startsWith("https://probe-")).length).toBeLessThan(
      100,
    );
    const last = fs
      .readFileSync(path.join(process.env.TEST_LOG_DIR!, `${app.config.dbName}.log`), "utf8")
      .split("\n")
      .filter((line) => line.includes("no further ones are logged"));
    expect(last).toHaveLength(1);
  });

  it("writes absolute file links, to the address the service listens on", async () => {
    const user = await buildUser(app);
    const stored = await upload(app, user, PNG, { purpose: "AVATAR", filename: "me.png" });
    expect(stored.status).toBe(201);
    const link = stored.body.data.fileUrl as string;
    expect(link.startsWith(`${app.url}/api/v1/files/`)).toBe(true);
    // The link works as it is, from anywhere: no Bearer, no base to add.
    const bytes = await fetch(link);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer())).toHaveLength(Number(stored.body.data.size));
  });
});

describe("with PUBLIC_URL and CORS_ORIGINS set", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      PUBLIC_URL: "https://api.members.example.org/",
      CORS_ORIGINS: "https://www.members.example.org",
    });
  });
  afterAll(() => app?.close());

  it("writes file links under PUBLIC_URL", async () => {
    const user = await buildUser(app);
    const stored = await upload(app, user, PNG, { purpose: "AVATAR", filename: "me.png" });
    expect(stored.body.data.fileUrl).toMatch(
      /^https:\/\/api\.members\.example\.org\/api\/v1\/files\/[\w-]+\?expires=/,
    );
  });

  it("suggests the list with the refused origin added", async () => {
    await fromOrigin(app, "http://localhost:3001");
    expect(refusalsLogged(app)).toEqual([
      expect.objectContaining({
        setting: "CORS_ORIGINS=https://www.members.example.org,http://localhost:3001",
      }),
    ]);
  });
});

describe("in production", () => {
  it("allows only CORS_ORIGINS, not APP_URL's origin by itself", async () => {
    const app = await startTestApp({
      ...PRODUCTION_ENV,
      APP_URL: "https://members.example.org",
      CORS_ORIGINS: "https://www.members.example.org",
    });
    try {
      const listed = await fromOrigin(app, "https://www.members.example.org");
      expect(listed.headers["access-control-allow-origin"]).toBe("https://www.members.example.org");
      const appUrl = await fromOrigin(app, "https://members.example.org");
      expect(appUrl.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
