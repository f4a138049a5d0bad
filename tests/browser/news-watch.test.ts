import type { Browser, BrowserContextOptions } from "playwright-core";
import { clearNewsCache } from "~/services/news.server";
import { db } from "~/services/db.server";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { generatedPosts, serveStandInThumbnails, startNewsStandIn, type NewsStandIn } from "../helpers/news-server";
import { startTestServer, type TestServer } from "../helpers/server";

describeInBrowser("a listener reading NEWS and WATCH", () => {
  let api: NewsStandIn;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    api = await startNewsStandIn();
    [server, browser] = await Promise.all([startTestServer({ NEWS_API_URL: api.url, SEED_CONTENT: "true" }), launchBrowser()]);
    // A few plays this week, so TRENDING has a chart to show.
    const seeded = await db().podcastEpisode.findMany({ orderBy: { id: "asc" }, take: 5, select: { id: true } });
    await db().episodePlay.createMany({
      data: seeded.flatMap((episode, rank) => Array.from({ length: 6 - rank }, (_, i) => ({ episodeId: episode.id, listenerKey: `k${episode.id}-${i}` }))),
    });
  });
  /** A dark-mode page whose news thumbnails are answered locally, never looked up. */
  async function openPage(viewport: "phone" | "desktop", options: BrowserContextOptions = {}) {
    const page = await newPage(browser, viewport, { colorScheme: "dark", ...options });
    await serveStandInThumbnails(page.context());
    return page;
  }

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await api?.close();
  });
  beforeEach(() => {
    clearNewsCache();
    api.scenario = "ok";
    // One post without a thumbnail, as the real feed sometimes has.
    const posts = generatedPosts("terbaru");
    delete posts[4].thumbnail;
    api.setPosts("terbaru", posts);
  });

  it.each(["phone", "desktop"] as const)("reads the news and switches category (%s)", async (viewport) => {
    const page = await openPage(viewport);
    await page.goto(`${server.url}/news`);
    expect(await page.getByRole("heading", { level: 1, name: "NEWS" }).isVisible()).toBe(true);
    const articles = page.getByRole("list", { name: "Latest news" }).getByRole("listitem");
    await expect(articles.count()).resolves.toBe(6);
    const first = page.getByRole("link", { name: /Festival musik kampus/ });
    expect(await first.getAttribute("target")).toBe("_blank");
    expect(await first.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await page.getByRole("heading", { name: "PODCAST" }).isVisible()).toBe(true);
    await page.waitForLoadState("networkidle");
    await screenshot(page, "news");

    await page.getByRole("navigation", { name: "News categories" }).getByRole("link", { name: "Nasional", exact: true }).click();
    await page.getByRole("list", { name: "Nasional news" }).waitFor();
    expect(page.url()).toMatch(/\/news\?category=nasional$/);
    await expect(page.getByRole("list", { name: "Nasional news" }).getByRole("listitem").count()).resolves.toBe(6);
    expect(await page.getByRole("link", { name: /Berita nasional nomor 1 / }).isVisible()).toBe(true);
    await page.context().close();
  });

  it.each(["phone", "desktop"] as const)("opens the category dropdown on /watch and sees TRENDING (%s)", async (viewport) => {
    const page = await openPage(viewport);
    await page.goto(`${server.url}/watch`);
    expect(await page.getByRole("heading", { level: 1, name: "WATCH" }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "TRENDING" }).isVisible()).toBe(true);
    const chart = page.getByRole("list", { name: "Most played episodes this week" }).getByRole("listitem");
    await expect(chart.count()).resolves.toBe(5);
    expect(await chart.first().textContent()).toContain("6 plays this week");
    await page.waitForLoadState("networkidle");
    await screenshot(page, "watch");

    // Escape closing the menu is the enhancement: wait until React has hydrated the page.
    await page.waitForFunction(() => Object.keys(document.querySelector(".category-menu") ?? {}).some((key) => key.startsWith("__react")));
    const menuItem = page.locator(".category-menu").getByRole("link", { name: "Gaya Hidup" });
    expect(await menuItem.isVisible()).toBe(false);
    await page.getByText("Categories", { exact: true }).click();
    expect(await menuItem.isVisible()).toBe(true);
    await page.waitForTimeout(250); // let the chevron finish turning before the screenshot
    await screenshot(page, "watch-menu-open");
    await expect
      .poll(async () => {
        await page.keyboard.press("Escape");
        return menuItem.isVisible();
      })
      .toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SUMMARY");

    await page.getByText("Categories", { exact: true }).click();
    await menuItem.click();
    // Waits on the content: waitForURL can miss a client-side navigation that lands while it starts.
    await page.getByRole("heading", { name: "Gaya Hidup" }).waitFor();
    expect(page.url()).toMatch(/\/news\?category=gayaHidup$/);
    await page.context().close();
  });

  it("opens and hides the dropdown without JavaScript", async () => {
    const page = await openPage("phone", { javaScriptEnabled: false });
    await page.goto(`${server.url}/watch`);
    const menuItem = page.locator(".category-menu").getByRole("link", { name: "Olahraga" });
    expect(await menuItem.isVisible()).toBe(false);
    await page.getByText("Categories", { exact: true }).click();
    expect(await menuItem.isVisible()).toBe(true);
    await page.getByText("Categories", { exact: true }).click();
    expect(await menuItem.isVisible()).toBe(false);
    await page.context().close();
  });

  it("shows a clear message when the news API is down", async () => {
    api.scenario = "server-error";
    const page = await openPage("phone");
    const response = await page.goto(`${server.url}/news`);
    expect(response?.status()).toBe(200);
    expect(await page.getByText("News is unavailable right now.").isVisible()).toBe(true);
    await screenshot(page, "news-unavailable");
    await page.context().close();
  });
});
