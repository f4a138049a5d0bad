import type { Browser, Page } from "playwright-core";
import { db } from "~/services/db.server";
import { adminLinksFor } from "~/utils/site-pages";
import { adminCookie } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, item 7: the admin strip's links and its two ways out, at 390 and 1366 px in both
// languages; the current tab in view on a phone; the seeded episodes' artwork without a warning.

const LANGUAGES = { en: "en-US", id: "id-ID" } as const;
type Language = keyof typeof LANGUAGES;
type Viewport = keyof typeof viewports;

const WORDS = {
  en: { publicSite: "Public site PIN", leave: "Leave admin", pinDialog: "Back to the public site", activity: "ACTIVITY", audience: "AUDIENCE" },
  id: { publicSite: "Situs publik PIN", leave: "Keluar dari admin", pinDialog: "Kembali ke situs publik", activity: "AKTIVITAS", audience: "AUDIENS" },
} as const;

describeInBrowser("admin strip exits (issue 29 item 7)", () => {
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

  function open(viewport: Viewport, language: Language): Promise<Page> {
    return openVisitorPage(browser, server.url, { viewport, locale: LANGUAGES[language], language, admin, theme: language === "en" ? "dark" : "light" });
  }

  /** Whether the strip's current link lies whole within the visible part of its link list. */
  function currentInView(page: Page) {
    return page.evaluate(() => {
      const list = document.querySelector(".admin-strip ul")!.getBoundingClientRect();
      const current = document.querySelector('.admin-strip [aria-current="page"]')!.getBoundingClientRect();
      return current.left >= list.left - 1 && current.right <= list.right + 1;
    });
  }

  for (const viewport of ["phone", "desktop"] as const) {
    for (const language of ["en", "id"] as const) {
      it(`shows every strip link and both exits at ${viewports[viewport].width} px (${language})`, async () => {
        const words = WORDS[language];
        const page = await open(viewport, language);
        const path = viewport === "phone" && language === "en" ? "/activity-admin" : "/audience-admin";
        await page.goto(`${server.url}${path}`);
        const width = viewports[viewport].width;

        // The current tab comes into the strip's view once the page is hydrated.
        await expect.poll(() => currentInView(page), { timeout: 15_000 }).toBe(true);
        expect(await page.locator('.admin-strip [aria-current="page"]').textContent()).toBe(path === "/activity-admin" ? words.activity : words.audience);

        await screenshot(page, `admin-exits-${language}`);

        // Both exits whole on screen, outside the link list, and saying which one asks for the PIN.
        const strip = page.locator(".admin-strip");
        const publicSite = strip.getByRole("link", { name: words.publicSite, exact: true });
        const leave = strip.getByRole("button", { name: words.leave, exact: true });
        const listBox = (await strip.locator("ul").boundingBox())!;
        for (const exit of [publicSite, leave]) {
          const box = (await exit.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
          expect(box.x).toBeGreaterThanOrEqual(listBox.x + listBox.width);
          expect(box.height).toBeGreaterThanOrEqual(44);
          expect(await exit.getAttribute("title")).toBeTruthy();
        }
        expect(await publicSite.locator(".admin-strip__pin").isVisible()).toBe(true);
        if (viewport === "phone") expect((await strip.boundingBox())!.height).toBeLessThanOrEqual(72);

        // Every link is on screen, or brought there by the list's own sideways scroll.
        const links = strip.locator(".admin-strip__link");
        expect(await links.count()).toBe(adminLinksFor("manager").length);
        if (viewport === "desktop") expect(await strip.locator("ul").evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
        for (let i = 0; i < (await links.count()); i++) {
          const link = links.nth(i);
          const box = await link.evaluate((element) => {
            const list = element.closest("ul")!;
            const left = element.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
            list.scrollLeft = left;
            const rect = element.getBoundingClientRect();
            return { left: rect.left, right: rect.right, list: list.getBoundingClientRect() };
          });
          expect(box.left, `link ${i}`).toBeGreaterThanOrEqual(0);
          expect(box.right, `link ${i}`).toBeLessThanOrEqual(width);
          expect(box.left, `link ${i}`).toBeGreaterThanOrEqual(box.list.left - 1);
          expect(box.right, `link ${i}`).toBeLessThanOrEqual(box.list.right + 1);
        }

        // The public site still goes through the spec's PIN dialog.
        await publicSite.click();
        await page.getByRole("dialog", { name: words.pinDialog }).waitFor();
        await page.keyboard.press("Escape");
        await expect.poll(() => page.locator("dialog[open]").count()).toBe(0);

        // After a client-side move (back from the last tab, the list scrolled to its start) too.
        await links.last().click();
        await page.waitForURL(`**${await links.last().getAttribute("href")}`);
        await strip.locator("ul").evaluate((list) => (list.scrollLeft = 0));
        await page.goBack();
        await page.waitForURL(`**${path}`);
        await expect.poll(() => currentInView(page), { timeout: 15_000 }).toBe(true);

        // axe on the page as loaded, once its finite transitions are over (the player bar fades in).
        await page.goto(`${server.url}${path}`);
        await expect.poll(() => currentInView(page), { timeout: 15_000 }).toBe(true);
        await page.evaluate(() =>
          Promise.all(
            document
              .getAnimations()
              .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
              .map((animation) => animation.finished),
          ),
        );
        expect(await axeViolations(page)).toEqual([]);
        await page.context().close();
      });
    }
  }

  it("lists the seeded episodes without a blurry-artwork note", async () => {
    const page = await open("desktop", "en");
    await page.goto(`${server.url}/episodes-admin`);
    const seeded = await db().podcastEpisode.count();
    expect(seeded).toBeGreaterThanOrEqual(10);
    // The notes of images.server.ts artworkNote, in the list of episodes (the form's help speaks of upscaling too).
    expect(await page.locator("main").textContent()).toContain("All episodes");
    expect(await page.locator("main").textContent()).not.toMatch(/upscaled to|looks soft|cropped to a square|No podcast artwork copy/);
    await page.context().close();
    const idPage = await open("phone", "id");
    await idPage.goto(`${server.url}/episodes-admin`);
    expect(await idPage.locator("main").textContent()).not.toMatch(/diperbesar menjadi|tampak buram|dipotong menjadi|Belum ada salinan artwork/);
    await idPage.context().close();
  });
});
