import type { Browser, Locator, Page } from "playwright-core";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, item 7 (admin flow): a share link on the chart admin, the schedule admin's rows and
// the episode form's crew group, done as the admin did them, at 390 and 1366 px in both languages.

const LANGUAGES = { en: "en-US", id: "id-ID" } as const;
type Language = keyof typeof LANGUAGES;
type Viewport = keyof typeof viewports;

describeInBrowser("admin flow (issue 29 item 7)", () => {
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

  // English pages in the dark theme, Indonesian ones in the light theme: axe reads both.
  function open(viewport: Viewport, language: Language): Promise<Page> {
    return openVisitorPage(browser, server.url, { viewport, locale: LANGUAGES[language], language, admin, theme: language === "en" ? "dark" : "light" });
  }

  describe("a share link pasted on the chart admin", () => {
    const words = {
      en: {
        form: "Add an embed",
        field: "Embed code",
        add: "Add embed",
        added: "Embed added to the chart.",
        hint: "A share link from Spotify, YouTube or SoundCloud works",
      },
      id: {
        form: "Tambah embed",
        field: "Kode embed",
        add: "Tambah embed",
        added: "Embed ditambahkan ke chart.",
        hint: "Tautan bagikan dari Spotify, YouTube, atau SoundCloud bisa dipakai",
      },
    } as const;
    // One service per run, so each run adds a player of its own.
    // `source`: where the chart's "Open in …" link under the player goes.
    const links: Record<`${Viewport}-${Language}`, { link: string; player: string; source: string }> = {
      "phone-en": {
        link: "https://open.spotify.com/intl-id/track/4cOdK2wGLETKBW3PvgPWqT?si=0123456789abcdef",
        player: "https://open.spotify.com/embed/track/4cOdK2wGLETKBW3PvgPWqT",
        source: "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPWqT",
      },
      "phone-id": {
        link: "https://youtu.be/dQw4w9WgXcQ?si=AbCdEfGh",
        player: "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
        source: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      },
      "desktop-en": {
        link: "https://soundcloud.com/spin-radio/night-drive?utm_source=clipboard",
        player: "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fspin-radio%2Fnight-drive",
        source: "https://soundcloud.com/spin-radio/night-drive",
      },
      "desktop-id": {
        link: "https://music.youtube.com/watch?v=9bZkp7q19f0&feature=share",
        player: "https://www.youtube-nocookie.com/embed/9bZkp7q19f0",
        source: "https://www.youtube.com/watch?v=9bZkp7q19f0",
      },
    };

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: becomes the service's player, on the admin list and on /chartcontent", async (language) => {
        const word = words[language];
        const { link, player, source } = links[`${viewport}-${language}`];
        const page = await open(viewport, language);
        await page.goto(`${server.url}/chartcontentadmin`);
        const form = page.getByRole("form", { name: word.form });
        await form.getByText(word.hint).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await form.getByLabel(word.field).fill(link);
        await form.getByRole("button", { name: word.add }).click();
        await page.getByText(word.added).first().waitFor();
        const frame = page.locator(`iframe[src="${player}"]`);
        await frame.waitFor({ state: "attached" });
        expect(await frame.getAttribute("sandbox")).toContain("allow-scripts");
        await screenshot(page, `item7-chart-share-link-${language}`);

        await page.goto(`${server.url}/chartcontent`);
        const onChart = page.locator(`iframe[src="${player}"]`);
        await onChart.waitFor({ state: "attached" });
        expect(await onChart.getAttribute("sandbox")).toContain("allow-scripts");
        const entry = page.locator(".chart-entry", { has: onChart });
        expect(await entry.locator(".chart-entry__open").getAttribute("href")).toBe(source);
        // Named after its service (a link has no title of its own), not after the player's host.
        expect(await entry.locator("figcaption").innerText()).toMatch(/^(Spotify|YouTube|SoundCloud) player$|^Pemutar (Spotify|YouTube|SoundCloud)$/);
        await entry.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-output/screenshots/item7-chartcontent-share-link-${language}-${viewport}.png` });
        await page.context().close();
      });
    });
  });

  describe("the schedule admin's rows", () => {
    const words = {
      en: { edit: "Edit", delete: "Delete", show: "Show", slot: "Time slot" },
      id: { edit: "Ubah", delete: "Hapus", show: "Acara", slot: "Slot waktu" },
    } as const;

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: one Edit and Delete pair per show and per time slot, each row saying which it is", async (language) => {
        const word = words[language];
        const page = await open(viewport, language);
        await page.goto(`${server.url}/schedule-admin`);
        const shows = page.locator(".schedule-admin__show");
        await shows.first().waitFor();
        const slotCount = await db().showSlot.count();
        expect(slotCount).toBeGreaterThan(0);
        expect(await page.locator(".schedule-admin__slot").count()).toBe(slotCount);

        // The words shown (a button's name for screen readers goes on with what it acts on).
        const shown = async (row: Locator) => (await row.allInnerTexts()).map((text) => text.split("\n")[0]);
        for (const show of await shows.all()) {
          const actions = show.locator(":scope > .admin-list__actions");
          expect(await shown(actions.getByRole("link"))).toEqual([word.edit]);
          expect(await shown(actions.getByRole("button"))).toEqual([word.delete]);
          expect(await show.locator(".admin-list__title .schedule-admin__kind").innerText()).toBe(word.show.toUpperCase());
        }
        for (const slot of await page.locator(".schedule-admin__slot").all()) {
          expect(await shown(slot.getByRole("link"))).toEqual([word.edit]);
          expect(await shown(slot.getByRole("button"))).toEqual([word.delete]);
          expect(await slot.locator(".schedule-admin__kind").innerText()).toBe(word.slot.toUpperCase());
        }
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports[viewport].width);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `item7-schedule-rows-${language}`);
        await page.context().close();
      });
    });
  });

  describe("the episode form's crew group", () => {
    const legend = { en: "Credited crew", id: "Kru yang dicantumkan" } as const;

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: has no browser frame and lines up with the other fields", async (language) => {
        const page = await open(viewport, language);
        await page.goto(`${server.url}/episodes-admin`);
        const group = page.getByRole("group", { name: legend[language] }).first();
        await group.waitFor();
        const look = await group.evaluate((element) => {
          const style = getComputedStyle(element);
          const field = element.parentElement?.querySelector(".admin-field");
          return {
            border: style.borderTopWidth,
            padding: style.paddingLeft,
            left: element.getBoundingClientRect().left,
            fieldLeft: field?.getBoundingClientRect().left ?? null,
          };
        });
        expect(look).toMatchObject({ border: "0px", padding: "0px" });
        expect(look.fieldLeft).not.toBeNull();
        expect(look.left).toBe(look.fieldLeft);
        await group.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-output/screenshots/item7-episode-crew-${language}-${viewport}.png` });
        await page.context().close();
      });
    });
  });
});
