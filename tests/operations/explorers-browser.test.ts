import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { findExecutable } from "../../src/db/executables";
import { startTestApp, type TestApp } from "../support/test-app";

const run = promisify(execFile);
const chromium = findExecutable("chromium") ?? findExecutable("chromium-browser");

/**
 * Renders both explorers in headless Chromium with every host but loopback unresolvable, so a
 * page that still loads something from a CDN shows up empty. .ci/run installs Debian's chromium.
 */
(chromium ? describe : describe.skip)("explorers render offline in headless Chromium", () => {
  let app: TestApp;
  let profile: string;
  beforeAll(async () => {
    app = await startTestApp();
    profile = fs.mkdtempSync(path.join(os.tmpdir(), "chromium-profile-"));
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  async function renderedDom(url: string): Promise<string> {
    const { stdout } = await run(
      chromium!,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=15000",
        "--dump-dom",
        url,
      ],
      { timeout: 60_000, maxBuffer: 32 << 20 },
    );
    return stdout;
  }

  it("Swagger UI shows the API and its operations", async () => {
    const dom = await renderedDom(`${app.url}/api/v1/docs/`);
    expect(dom).toContain("Chaplaincy membership API");
    expect(dom).toContain("/branch-service/create");
    expect(dom).toMatch(/opblock-summary-method[^>]*>\s*DELETE/);
  }, 90_000);

  it("GraphiQL mounts its editor", async () => {
    const dom = await renderedDom(`${app.url}/graphql`);
    expect(dom).toContain("graphiql-container");
    expect(dom).toContain("graphiql-editor");
    expect(dom).not.toContain("Loading…");
  }, 90_000);
});
