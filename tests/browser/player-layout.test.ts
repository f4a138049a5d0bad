import type { Browser, BrowserContext, Page } from "playwright-core";
import { describeInBrowser, launchBrowser } from "../helpers/browser";
import { createSlot, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { db } from "~/services/db.server";
import { startTestServer, type TestServer } from "../helpers/server";

// Nothing is ever under the player bar: on every public page, at 320, 390 and
// 1366 px, every link and button outside the bar answers a tap at its centre,
// at the top and after scrolling to the end; also with the taller episode bar.
const ROUTES = process.env.LAYOUT_ROUTES
  ? process.env.LAYOUT_ROUTES.split(",")
  : [
      "/listen",
      "/cardlistmore",
      "/play/1",
      "/chartcontent",
      "/Chart",
      "/events",
      "/CrewSpin",
      "/Game",
      "/news",
      "/watch",
      "/schedule",
      "/history",
      "/shows/layout-night",
      "/favorites",
      "/login",
      "/register",
      "/no-such-page",
    ];
const WIDTHS = (process.env.LAYOUT_WIDTHS ? process.env.LAYOUT_WIDTHS.split(",").map(Number) : [320, 390, 1366]) as readonly number[];

/**
 * The controls whose centre is covered by something else; the fixed header may cover content
 * scrolled under it. Mid-page, content below the fold passes behind the bar (scrolling reveals it):
 * there only what is above the bar counts. At the end of the page, where scrolling reveals nothing
 * more, every control in the viewport must answer.
 */
function coveredControls(page: Page, atEnd: boolean): Promise<string[]> {
  return page.evaluate((atEnd) => {
    const bar = document.querySelector(".live-player");
    const covered: string[] = [];
    const fixedTop = (element: Element | null) => {
      for (let node = element; node; node = node.parentElement) {
        const { position } = getComputedStyle(node);
        if ((position === "fixed" || position === "sticky") && node !== bar && !bar?.contains(node)) return true;
      }
      return false;
    };
    for (const element of document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary")) {
      if (bar?.contains(element) || element.closest("[inert], [hidden], dialog:not([open])")) continue;
      // An inline link wrapped over two lines: its first line box is where a finger goes.
      const box =
        getComputedStyle(element).display === "inline" ? (element.getClientRects()[0] ?? element.getBoundingClientRect()) : element.getBoundingClientRect();
      if (box.width <= 2 || box.height <= 2 || getComputedStyle(element).visibility === "hidden") continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const visibleBottom = atEnd ? window.innerHeight : (bar?.getBoundingClientRect().top ?? window.innerHeight);
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= visibleBottom - 2) continue; // sub-pixel edges
      const hit = document.elementFromPoint(x, y);
      if (!hit || element === hit || element.contains(hit) || (element instanceof HTMLInputElement && element.labels?.[0]?.contains(hit))) continue;
      if (!bar?.contains(hit) && fixedTop(hit) && !fixedTop(element)) continue;
      const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40);
      covered.push(
        `${element.tagName.toLowerCase()} "${name}" under ${bar?.contains(hit) ? "the player bar" : hit.tagName.toLowerCase() + "." + hit.className} (centre ${Math.round(x)},${Math.round(y)}; bar top ${Math.round(bar?.getBoundingClientRect().top ?? -1)}; hit ${hit.tagName}.${hit.className})`,
      );
    }
    return covered;
  }, atEnd);
}

/**
 * Waits until the page reserves the bar's current height: the bar grows when an episode's controls
 * arrive (a lazily loaded chunk, later on a loaded machine) and the page's padding follows it.
 */
async function barSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const bar = document.querySelector<HTMLElement>(".live-player");
      const reserved = document.documentElement.style.getPropertyValue("--player-height");
      const state = window as unknown as { __barHeight?: string; __barSince?: number };
      const now = `${bar?.offsetHeight}px|${reserved}`;
      if (state.__barHeight !== now) {
        state.__barHeight = now;
        state.__barSince = performance.now();
        return false;
      }
      return bar !== null && reserved === `${bar.offsetHeight}px` && performance.now() - (state.__barSince ?? 0) > 300;
    },
    undefined,
    { timeout: 10_000, polling: 100 },
  );
}

async function checkBothEnds(page: Page): Promise<string[]> {
  await barSettled(page);
  const atTop = await coveredControls(page, false);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(150);
  await barSettled(page);
  const atEnd = await coveredControls(page, true);
  return [...atTop.map((c) => `top: ${c}`), ...atEnd.map((c) => `end: ${c}`)];
}

describeInBrowser("nothing under the player bar", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    // A show on every day, with a host, so the schedule, the show page and the bar's on-air line have their full content.
    // The demo's own slots would overlap it (slots may not overlap), so they go first.
    await db().showSlot.deleteMany();
    const host = await db().crewMember.findFirstOrThrow({ select: { id: true } });
    const show = await createShow({
      name: "Layout Night",
      slug: "layout-night",
      description: "A show with a host, every day.",
      colour: "#aa3377",
      hostIds: [host.id],
    });
    const daily = validateSlot({
      kind: "weekly",
      days: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
      startDate: "2026-01-01",
      startTime: "00:00",
      durationMinutes: 600,
      endDate: null,
    });
    if (!daily.ok) throw new Error(daily.message);
    await createSlot(show.id, daily.value);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of WIDTHS) {
    it(`every public page at ${width} px, with the live bar and with the episode bar`, async () => {
      const context: BrowserContext = await browser.newContext({ viewport: { width, height: width > 1000 ? 900 : 700 }, colorScheme: "dark" });
      // Tests never reach the internet: third-party players get a local stand-in page.
      await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.fulfill({ contentType: "text/html", body: "<p>Player</p>" }));
      const page = await context.newPage();
      const problems: string[] = [];
      for (const route of ROUTES) {
        await page.goto(`${server.url}${route}`);
        await page
          .getByRole("button", { name: /Play the live stream/ })
          .waitFor()
          .catch((error: Error) => {
            throw new Error(`${route}: ${error.message}`);
          });
        await page.keyboard.press("Escape"); // the latest-event popup on /events
        problems.push(...(await checkBothEnds(page)).map((p) => `${route} ${p}`));
      }
      // The taller episode bar, started from a card without leaving /listen.
      await page.goto(`${server.url}/listen`);
      const card = page.getByRole("list", { name: "Latest podcast episodes" }).getByRole("listitem").first();
      await card.getByRole("button", { name: /^Play / }).click();
      await page.locator('.live-player[data-showing="episode"]').waitFor();
      problems.push(...(await checkBothEnds(page)).map((p) => `/listen (episode bar) ${p}`));
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it("without JavaScript: the bar is the browser's own live player, a card's ▶ links to /play/{id}, which plays natively", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/listen`);
    expect(await page.locator(".live-player audio[controls]").count()).toBe(1);
    expect(await page.locator(".live-player button").count()).toBe(0);
    const card = page.getByRole("list", { name: "Latest podcast episodes" }).getByRole("listitem").first();
    const title = (await card.getByRole("heading").textContent())!;
    await card.getByRole("link", { name: `Play ${title}` }).click();
    await page.waitForURL(/\/play\/\d+$/);
    expect(await page.getByLabel(`Play ${title}`).evaluate((element) => element.tagName === "AUDIO" && (element as HTMLAudioElement).controls)).toBe(true);
    await context.close();
  });
});
