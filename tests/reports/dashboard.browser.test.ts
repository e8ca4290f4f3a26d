import type { Browser } from "puppeteer-core";
import { approvedMemberOf, TEST_PASSWORD, type TestUser } from "../support/factories";
import { chromiumPath, launchChromium } from "../support/chromium";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";

const CHART_IDS = [
  "members-by-status",
  "members-by-region",
  "members-by-month",
  "onboarding-funnel",
  "payments-by-month",
  "interviews",
];

(chromiumPath ? describe : describe.skip)("the administrators' dashboard in Chromium", () => {
  let app: TestApp;
  let admin: TestUser;
  let browser: Browser | undefined;

  beforeAll(async () => {
    ({ app, admin } = await startScenario());
    await approvedMemberOf(app, admin);
    await approvedMemberOf(app, admin, { region: "National Capital Region" });
    // The service on the loopback: an origin browsers trust without TLS.
    browser = await launchChromium([]);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("signs an administrator in and draws every report, with no console error", async () => {
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    const origin = app.url;
    const answer = await page.goto(`${origin}/admin/dashboard`, { waitUntil: "networkidle0" });
    expect(answer?.status()).toBe(200);
    // The service's CSP stays as it is: scripts from this origin only.
    expect(answer?.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
    await page.type('input[name="email"]', admin.email);
    await page.type('input[name="password"]', TEST_PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForFunction(() => document.getElementById("status")?.textContent !== "", {
      timeout: 20_000,
    });
    await page.waitForFunction(
      () => document.getElementById("status")?.textContent === "Signed in.",
      { timeout: 20_000 },
    );
    // Each canvas has pixels drawn on it (an empty canvas is all transparent).
    const drawn = await page.evaluate((ids: string[]) => {
      return ids.map((id) => {
        const canvas = document.getElementById(id) as HTMLCanvasElement;
        const pixels = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < pixels.data.length; i += 4) if (pixels.data[i] !== 0) painted += 1;
        return { id, painted };
      });
    }, CHART_IDS);
    for (const chart of drawn) expect(chart.painted).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it("says why when the password is wrong, and draws nothing", async () => {
    const page = await browser!.newPage();
    const origin = app.url;
    await page.goto(`${origin}/admin/dashboard`, { waitUntil: "networkidle0" });
    await page.type('input[name="email"]', admin.email);
    await page.type('input[name="password"]', "wrong-password");
    await page.click('button[type="submit"]');
    await page.waitForFunction(
      () => !["", "Signing in…"].includes(document.getElementById("status")?.textContent ?? ""),
      { timeout: 20_000 },
    );
    expect(await page.$eval("#status", (node) => node.textContent)).toMatch(/invalid/i);
    expect(await page.$eval("#charts", (node) => (node as HTMLElement).hidden)).toBe(true);
  });
});
