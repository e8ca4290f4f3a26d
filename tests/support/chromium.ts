import puppeteer, { type Browser } from "puppeteer-core";
import { findExecutable } from "../../tools/dev-db/executables";

/** Debian's chromium (.ci/run installs it); puppeteer-core drives it and downloads nothing. */
export const chromiumPath = findExecutable("chromium") ?? findExecutable("chromium-browser");

/**
 * Headless Chromium where each of `hosts` resolves to 127.0.0.1 and every other host to
 * nothing, so a page that loads anything from elsewhere shows up broken.
 */
export function launchChromium(
  hosts: string[],
  viewport = { width: 1400, height: 900 },
): Promise<Browser> {
  const mapped = hosts.map((host) => `MAP ${host} 127.0.0.1`).join(", ");
  return puppeteer.launch({
    executablePath: chromiumPath!,
    headless: true,
    defaultViewport: viewport,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      `--host-resolver-rules=${mapped}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`,
    ],
  });
}
