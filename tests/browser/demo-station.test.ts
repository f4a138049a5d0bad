import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { adminCookie } from "../helpers/admin";
import { msUntil } from "../helpers/audio";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startServerProcess, type ChildServer } from "../helpers/child-server";

// Issue 28, item 1: a station started with no configuration at all is alive within two minutes
// (programme, events, chart, song history, rewind, TRENDING), and an admin empties it in one step.
describeInBrowser("a new station on the embedded defaults", () => {
  let dataDir: string;
  let server: ChildServer;
  let browser: Browser;
  let startedAt: number;
  // Everything below must be there within two minutes of starting the server.
  const untilTwoMinutes = () => Math.max(1_000, startedAt + 120_000 - Date.now());

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "spin-demo-"));
    startedAt = Date.now();
    [server, browser] = await Promise.all([startServerProcess({ DATA_DIR: dataDir, PORT: "0" }), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const open = async (viewport: "phone" | "desktop", url: string): Promise<Page> => {
    const page = await newPage(browser, viewport, { colorScheme: "dark" });
    await page.goto(`${server.url}${url}`);
    return page;
  };

  it("has a week of shows, a show on now or next, upcoming events and chart players", async () => {
    const schedule = await open("desktop", "/schedule");
    const days = schedule.locator(".schedule-day");
    expect(await days.count()).toBe(7);
    for (let day = 0; day < 7; day++) expect(await days.nth(day).locator(".airing").count()).toBeGreaterThan(0);
    // Shows have hosts from the seeded crew.
    expect(await schedule.locator(".airing__hosts").first().textContent()).toMatch(/with \w+/);
    await schedule.context().close();

    const listen = await open("desktop", "/listen");
    expect(await listen.locator(".on-air .on-air__show").count()).toBeGreaterThan(0);
    await listen.context().close();

    const events = await open("desktop", "/events");
    await events.keyboard.press("Escape"); // the latest-event popup
    expect(await events.locator(".event-card").count()).toBeGreaterThan(0);
    await events.context().close();

    const chart = await open("desktop", "/chartcontent");
    expect(await chart.locator('iframe[src^="https://open.spotify.com/embed/"]').count()).toBeGreaterThan(0);
    await chart.context().close();
  }, 60_000);

  it("fills the song history and recent songs from the demo programme, three titles within two minutes", async () => {
    const page = await open("desktop", "/history");
    await msUntil(
      async () => {
        await page.reload();
        return (await page.locator(".song-list__item").count()) >= 3;
      },
      untilTwoMinutes(),
      "three songs on /history",
    );
    // Each song is "Artist - Title", split as on a real station.
    expect(await page.locator(".song-list__item .song-list__artist").count()).toBeGreaterThanOrEqual(3);
    await page.goto(`${server.url}/listen`);
    expect(await page.locator(".recent-songs .song-list__item").count()).toBeGreaterThanOrEqual(3);
    await page.context().close();
  }, 150_000);

  it("records the demo stream: the player rewinds 30 s", async () => {
    await msUntil(
      async () => {
        const playlist = await (await fetch(`${server.url}/live.m3u8`)).text();
        const first = /#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(playlist)?.[1];
        return first !== undefined && Date.parse(first) < Date.now() - 40_000;
      },
      untilTwoMinutes(),
      "40 s of recording",
    );
    const page = await open("desktop", "/listen");
    await page.getByRole("button", { name: "Play the live stream" }).click();
    await page.getByRole("button", { name: "Rewind 30 seconds" }).click();
    await expect.poll(() => page.locator(".live-player .live-badge").first().textContent(), { timeout: 20_000 }).toBe("REWIND");
    await page.context().close();
  }, 150_000);

  it("lists an episode on TRENDING once it was heard", async () => {
    const page = await open("desktop", "/play/3");
    await page.waitForFunction(() => document.querySelector("[data-testid=episode-audio]")?.getAttribute("src"));
    await page
      .getByRole("button", { name: /^Play Campus Talk/ })
      .first()
      .click();
    await page.waitForFunction(() => (document.querySelector("[data-testid=episode-audio]") as HTMLAudioElement | null)?.ended === true, null, {
      timeout: 60_000,
    });
    await msUntil(
      async () => {
        await page.goto(`${server.url}/watch`);
        return (await page.getByRole("list", { name: "Most played episodes this week" }).getByRole("listitem").count()) > 0;
      },
      15_000,
      "TRENDING",
    );
    expect(await page.locator(".trending-item").first().textContent()).toContain("Campus Talk");
    await page.context().close();
  }, 120_000);

  it("takes screenshots of the living demo", async () => {
    for (const viewport of ["phone", "desktop"] as const) {
      for (const url of ["/listen", "/schedule"]) {
        const page = await open(viewport, url);
        await page.waitForLoadState("networkidle").catch(() => {});
        await screenshot(page, `demo-station-${url.slice(1)}`);
        await page.context().close();
      }
    }
  }, 90_000);

  it("removes the demo content in one step, leaving an empty station that still works", async () => {
    const pin = /Generated the admin PIN[^:]*: (\d{6})/.exec(server.output())?.[1];
    expect(pin).toBeDefined();
    const [name, value] = (await adminCookie(server.url, pin)).split("=");
    const page = await newPage(browser, "desktop");
    await page.context().addCookies([{ name, value, url: server.url }]);
    await page.goto(`${server.url}/dashboard-admin`);
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain("Remove all demo content");
      void dialog.accept();
    });
    // A closed section of the dashboard (it is not for every day), opened first.
    await page.locator("summary", { hasText: "Demo content" }).click();
    const removedAt = Date.now();
    await page.getByRole("button", { name: "Remove demo content" }).click();
    await expect.poll(() => page.getByText("The demo content was removed.").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // The section is gone with the content.
    await expect.poll(() => page.getByRole("button", { name: "Remove demo content" }).count()).toBe(0);

    await page.goto(`${server.url}/schedule`);
    expect(await page.locator(".schedule-day").count()).toBe(7);
    expect(await page.locator(".airing").count()).toBe(0);
    await page.goto(`${server.url}/events`);
    expect(await page.locator(".event-card").count()).toBe(0);
    await page.goto(`${server.url}/chartcontent`);
    expect(await page.locator("iframe").count()).toBe(0);
    const listen = await fetch(`${server.url}/listen`);
    expect(listen.status).toBe(200);
    const html = await listen.text();
    expect(html).not.toContain("Ngopi Pagi");
    expect(html).not.toContain("Dimas Pratama");
    expect((await fetch(`${server.url}/play/3`)).status).toBe(404);
    const feed = await (await fetch(`${server.url}/podcast.xml`)).text();
    expect(feed).not.toContain("<item>");
    // The demo programme's history went with it; the stream still plays (and new songs are recorded).
    const history = (await (await fetch(`${server.url}/history.json`)).json()) as { songs: { playedAt: string }[] };
    for (const song of history.songs) expect(Date.parse(song.playedAt)).toBeGreaterThan(removedAt - 5_000);
    const stream = await fetch(`${server.url}/stream/live`);
    expect(stream.headers.get("content-type")).toBe("audio/mpeg");
    await stream.body?.cancel();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    // Nothing is added again on the next start: the station stays empty.
    expect(await server.stop()).toBe(0);
    server = await startServerProcess({ DATA_DIR: dataDir, PORT: "0" });
    expect(server.output()).not.toContain("Seeded the station");
    await page.goto(`${server.url}/events`);
    expect(await page.locator(".event-card").count()).toBe(0);
    await page.context().close();
  }, 150_000);
});
