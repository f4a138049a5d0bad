import fs from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

export const SCREENSHOT_DIR = path.resolve("test-output/screenshots");

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

/** Debian's Chromium, headless, with the flags this offline machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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

export async function newPage(
  browser: Browser,
  viewport: keyof typeof viewports = "desktop",
  options: BrowserContextOptions = {},
): Promise<Page> {
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
