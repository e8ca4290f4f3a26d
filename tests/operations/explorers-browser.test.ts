import pino from "pino";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { findExecutable } from "../../tools/dev-db/executables";
import { startMockServer } from "../../src/mock/mock-server";
import { buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

const chromium = findExecutable("chromium") ?? findExecutable("chromium-browser");
/** Not localhost: Chromium treats localhost as secure, so https upgrades would go unnoticed. */
const HOST = "explorers.test";

/**
 * Both explorers driven in headless Chromium, opened by a hostname over plain HTTP, with every
 * other host unresolvable so a page that still loads something from a CDN shows up broken.
 * .ci/run installs Debian's chromium; puppeteer-core drives it and downloads nothing.
 */
(chromium ? describe : describe.skip)("the explorers in headless Chromium", () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let user: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    user = await buildUser(app);
    origin = `http://${HOST}:${new URL(app.url).port}`;
    browser = await puppeteer.launch({
      executablePath: chromium!,
      headless: true,
      defaultViewport: { width: 1400, height: 900 },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        `--host-resolver-rules=MAP ${HOST} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`,
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app.close();
  });

  /** A page that fails the test on any request that did not reach our origin. */
  async function open(path: string, at = origin): Promise<{ page: Page; failures: string[] }> {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on("requestfailed", (request) => failures.push(request.url()));
    page.on("pageerror", (error) => failures.push(String(error)));
    await page.goto(`${at}${path}`, { waitUntil: "networkidle0", timeout: 30_000 });
    return { page, failures };
  }

  it("Swagger UI renders the API by hostname and runs a call with Try it out", async () => {
    const { page, failures } = await open("/api/v1/docs/");
    await page.waitForSelector(".opblock", { timeout: 20_000 });
    const text = await page.$eval("#swagger-ui", (element) => element.textContent ?? "");
    expect(text).toContain("Chaplaincy membership API");
    expect(text).toContain("/branch-service/create");
    // Tags in a reader's order: Auth first.
    const tags = await page.$$eval(".opblock-tag", (elements) =>
      elements.map((element) => element.getAttribute("data-tag")),
    );
    expect(tags[0]).toBe("Auth");

    await page.click("#operations-Branch_services-branchServices .opblock-summary");
    await page.waitForSelector(".try-out__btn");
    await page.click(".try-out__btn");
    await page.click(".execute");
    await page.waitForSelector(".live-responses-table .response-col_status", { timeout: 20_000 });
    const status = await page.$eval(
      ".live-responses-table .response .response-col_status",
      (element) => element.textContent?.trim(),
    );
    expect(status).toBe("200");
    expect(failures).toEqual([]);
    await page.close();
  }, 90_000);

  it("GraphiQL by hostname shows the schema in its Docs pane and runs a query with a header", async () => {
    const { page, failures } = await open("/graphql");
    await page.waitForSelector(".graphiql-query-editor .CodeMirror", { timeout: 20_000 });

    await page.click('button[aria-label="Show Documentation Explorer"]');
    await page.waitForSelector(".graphiql-doc-explorer a.graphiql-doc-explorer-type-name", {
      timeout: 20_000,
    });
    const rootTypes = await page.$eval(".graphiql-doc-explorer", (e) => e.textContent ?? "");
    expect(rootTypes).toContain("Query");
    await page.click(".graphiql-doc-explorer a.graphiql-doc-explorer-type-name");
    await page.waitForFunction(
      () => document.querySelector(".graphiql-doc-explorer")?.textContent?.includes("UserPayload"),
      { timeout: 10_000 },
    );

    await typeInto(
      page,
      ".graphiql-query-editor .CodeMirror",
      "{ currentUser { user { email } } }",
    );
    await page.click('button[data-name="headers"]');
    await typeInto(
      page,
      ".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror",
      `{"Authorization": "Bearer ${user.token}"}`,
    );
    await page.click(".graphiql-execute-button");
    await page.waitForFunction(
      (email) => document.querySelector(".graphiql-response")?.textContent?.includes(email),
      { timeout: 20_000 },
      user.email,
    );
    expect(failures).toEqual([]);
    await page.close();
  }, 90_000);

  it("the mock server's explorers render its schema and answer from made-up records", async () => {
    const mock = await startMockServer({
      port: 0,
      host: "127.0.0.1",
      log: pino({ level: "silent" }),
    });
    try {
      const mockOrigin = `http://${HOST}:${new URL(mock.url).port}`;
      const swagger = await open("/api/v1/docs/", mockOrigin);
      await swagger.page.waitForSelector(".opblock", { timeout: 20_000 });
      expect(await swagger.page.$$(".opblock")).not.toHaveLength(0);
      await swagger.page.close();

      const { page, failures } = await open("/graphql", mockOrigin);
      await page.waitForSelector(".graphiql-query-editor .CodeMirror", { timeout: 20_000 });
      await typeInto(
        page,
        ".graphiql-query-editor .CodeMirror",
        "{ branchServices { data { title } } }",
      );
      await page.click(".graphiql-execute-button");
      await page.waitForFunction(
        () =>
          document.querySelector(".graphiql-response")?.textContent?.includes("Philippine Army"),
        { timeout: 20_000 },
      );
      expect(failures).toEqual([]);
      await page.close();
    } finally {
      await mock.close();
    }
  }, 90_000);
});

/** Clicks into a CodeMirror editor, selects what it holds and types over it, key by key. */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector);
  await page.keyboard.down("Control");
  await page.keyboard.press("KeyA");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
  await page.keyboard.press("Escape");
}
