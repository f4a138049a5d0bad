import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

export const SCREENSHOT_DIR = path.resolve("test-output/screenshots");

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Browser suites run where Chromium is installed (CI installs it and sets
 * REQUIRE_BROWSER, so there a missing browser fails instead of skipping).
 */
export const describeInBrowser = describe.skipIf(!existsSync(CHROMIUM_PATH) && !process.env.REQUIRE_BROWSER);

/** Debian's Chromium, headless, with the flags this offline machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
}

export async function newPage(browser: Browser, viewport: keyof typeof viewports = "desktop", options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[viewport], ...options });
  return context.newPage();
}

/** Saves a full-page screenshot under test-output/screenshots/<name>-<viewport>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width <= 480 ? "phone" : "desktop"}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
