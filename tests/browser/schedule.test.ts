import type { Browser, Locator } from "playwright-core";
import { createSlot, validateSlot, WEEKDAYS } from "~/models/schedule.server";
import { createShow } from "~/models/shows.server";
import { recordSongChange } from "~/models/song-history.server";
import { wallKeyAt } from "~/utils/schedule-time";
import { describeInBrowser, launchBrowser, newPage } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const STATION = "Europe/Amsterdam";
const LISTENER = "America/Los_Angeles";
const MINUTE = 60_000;

function slotValue(input: Parameters<typeof validateSlot>[0]) {
  const check = validateSlot(input);
  if (!check.ok) throw new Error(check.error);
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

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: STATION });
    browser = await launchBrowser();
    const now = Date.now();
    const onAir = await createShow({ name: "On Air Now", slug: "on-air-now", description: "", colour: "#ff0000", hostIds: [] });
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
});
