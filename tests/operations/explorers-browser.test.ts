import pino from "pino";
import type { Browser, Page } from "puppeteer-core";
import { startMockServer } from "../../src/mock/mock-server";
import { chromiumPath, launchChromium } from "../support/chromium";
import { buildUser, type TestUser } from "../support/factories";
import { startTestApp, type TestApp } from "../support/test-app";

/** Not localhost: Chromium treats localhost as secure, so https upgrades would go unnoticed. */
const HOST = "explorers.test";

/**
 * Both explorers driven in headless Chromium, opened by a hostname over plain HTTP, with every
 * other host unresolvable so a page that still loads something from a CDN shows up broken.
 * .ci/run installs Debian's chromium; puppeteer-core drives it and downloads nothing.
 */
(chromiumPath ? describe : describe.skip)("the explorers in headless Chromium", () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let user: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    user = await buildUser(app);
    origin = `http://${HOST}:${new URL(app.url).port}`;
    browser = await launchChromium([HOST]);
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
    // A 404 (the favicon's, say) is a failure the console shows, though the request succeeded.
    page.on("response", (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on("pageerror", (error) => failures.push(String(error)));
    await page.goto(`${at}${path}`, { waitUntil: "networkidle0", timeout: 30_000 });
    return { page, failures };
  }

  it("serves the favicon both explorer pages name, as an image", async () => {
    for (const path of ["/api/v1/docs/", "/graphql"]) {
      const page = await app.http().get(path).set("accept", "text/html");
      expect(page.text).toContain('<link rel="icon" href="/favicon.ico">');
    }
    const icon = await app.http().get("/favicon.ico").buffer(true);
    expect(icon.status).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/png");
    expect((icon.body as Buffer).subarray(1, 4).toString()).toBe("PNG");
  });

  it("Swagger UI renders the API by hostname and runs a call with Try it out", async () => {
    const { page: first, failures: firstFailures } = await open("/api/v1/docs/");
    // Swagger UI draws a long API as a virtual list: only the operations in view are on the
    // page, so the groups' order is read from the first item and a later one is reached by link.
    await first.waitForSelector(".opblock", { timeout: 20_000 });
    const text = await first.$eval("#swagger-ui", (element) => element.textContent ?? "");
    expect(text).toContain("Chaplaincy membership API");
    // Groups in a reader's order: Auth first.
    const firstGroup = await first.$eval(
      ".operations-virtual__item, .opblock-tag",
      (element) => element.textContent ?? "",
    );
    expect(firstGroup.startsWith("Auth")).toBe(true);

    expect(firstFailures).toEqual([]);
    await first.close();

    const { page, failures } = await open("/api/v1/docs/#/Branch_services/branchServices");
    await page.waitForSelector("#operations-Branch_services-branchServices", { timeout: 20_000 });
    const paths = await page.$$eval(".opblock-summary-path", (elements) =>
      elements.map((element) => element.getAttribute("data-path")),
    );
    expect(paths).toContain("/branch-service");

    // The link opens the operation; a click on its summary would close it again.
    if (!(await page.$("#operations-Branch_services-branchServices.is-open"))) {
      await page.click("#operations-Branch_services-branchServices .opblock-summary");
    }
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
