import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

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

// The flags this offline machine needs.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
  "--autoplay-policy=no-user-gesture-required",
];

/** Debian's Chromium, headless, with the flags this offline machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Chromium with a profile of its own in `userDataDir` (not incognito, as every context of
 * launchBrowser is): what installing a web app needs.
 */
export function launchProfileBrowser(
  userDataDir: string,
  options: Omit<BrowserContextOptions, "viewport"> & { viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ...options });
}

export async function newPage(browser: Browser, viewport: keyof typeof viewports = "desktop", options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: viewports[viewport], ...options });
  return context.newPage();
}

export interface VisitorOptions extends Omit<BrowserContextOptions, "viewport"> {
  viewport?: keyof typeof viewports | { width: number; height: number };
  theme?: "dark" | "light";
  /** The `lang` cookie the language switch sets (unset: the browser's locale decides). */
  language?: "en" | "id";
  /** An admin session cookie as `name=value` (tests/helpers/admin.ts adminCookie). */
  admin?: string;
}

/**
 * A page of the station at `url` as a visitor sees it: their screen, theme and language cookies, an
 * admin session where given, and third-party players answered by a local stand-in (tests never reach the internet).
 */
export async function openVisitorPage(browser: Browser, url: string, options: VisitorOptions = {}): Promise<Page> {
  const { viewport = "desktop", theme = "dark", language, admin, ...rest } = options;
  const context = await browser.newContext({
    viewport: typeof viewport === "string" ? viewports[viewport] : viewport,
    colorScheme: theme,
    bypassCSP: true,
    ...rest,
  });
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Player</title><p>player</p>" }),
  );
  const cookies = [{ name: "theme", value: encodeURIComponent(Buffer.from(JSON.stringify(theme)).toString("base64")), url }];
  if (language) cookies.push({ name: "lang", value: language, url });
  if (admin) {
    const at = admin.indexOf("=");
    cookies.push({ name: admin.slice(0, at), value: admin.slice(at + 1), url });
  }
  await context.addCookies(cookies);
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
