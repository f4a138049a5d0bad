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

const AXE_PATH = path.resolve("node_modules/axe-core/axe.min.js");

/** axe-core on the current page; returns the serious and critical violations. */
export async function axeViolations(page: Page) {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { iframes: false, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
