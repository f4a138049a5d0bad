import type { Browser, Locator } from "playwright-core";
import { createSlot, validateSlot, WEEKDAYS } from "~/models/schedule.server";
import fs from "node:fs/promises";
import path from "node:path";
import { SYSTEM_ACTOR } from "~/models/activity.server";
import { createEpisode } from "~/models/episodes.server";
import { SEED_DIR } from "~/models/seed.server";
import { createShow, updateShow } from "~/models/shows.server";
import { recordSongChange } from "~/models/song-history.server";
import { wallKeyAt } from "~/utils/schedule-time";
import { testImage } from "../helpers/admin";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const STATION = "Europe/Amsterdam";
const LISTENER = "America/Los_Angeles";
const MINUTE = 60_000;

function slotValue(input: Parameters<typeof validateSlot>[0]) {
  const check = validateSlot(input);
  if (!check.ok) throw new Error(check.message);
  return check.value;
}

/** Waits until the element's text is `text` (pages update after hydration and realtime messages). */
async function expectText(locator: Locator, text: string) {
  await expect.poll(async () => (await locator.innerText()).trim()).toBe(text);
}

const timeIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).format(new Date(iso));

describeInBrowser("schedule in the listener's time zone", () => {
  let server: TestServer;
  let browser: Browser;
  let onAirId: string;
  let onAirEnd: Date;

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: STATION });
    browser = await launchBrowser();
    const now = Date.now();
    const onAir = await createShow({ name: "On Air Now", slug: "on-air-now", description: "", colour: "#ff0000", hostIds: [] });
    onAirId = onAir.id;
    // The airing starts on the minute now − 20 min falls in (wall keys have no seconds) and lasts an hour.
    onAirEnd = new Date(Math.floor((now - 20 * MINUTE) / MINUTE) * MINUTE + 60 * MINUTE);
    const start = wallKeyAt(new Date(now - 20 * MINUTE), STATION);
    await createSlot(
      onAir.id,
      slotValue({ kind: "once", days: [], startDate: start.slice(0, 10), startTime: start.slice(11), durationMinutes: 60, endDate: null }),
    );
    const daily = await createShow({ name: "Daily Drive", slug: "daily-drive", description: "", colour: "#00aa00", hostIds: [] });
    const later = wallKeyAt(new Date(now + 4 * 60 * MINUTE), STATION);
    await createSlot(
      daily.id,
      slotValue({
        kind: "weekly",
        days: [...WEEKDAYS],
        startDate: start.slice(0, 10),
        startTime: `${later.slice(11, 13)}:00`,
        durationMinutes: 60,
        endDate: null,
      }),
    );
    await recordSongChange({ title: "Nina Simone - Feeling Good", at: new Date(now - 5 * MINUTE) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows times in the browser's zone with station time beside, marks on now, and remembers a switched zone", async () => {
    const page = await newPage(browser, "desktop", { timezoneId: LISTENER });
    await page.goto(`${server.url}/schedule`);
    await page.getByTestId("listener-zone").filter({ hasText: LISTENER }).waitFor();
    const now = page.locator(".airing--now");
    await now.getByText("ON NOW").waitFor();
    await expectText(now.locator(".airing__show"), "On Air Now");
    const start = (await now.getAttribute("data-start"))!;
    const time = (await now.locator(".airing__time").innerText()).replace(/\s+/g, " ");
    expect(time).toContain(`${timeIn(start, LISTENER)}–`);
    expect(time).toContain(`(station ${timeIn(start, STATION)}–`);
    expect(await page.locator(".schedule-day__title").first().innerText()).toMatch(/^Today · /);

    await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
    await page.getByTestId("listener-zone").filter({ hasText: "Asia/Tokyo" }).waitFor();
    expect(await now.locator(".airing__time").innerText()).toContain(`${timeIn(start, "Asia/Tokyo")}–`);
    await page.reload();
    await page.getByTestId("listener-zone").filter({ hasText: "Asia/Tokyo" }).waitFor();

    // /listen: on now and up next, and the recent songs.
    await page.goto(`${server.url}/listen`);
    const onAir = page.locator(".on-air");
    await expectText(onAir.locator(".on-air__item--now .on-air__show"), "On Air Now");
    await expectText(onAir.locator(".on-air__item").nth(1).locator(".on-air__show"), "Daily Drive");
    await page.locator(".recent-songs").getByText("Feeling Good").waitFor();
    // A new title reaches the open page over socket.io.
    await recordSongChange({ title: "Miles Davis - So What", at: new Date() });
    await page.locator(".recent-songs .song-list__item").first().getByText("So What").waitFor({ timeout: 5000 });
    await page.context().close();
  });

  it("without JavaScript: station time, and the zone picker works as a form", async () => {
    const page = await newPage(browser, "desktop", { timezoneId: LISTENER, javaScriptEnabled: false });
    await page.goto(`${server.url}/schedule`);
    await expectText(page.getByTestId("listener-zone"), STATION);
    await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Show times" }).click();
    await page.waitForURL(/tz=Asia%2FTokyo/);
    await expectText(page.getByTestId("listener-zone"), "Asia/Tokyo");
    const start = (await page.locator(".airing--now").getAttribute("data-start"))!;
    expect(await page.locator(".airing--now .airing__time").innerText()).toContain(`${timeIn(start, "Asia/Tokyo")}–`);
    await page.getByRole("link", { name: "Next week →" }).click();
    await page.waitForURL(/week=1/);
    expect(page.url()).toContain("tz=Asia%2FTokyo");
    await page.context().close();
  });

  it("the player bar shows on now and up next in the listener's zone, fits 320 px, follows changes live; a show's episode plays in the bar", async () => {
    const page = await newPage(browser, "phone", { timezoneId: LISTENER, viewport: { width: 320, height: 640 } });
    await page.goto(`${server.url}/events`);
    const line = page.getByTestId("player-on-air");
    const lineText = async () => ((await line.textContent()) ?? "").replace(/\s+/g, " ").trim();
    await expect.poll(lineText).toMatch(new RegExp(`^On now On Air Now until ${timeIn(onAirEnd.toISOString(), LISTENER)}`));
    // Nothing wider than the phone, and the bar's play button still answers a tap at its centre.
    const fits = await page.evaluate(() => {
      const toggle = document.querySelector(".live-player__toggle")!.getBoundingClientRect();
      const hit = document.elementFromPoint(toggle.left + toggle.width / 2, toggle.top + toggle.height / 2);
      const until = [...document.querySelectorAll("[data-testid=player-on-air] > span")].find((span) => span.textContent!.includes("until"))!;
      return {
        untilShown: until.getBoundingClientRect().right <= document.querySelector("[data-testid=player-on-air]")!.getBoundingClientRect().right + 0.5,
        pageWidth: document.documentElement.scrollWidth,
        lineRight: document.querySelector("[data-testid=player-on-air]")!.getBoundingClientRect().right,
        toggleRight: toggle.right,
        toggleHit: Boolean(hit?.closest(".live-player__toggle")),
      };
    });
    expect(fits.pageWidth).toBeLessThanOrEqual(320);
    // "until HH:MM" is never cut off; a long name gives way instead.
    expect(fits.untilShown).toBe(true);
    expect(await page.locator(".live-player__show-extra").first().isVisible()).toBe(false);
    expect(fits.lineRight).toBeLessThanOrEqual(fits.toggleRight);
    expect(fits.toggleRight).toBeLessThanOrEqual(320);
    expect(fits.toggleHit).toBe(true);

    // An admin's change reaches the open bar over socket.io, artwork and all.
    const input = { name: "On Air Tonight", slug: "on-air-now", description: "", colour: "#ff0000", hostIds: [] };
    await updateShow(onAirId, input, SYSTEM_ACTOR, { image: await testImage("#aa2266", 600, 600) });
    await expect.poll(lineText, { timeout: 5000 }).toContain("On Air Tonight");

    // Up next is left out on phones, shown on wide screens.
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect.poll(() => page.locator(".live-player__show-extra").first().isVisible()).toBe(true);
    expect(await lineText()).toContain("· Next: Daily Drive");

    // A show's episode: listed on its page, its ▶ plays in the one bar.
    const [audio, cover] = await Promise.all(["audio/episode-1.mp3", "covers/cover-01.jpg"].map((file) => fs.readFile(path.join(SEED_DIR, file))));
    const show = await (await import("~/services/db.server")).db().show.findUniqueOrThrow({ where: { slug: "daily-drive" } });
    const saved = await createEpisode(
      { title: "Daily Drive: Monday", description: "The drive.", publishedAt: new Date(Date.now() - 60 * MINUTE), audio, cover, showId: show.id },
      SYSTEM_ACTOR,
    );
    expect(saved.ok).toBe(true);
    await page.goto(`${server.url}/shows/daily-drive`);
    await page.getByRole("list", { name: "Episodes of Daily Drive" }).getByRole("button", { name: "Play Daily Drive: Monday" }).click();
    expect(new URL(page.url()).pathname).toBe("/shows/daily-drive");
    await expect.poll(() => page.locator(".live-player").getAttribute("data-showing")).toBe("episode");
    expect(await page.locator(".player-episode__title").textContent()).toBe("Daily Drive: Monday");

    if (process.env.SCREENSHOTS) {
      for (const colorScheme of ["light", "dark"] as const) {
        for (const width of [320, 390, 1366]) {
          const shot = await newPage(browser, "desktop", { timezoneId: LISTENER, colorScheme, viewport: { width, height: 800 } });
          const theme = Buffer.from(JSON.stringify(colorScheme)).toString("base64");
          await shot.context().addCookies([{ name: "theme", value: theme, url: server.url }]);
          for (const pagePath of ["/shows/on-air-now", "/listen"]) {
            await shot.goto(`${server.url}${pagePath}`);
            await shot.getByTestId("player-on-air").waitFor();
            await screenshot(shot, `programme-${pagePath.replaceAll("/", "_")}-${width}-${colorScheme}`);
          }
          await shot.context().close();
        }
      }
    }
    await updateShow(onAirId, { ...input, name: "On Air Now" }, SYSTEM_ACTOR, { image: null, remove: true });
    await page.context().close();
  }, 180_000);
});
