import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { SYSTEM_ACTOR } from "~/models/activity.server";
import { addEmbed } from "~/models/embeds.server";
import { createEvent } from "~/models/events.server";
import { moveCrewImage } from "~/models/crew.server";
import { createSlot, moveAiring, validateSlot } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { db } from "~/services/db.server";
import { advancing, episodeTime, msUntil } from "../helpers/audio";
import { adminCookie, testImage } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, items 5-9: what a listener and an admin tripped over, done as they did it.

type Theme = "dark" | "light";
const LANGUAGES = { en: "en-US", id: "id-ID" } as const;
type Language = keyof typeof LANGUAGES;

describeInBrowser("finish pass 2 (items 5-9)", () => {
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

  function open(
    options: { viewport?: keyof typeof viewports; theme?: Theme; language?: Language; asAdmin?: boolean } & Omit<BrowserContextOptions, "viewport"> = {},
  ): Promise<Page> {
    const { language = "en", asAdmin, ...rest } = options;
    return openVisitorPage(browser, server.url, { ...rest, locale: LANGUAGES[language], admin: asAdmin ? admin : undefined });
  }

  /** Serious or critical axe findings, without the third-party players' own frames. */
  async function expectNoAxeViolations(page: Page) {
    expect(await axeViolations(page)).toEqual([]);
  }

  describe("item 8: the episode page", () => {
    let episode: { id: number; title: string };
    let crew: { id: string; name: string }[];
    let feedUrl: string;

    beforeAll(async () => {
      episode = await db().podcastEpisode.findFirstOrThrow({
        where: { publishedAt: { lte: new Date() }, listeningReady: true },
        orderBy: { id: "asc" },
        select: { id: true, title: true },
      });
      crew = await db().crewMember.findMany({ orderBy: { createdAt: "asc" }, take: 2, select: { id: true, name: true } });
      const show = await db().show.create({ data: { slug: "p2-morning-talk", name: "Morning Talk P2" } });
      await db().podcastEpisode.update({
        where: { id: episode.id },
        data: {
          showId: show.id,
          chapters: [
            { startTime: 0, title: "Opening" },
            { startTime: 10, title: "The talk" },
          ],
          credits: { deleteMany: {}, create: crew.map((member, position) => ({ crewMemberId: member.id, role: position === 0 ? "host" : "guest", position })) },
        },
      });
      const added = await addEmbed('<iframe src="https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5" title="Chart pick"></iframe>', SYSTEM_ACTOR);
      expect(added.status).toBe("added");
      feedUrl = `${server.url}/podcast.xml`;
    });

    const words = {
      en: { published: "Published", duration: "Duration", show: "Show", crew: "Crew", host: "host", guest: "guest", subscribe: "SUBSCRIBE", rss: "RSS feed" },
      id: {
        published: "Terbit",
        duration: "Durasi",
        show: "Acara",
        crew: "Kru",
        host: "pembawa acara",
        guest: "tamu",
        subscribe: "BERLANGGANAN",
        rss: "Feed RSS",
      },
    } as const;

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: date, duration, show, crew, chapters, subscribe links, one player and the chart's players", async (language) => {
        const word = words[language];
        const page = await open({ viewport, language });
        await page.goto(`${server.url}/play/${episode.id}`);
        const playName = new RegExp(`^(Play|Putar) ${episode.title}$`);
        await page.getByRole("button", { name: playName }).and(page.locator(":enabled")).waitFor();

        const facts = page.locator(".episode-facts");
        const published = await db().podcastEpisode.findUniqueOrThrow({ where: { id: episode.id }, select: { publishedAt: true, durationSeconds: true } });
        const date = new Intl.DateTimeFormat(LANGUAGES[language] === "en-US" ? "en-GB" : "id-ID", { dateStyle: "long", timeZone: "Asia/Jakarta" }).format(
          published.publishedAt,
        );
        expect(await facts.getByRole("term").allTextContents()).toEqual([word.published, word.duration, word.show, word.crew]);
        expect(await facts.locator("time").first().textContent()).toBe(date);
        expect(await facts.locator("time").nth(1).getAttribute("datetime")).toBe(`PT${published.durationSeconds}S`);
        expect(await facts.locator("time").nth(1).textContent()).toMatch(language === "en" ? /^\d+ (seconds?|minutes?)$/ : /^\d+ (detik|menit)$/);
        expect(await facts.getByRole("link", { name: "Morning Talk P2" }).getAttribute("href")).toBe("/shows/p2-morning-talk");
        await facts.getByText(`${crew[0].name} (${word.host})`).waitFor();
        await facts.getByText(`${crew[1].name} (${word.guest})`).waitFor();
        await page.getByRole("button", { name: /The talk/ }).waitFor();

        // Subscribe: the feed itself and apps that take a feed URL.
        const subscribe = page.getByRole("region", { name: word.subscribe });
        expect(await subscribe.getByRole("link", { name: word.rss }).getAttribute("href")).toBe(feedUrl);
        expect(await subscribe.getByRole("link", { name: "Apple Podcasts" }).getAttribute("href")).toBe(feedUrl.replace(/^http:/, "podcast:"));
        expect(await subscribe.getByRole("link", { name: "Overcast" }).getAttribute("href")).toBe(
          `overcast://x-callback-url/add?url=${encodeURIComponent(feedUrl)}`,
        );

        // The chart's players load here (frame-src allows their hosts on /play too).
        const frame = page.locator('iframe[title="Chart pick"]');
        await frame.scrollIntoViewIfNeeded();
        await expect.poll(() => frame.evaluate((element: HTMLIFrameElement) => element.contentWindow !== null && element.src)).toMatch(/open\.spotify\.com/);
        await expect
          .poll(
            () =>
              page
                .frames()
                .find((each) => each.url().includes("7makk4oTQel546B0PZlDM5"))
                ?.title() ?? Promise.resolve(""),
          )
          .toBe("Player");
        const policy = (await page.request.get(`${server.url}/play/${episode.id}`)).headers()["content-security-policy"];
        expect(policy).toMatch(/frame-src [^;]*https:\/\/open\.spotify\.com/);

        // One episode player: pressing play here plays in the page's player; the bar offers the live stream meanwhile.
        await page.getByRole("button", { name: playName }).click();
        await msUntil(() => advancing(page, episodeTime), 10_000, "the episode to play");
        await page.getByRole("button", { name: new RegExp(`^(Pause|Jeda) ${episode.title}$`) }).waitFor();
        expect(await page.locator(".live-player").getAttribute("data-showing")).toBe("live");
        expect(await page.getByRole("slider", { name: new RegExp(episode.title) }).count()).toBe(1);
        await page.getByRole("button", { name: language === "en" ? "Ahead 30 seconds" : /30 detik/ }).waitFor();
        await screenshot(page, `p2-play-${language}-dark`);
        if (language === "en") await expectNoAxeViolations(page);

        // Credited crew lead to their profiles; elsewhere the bar carries the episode on.
        await facts.getByRole("link", { name: crew[0].name }).click();
        await page.waitForURL(`**/CrewSpin#crew-${crew[0].id}`);
        await page.locator(`#crew-${crew[0].id}`).waitFor();
        expect(await page.locator(".live-player").isVisible()).toBe(true);
        expect(await page.locator(".live-player").getAttribute("data-showing")).toBe("episode");
        expect(await advancing(page, episodeTime)).toBe(true);
        await page.context().close();
      });
    });

    it.each(["phone", "desktop"] as const)("looks finished in light (%s)", async (viewport) => {
      const page = await open({ viewport, theme: "light", language: "id" });
      await page.goto(`${server.url}/play/${episode.id}`);
      await page
        .getByRole("button", { name: `Putar ${episode.title}` })
        .and(page.locator(":enabled"))
        .waitFor();
      await screenshot(page, "p2-play-id-light");
      await page.context().close();
    });
  });

  describe("item 5: time words", () => {
    const DAY_MS = 24 * 3600_000;
    // The station's zone (the default) is the listener's too, so the words are known in advance.
    const ZONE = "Asia/Jakarta";
    const dayKey = (instant: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(instant);
    let airing: Date;
    let firstDate: string;

    beforeAll(async () => {
      // The only airing left is three days ahead at 09:00: "up next" is days away.
      await db().airingMove.deleteMany();
      await db().showSlot.deleteMany();
      const show = await createShow({ name: "Weekend Brunch", slug: "p2-weekend-brunch", description: "", colour: "#00aa00", hostIds: [] });
      firstDate = dayKey(new Date(Date.now() + 3 * DAY_MS));
      airing = new Date(`${firstDate}T09:00:00+07:00`);
      const check = validateSlot({ kind: "once", days: [], startDate: firstDate, startTime: "09:00", durationMinutes: 60, endDate: null });
      if (!check.ok) throw new Error(check.message);
      await createSlot(show.id, check.value, SYSTEM_ACTOR);
    });

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: the next airing days away names its day, on /listen and in the bar", async (language) => {
        const weekday = new Intl.DateTimeFormat(LANGUAGES[language] === "en-US" ? "en-GB" : "id-ID", { weekday: "long", timeZone: ZONE }).format(airing);
        const expected = language === "en" ? `${weekday} at 09:00` : `${weekday} pukul 09.00`;
        const page = await open({ viewport, language, timezoneId: ZONE });
        await page.goto(`${server.url}/listen`);
        const next = page.locator(".on-air__item").nth(1);
        await next.locator(".on-air__show").filter({ hasText: "Weekend Brunch" }).waitFor();
        await expect.poll(() => next.locator(".on-air__until").innerText()).toBe(expected);
        await expect.poll(() => page.getByTestId("player-on-air").innerText()).toContain(expected);
        await screenshot(page, `p2-listen-next-${language}`);
        await page.context().close();
      });

      it.each(["en", "id"] as const)("in %s: the schedule admin lists dates in the admin's words, not ISO", async (language) => {
        const page = await open({ viewport, language, asAdmin: true });
        await page.goto(`${server.url}/schedule-admin`);
        const date = new Intl.DateTimeFormat(LANGUAGES[language] === "en-US" ? "en-GB" : "id-ID", {
          day: "numeric",
          month: "short",
          year: "numeric",
          timeZone: "UTC",
        }).format(new Date(`${firstDate}T12:00:00Z`));
        const slot = page.getByText(new RegExp(language === "en" ? `once on ${date}` : `sekali pada ${date}`));
        await slot.first().waitFor();
        expect(await page.locator("main").innerText()).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
        await screenshot(page, `p2-schedule-admin-${language}`);
        await page.context().close();
      });
    });

    it.each(["phone", "desktop"] as const)(
      "shows each event's popup once per listener, also one added live, and gives focus back after Escape (%s)",
      async (viewport) => {
        await createEvent({ name: `Malam Puisi ${viewport}`, date: "2026-12-20", time: "19:00", poster: await testImage("#335599", 800, 1000) }, SYSTEM_ACTOR);
        const page = await open({ viewport });
        await page.goto(`${server.url}/events`);
        const popup = page.getByRole("dialog", { name: `Malam Puisi ${viewport}` });
        await popup.waitFor();
        await page
          .getByRole("button", { name: /Play the live stream/ })
          .and(page.locator(":enabled"))
          .waitFor();
        await expect.poll(() => popup.evaluate((element) => element.matches(":modal"))).toBe(true);
        await page.keyboard.press("Escape");
        await popup.waitFor({ state: "hidden" });

        // Seen: not again on the next visit.
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "EVENTS" }).waitFor();
        await page
          .getByRole("button", { name: /Play the live stream/ })
          .and(page.locator(":enabled"))
          .waitFor();
        expect(await page.locator("dialog.event-popup[open]").count()).toBe(0);

        // A new event added while the page is open pops up once over it; Escape gives focus back.
        const focused = page.getByRole("button", { name: /Play the live stream/ });
        await focused.focus();
        await createEvent({ name: `Pentas Seni ${viewport}`, date: "2026-12-24", time: "20:00", poster: await testImage("#553399", 800, 1000) }, SYSTEM_ACTOR);
        const live = page.getByRole("dialog", { name: `Pentas Seni ${viewport}` });
        await live.waitFor();
        await screenshot(page, "p2-events-popup");
        await page.keyboard.press("Escape");
        await live.waitFor({ state: "hidden" });
        expect(await focused.evaluate((element) => element === document.activeElement)).toBe(true);
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "EVENTS" }).waitFor();
        await page
          .getByRole("button", { name: /Play the live stream/ })
          .and(page.locator(":enabled"))
          .waitFor();
        expect(await page.locator("dialog.event-popup[open]").count()).toBe(0);
        await page.context().close();
      },
    );
  });

  describe("item 9: names for screen readers, and the schedule's button", () => {
    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: a card's ▶ is a button that plays in the bar; its title stays the link", async (language) => {
        const page = await open({ viewport, language });
        await page.goto(`${server.url}/listen`);
        const list = page.getByRole("list", { name: language === "en" ? "Latest podcast episodes" : /episode/i });
        const card = list.getByRole("listitem").first();
        const title = (await card.getByRole("heading").textContent())!;
        const play = card.getByRole("button", { name: `${language === "en" ? "Play" : "Putar"} ${title}` });
        await play.waitFor();
        expect(await card.getByRole("link", { name: title }).getAttribute("href")).toMatch(/^\/play\/\d+$/);
        expect(await card.getByRole("link", { name: new RegExp(`^(Play|Putar) `) }).count()).toBe(0);
        await play.click();
        await msUntil(() => advancing(page, episodeTime), 10_000, "the episode to play");
        expect(new URL(page.url()).pathname).toBe("/listen");
        await card.getByRole("button", { name: `${language === "en" ? "Pause" : "Jeda"} ${title}` }).waitFor();
        if (viewport === "desktop" && language === "en") await expectNoAxeViolations(page);
        await page.context().close();
      });

      it("the schedule's 'Tampilkan waktu' shows the chosen zone's times with JavaScript on", async () => {
        const page = await open({ viewport, language: "id", timezoneId: "Asia/Jakarta" });
        await page.goto(`${server.url}/schedule`);
        await page
          .getByRole("button", { name: /Putar siaran langsung/ })
          .and(page.locator(":enabled"))
          .waitFor();
        await page.getByLabel("Zona waktu").selectOption("Asia/Tokyo");
        await page.getByRole("button", { name: "Tampilkan waktu" }).click();
        await page.waitForURL((url) => url.searchParams.get("tz") === "Asia/Tokyo");
        await expect.poll(() => page.getByTestId("listener-zone").textContent()).toBe("Asia/Tokyo");
        await screenshot(page, "p2-schedule-zone");
        await page.context().close();
      });
    });

    it.each(["en", "id"] as const)("the volume slider reads a percentage (%s)", async (language) => {
      const page = await open({ viewport: "desktop", language });
      await page.goto(`${server.url}/listen`);
      const volume = page.getByRole("slider", { name: language === "en" ? "Volume" : /Volume/i });
      await volume.waitFor();
      await page
        .getByRole("button", { name: /Play the live stream|Putar siaran langsung/ })
        .and(page.locator(":enabled"))
        .waitFor();
      expect(await volume.getAttribute("aria-valuetext")).toBe("100%");
      await volume.focus();
      await page.keyboard.press("ArrowLeft");
      await expect.poll(() => volume.getAttribute("aria-valuetext")).toBe("95%");
      await page.context().close();
    });
  });

  describe("item 6: the admin's language, accessible names included", () => {
    beforeAll(async () => {
      await createEvent({ name: "Konser Kampus", date: "2026-12-27", time: "19:30", poster: await testImage("#993355", 800, 1000) }, SYSTEM_ACTOR);
      // Lines that were stored as English text: a slot, a moved airing and a moved crew image.
      const show = await createShow({ name: "Sore Santai", slug: "p2-sore-santai", description: "", colour: "#aa5500", hostIds: [] });
      const check = validateSlot({ kind: "weekly", days: ["SU"], startDate: "2027-01-03", startTime: "04:00", durationMinutes: 30, endDate: null });
      if (!check.ok) throw new Error(check.message);
      const slot = await createSlot(show.id, check.value, SYSTEM_ACTOR);
      await moveAiring(slot.id, "2027-01-03T04:00", "2027-01-03T04:30", 30, SYSTEM_ACTOR);
      const [crewImage] = await db().crewImage.findMany({ orderBy: { position: "asc" }, skip: 1, take: 1 });
      expect(await moveCrewImage(crewImage.key, -1, SYSTEM_ACTOR)).toBe(true);
      expect(await moveCrewImage(crewImage.key, 1, SYSTEM_ACTOR)).toBe(true);
    });
    const words = {
      en: {
        logged: [
          'Uploaded event "Konser Kampus" (27 Dec 2026 19:30)',
          'Scheduled "Sore Santai" every Sunday at 04:00 for 30 min, from 3 Jan 2027',
          'Moved "Sore Santai" from 3 Jan 2027 04:00 to 3 Jan 2027 04:30',
          "Moved crew image",
        ],
        foreign: /Mengunggah|Menjadwalkan|Memindahkan/,
        edit: "Edit Konser Kampus",
        button: "Edit",
      },
      id: {
        logged: [
          'Mengunggah event "Konser Kampus" (27 Des 2026 19.30)',
          'Menjadwalkan "Sore Santai" setiap Minggu pukul 04.00 selama 30 menit, mulai 3 Jan 2027',
          'Memindahkan "Sore Santai" dari 3 Jan 2027 04.00 ke 3 Jan 2027 04.30',
          "Memindahkan gambar kru",
        ],
        foreign: /Uploaded event|Edited event|Added a chart player|Scheduled|Moved|Cancelled/,
        edit: "Ubah Konser Kampus",
        button: "Ubah",
      },
    } as const;

    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: the activity log and the event list's Edit buttons", async (language) => {
        const word = words[language];
        const page = await open({ viewport, language, asAdmin: true });
        await page.goto(`${server.url}/dashboard-admin`);
        // The log sits in a collapsed section: read what it holds.
        for (const line of word.logged) await page.locator(".activity-list").getByText(line).first().waitFor({ state: "attached" });
        const log = await page.locator(".activity-list").textContent();
        expect(log).not.toMatch(word.foreign);
        expect(log).not.toMatch(/\d{4}-\d{2}-\d{2}/);
        await screenshot(page, `p2-dashboard-${language}`);
        await page.goto(`${server.url}/eventsAdmin`);
        const edit = page.getByRole("link", { name: word.edit, exact: true });
        await edit.waitFor();
        // It reads the button's word, then the name for whoever cannot see the row.
        expect((await edit.innerText()).trim().split(/\s*\n\s*/)[0]).toBe(word.button);
        await page.context().close();
      });
    });
  });

  // The test server records nothing (REWIND_HOURS=0 on the demo stream, tests/helpers/server.ts). A second
  // server in this process would take over its database connection, so the one server is used.
  describe("item 7: the dashboard's rewind figure when nothing is recorded", () => {
    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: says it is not recording and why", async (language) => {
        const page = await open({ viewport, language, asAdmin: true });
        await page.goto(`${server.url}/dashboard-admin`);
        const section = page.getByRole("region", { name: language === "en" ? "Rewind" : "Putar ulang" });
        await section
          .getByText(language === "en" ? /^Not recording: REWIND_HOURS is 0/ : /^Tidak merekam: REWIND_HOURS bernilai 0/)
          .waitFor({ state: "attached" });
        expect(await section.textContent()).not.toMatch(/0 (KB|B)\b.*\(0 seg/);
        await screenshot(page, `p2-dashboard-rewind-${language}`);
        await page.context().close();
      });
    });
  });

  describe("item 7: a one-off airing's form", () => {
    const words = {
      en: { once: "Once (special)", weekly: "Weekly", days: "Days (weekly)", last: "Last date (optional)", first: "First date" },
      id: { once: "Sekali (spesial)", weekly: "Mingguan", days: "Hari (mingguan)", last: "Tanggal terakhir (opsional)", first: "Tanggal pertama" },
    } as const;
    describe.each(["phone", "desktop"] as const)("%s", (viewport) => {
      it.each(["en", "id"] as const)("in %s: hides the weekday boxes and the last date while 'once' is picked", async (language) => {
        const word = words[language];
        const page = await open({ viewport, language, asAdmin: true });
        await page.goto(`${server.url}/schedule-admin`);
        const days = page.getByRole("group", { name: word.days });
        const last = page.getByLabel(word.last);
        await days.waitFor();
        expect(await last.isVisible()).toBe(true);
        await page.getByRole("radio", { name: word.once }).check();
        await days.waitFor({ state: "hidden" });
        expect(await last.isVisible()).toBe(false);
        expect(await page.getByLabel(word.first).isVisible()).toBe(true);
        await screenshot(page, `p2-slot-once-${language}`);
        await page.getByRole("radio", { name: word.weekly }).check();
        await days.waitFor();
        expect(await last.isVisible()).toBe(true);
        await page.context().close();
      });
    });
  });
});
