import type { Browser, Page } from "playwright-core";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, item 2 (WCAG 2.2 2.4.11 Focus Not Obscured): 17 of 40 Tab stops on /listen sat behind the
// fixed player bar, others under the sticky header going backwards; the sticky submit row of admin
// forms covered their answer; on a phone /play/{id}'s own play control sat under the bar on arrival.

type Theme = "dark" | "light";

/**
 * What covers the focused element, if anything: the element found at its centre and at points
 * just inside its top and bottom edges (the part that fits between header and bar, for a tall
 * one) must be the element itself or inside it. Returns a description of the cover, or null.
 */
function coverOfFocus(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    // Two frames: whatever scrolling the focus started has been painted.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return null;
    const name = `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`;
    const x = Math.min(Math.max(rect.left + rect.width / 2, 1), innerWidth - 1);
    const ys = [rect.top + 3, rect.top + rect.height / 2, rect.bottom - 3];
    for (const y of ys) {
      if (y < 0 || y >= innerHeight) return `${name} is out of view (y=${Math.round(y)})`;
      const hit = document.elementFromPoint(x, y);
      if (hit && !element.contains(hit) && !hit.contains(element)) {
        const cover = hit.closest(".site-header, .live-player, .admin-form__actions, .admin-page__status");
        return `${name} is under ${cover ? cover.className.split(" ")[0] : hit.tagName.toLowerCase() + "." + hit.className} at y=${Math.round(y)}`;
      }
    }
    return null;
  });
}

describeInBrowser("keyboard focus is never hidden behind the header, the player bar or a sticky button row", () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    admin = await adminCookie(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    await db().rateLimit.deleteMany();
  });

  function open(viewport: keyof typeof viewports, { theme = "dark" as Theme, language = "en" as "en" | "id", asAdmin = false } = {}): Promise<Page> {
    return openVisitorPage(browser, server.url, { viewport, theme, language, admin: asAdmin ? admin : undefined, reducedMotion: "reduce" });
  }
  async function hydrated(page: Page) {
    await page.locator(".live-player button:enabled").first().waitFor();
  }

  /** Tabs through the page (forward, then back with Shift+Tab) and lists every stop something covered. */
  async function tabThrough(page: Page, key: "Tab" | "Shift+Tab", stops: number): Promise<string[]> {
    const covered: string[] = [];
    for (let i = 0; i < stops; i++) {
      await page.keyboard.press(key);
      const cover = await coverOfFocus(page);
      if (cover) covered.push(cover);
    }
    return covered;
  }

  for (const viewport of ["phone", "desktop"] as const) {
    it.each(["/listen", "/cardlistmore", "/CrewSpin"])(`Tab and Shift+Tab on %s stop where the listener can see them (${viewport})`, async (path) => {
      const page = await open(viewport);
      await page.goto(`${server.url}${path}`);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      const count = await page.evaluate(
        () =>
          [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])")].filter(
            (element) => !element.closest(".live-player, [inert], dialog:not([open])") && element.getClientRects().length > 0,
          ).length,
      );
      const stops = Math.min(count, 60);
      expect(await tabThrough(page, "Tab", stops)).toEqual([]);
      expect(await tabThrough(page, "Shift+Tab", stops)).toEqual([]);
      await page.context().close();
    });
  }

  it.each([
    ["phone", "dark"],
    ["desktop", "light"],
    ["phone", "light"],
    ["desktop", "dark"],
  ] as const)("a focused card on /listen sits above the player bar (%s, %s)", async (viewport, theme) => {
    const page = await open(viewport, { theme });
    await page.goto(`${server.url}/listen`);
    await hydrated(page);
    // Forward to the first episode's ▶, the stop the listener lost under the bar.
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.closest(".podcast-card") !== null)) break;
    }
    expect(await coverOfFocus(page)).toBeNull();
    await page.screenshot({ path: `test-output/screenshots/focus-listen-card-${theme}-${viewport}.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it.each([
    ["phone", "dark"],
    ["phone", "light"],
    ["desktop", "dark"],
    ["desktop", "light"],
  ] as const)("/play/{id} shows its own play control above the bar on arrival (%s, %s)", async (viewport, theme) => {
    const episode = await db().podcastEpisode.findFirstOrThrow({ orderBy: [{ publishedAt: "desc" }, { id: "desc" }] });
    const page = await open(viewport, { theme });
    await page.goto(`${server.url}/play/${episode.id}`);
    await page.waitForFunction(() => document.querySelector("[data-testid=episode-audio]")?.getAttribute("src"));
    const play = page.locator(".episode-player__toggle");
    await play.focus();
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(await coverOfFocus(page)).toBeNull();
    await page.screenshot({ path: `test-output/screenshots/focus-play-arrival-${theme}-${viewport}.png` });
    await page.context().close();
  });

  it.each([
    ["phone", "id"],
    ["desktop", "en"],
    ["desktop", "id"],
  ] as const)("on the episode form, every field and the form's answer stay clear of the submit row and the bar (%s, %s)", async (viewport, language) => {
    const page = await open(viewport, { asAdmin: true, language });
    await page.goto(`${server.url}/episodes-admin`);
    await hydrated(page);
    const form = page.locator("form.admin-form").first();
    await form.locator("input, select, textarea").first().focus();
    const covered: string[] = [];
    const fields = await form.locator("input:not([type=hidden]), select, textarea, button").count();
    for (let i = 0; i < fields; i++) {
      const cover = await coverOfFocus(page);
      if (cover) covered.push(cover);
      await page.keyboard.press("Tab");
      if (!(await page.evaluate(() => document.activeElement?.closest("form.admin-form") !== null))) break;
    }
    expect(covered).toEqual([]);
    // An empty post: the answer comes back under the fields, above the sticky submit row.
    await form.locator(".admin-form__actions button[type=submit]").click();
    const answer = form.locator(".admin-status");
    await answer.waitFor();
    await answer.evaluate((element) => (element as HTMLElement).setAttribute("tabindex", "-1"));
    await answer.focus({ preventScroll: true } as never);
    expect(await coverOfFocus(page)).toBeNull();
    await screenshot(page, `focus-episode-form-answer-${language}`);
    await page.context().close();
  });
});
