import type { Browser, Page } from "playwright-core";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { msUntil } from "../helpers/audio";
import { icecastAvailable, startIcecast, type RunningIcecast } from "../helpers/icecast";
import { startTestServer, type TestServer } from "../helpers/server";

const rewindTime = (page: Page) => page.evaluate(() => (document.querySelector("[data-testid=rewind-audio]") as HTMLAudioElement | null)?.currentTime ?? -1);
const title = (page: Page) => page.locator("[data-testid=now-playing-title]").textContent();

// Rewinding in Chromium: hls.js arrives only with the first rewind, the audio moves, and the title is the song of that moment.
(icecastAvailable || process.env.REQUIRE_BROWSER ? describeInBrowser : describe.skip)("rewinding the live stream in the player bar", () => {
  let icecast: RunningIcecast;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    icecast = await startIcecast();
    await icecast.setTitle("Early Bird - First Song");
    [server, browser] = await Promise.all([startTestServer({ STREAM_URL: icecast.streamUrl }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await icecast?.stop();
  });

  it("rewinds 30 s with the song of that moment, then goes back to live", async () => {
    // Enough window to go 30 s back, then a new song on air.
    await msUntil(
      async () => {
        const playlist = await (await fetch(`${server.url}/live.m3u8`)).text();
        const first = /#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(playlist)?.[1];
        return first !== undefined && Date.parse(first) < Date.now() - 42_000;
      },
      90_000,
      "40 s of recording",
    );
    await icecast.setTitle("Late Riser - Second Song");

    const page = await newPage(browser, "desktop", { colorScheme: "dark" });
    page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
    const logs: string[] = [];
    page.on("console", (message) => logs.push(message.text()));
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.goto(`${server.url}/listen`);
    await page.getByRole("button", { name: "Play the live stream" }).click();
    await msUntil(async () => (await title(page)) === "Late Riser - Second Song", 15_000, "the live title");
    // Not even modulepreloaded: the page never fetched hls.js.
    expect(scripts.filter((url) => /hls/i.test(url))).toEqual([]);

    await page.getByRole("button", { name: "Rewind 30 seconds" }).click();
    await page.getByTestId("rewind-controls").waitFor();
    const started = Date.now();
    // hls.js came with the first rewind.
    await msUntil(async () => scripts.some((url) => /hls/i.test(url)), 10_000, "hls.js to load");
    await msUntil(async () => (await rewindTime(page)) > 0, 15_000, "rewind audio");
    const before = await rewindTime(page);
    await msUntil(async () => (await rewindTime(page)) > before + 0.5, 10_000, "rewind audio to advance").catch(async (error: Error) => {
      const element = await page.evaluate(() => {
        const audio = document.querySelector("[data-testid=rewind-audio]") as HTMLAudioElement;
        const ranges = [];
        for (let i = 0; i < audio.buffered.length; i++) ranges.push([audio.buffered.start(i), audio.buffered.end(i)]);
        return {
          time: audio.currentTime,
          paused: audio.paused,
          ready: audio.readyState,
          ranges,
          error: audio.error?.message,
          mse: MediaSource.isTypeSupported("audio/mpeg"),
        };
      });
      throw new Error(`${error.message}: ${JSON.stringify(element)} ${logs.join("\n")}`);
    });
    console.log(`seek to audio: ${Date.now() - started} ms`);
    await msUntil(async () => (await title(page)) === "Early Bird - First Song", 10_000, "the title of 30 s ago");
    expect(await page.locator(".live-player").getAttribute("data-status")).toBe("idle");
    const behind = (await page.getByTestId("rewind-behind").textContent()) ?? "";
    const [minutes, seconds] = behind.replace("−", "").split(":").map(Number);
    expect(minutes * 60 + seconds).toBeGreaterThanOrEqual(20);
    expect(minutes * 60 + seconds).toBeLessThanOrEqual(45);
    expect(await page.locator(".live-player .live-badge").first().textContent()).toBe("REWIND");
    await screenshot(page, "rewind");

    // The scrubber's other ways: the start of the window (Home on the slider), then 30 s ahead.
    const behindSeconds = async () => {
      const [m, s] = ((await page.getByTestId("rewind-behind").textContent()) ?? "").replace("−", "").split(":").map(Number);
      return m * 60 + s;
    };
    const windowSeconds = Number(await page.getByLabel("Position in the last hours of the live stream").getAttribute("max"));
    await page.getByLabel("Position in the last hours of the live stream").focus();
    await page.keyboard.press("Home");
    await msUntil(async () => (await behindSeconds()) >= windowSeconds - 8, 10_000, "the start of the window");
    const atStart = await rewindTime(page);
    await msUntil(async () => (await rewindTime(page)) > atStart + 0.5, 10_000, "audio at the start of the window");
    const farBehind = await behindSeconds();
    await page.getByRole("button", { name: "Ahead 30 seconds" }).click();
    await msUntil(async () => Math.abs((await behindSeconds()) - (farBehind - 30)) <= 6, 10_000, "30 s ahead");
    await msUntil(async () => (await title(page)) === "Early Bird - First Song", 10_000, "the title at that moment");

    await page.getByRole("button", { name: "Back to live" }).click();
    await msUntil(async () => (await page.locator(".live-player").getAttribute("data-status")) === "playing", 15_000, "live again");
    expect(await page.getByTestId("rewind-controls").count()).toBe(0);
    expect(await page.locator(".live-player .live-badge").first().textContent()).toBe("LIVE");
    await msUntil(async () => (await title(page)) === "Late Riser - Second Song", 5_000, "the live title again");
    await page.context().close();

    // On a phone, as narrow as 320 px: the rewinding bar fits, nothing sideways, every control reachable.
    for (const width of [390, 320]) {
      const phone = await newPage(browser, "phone", { colorScheme: "light", viewport: { width, height: 740 } });
      await phone.goto(`${server.url}/listen`);
      await phone.getByRole("button", { name: "Play the live stream" }).click();
      await phone.getByRole("button", { name: "Rewind 30 seconds" }).click();
      await msUntil(async () => (await rewindTime(phone)) > 0, 15_000, `rewind audio at ${width} px`);
      await phone.getByRole("button", { name: "Back to live" }).waitFor();
      await msUntil(async () => /^−\d+:\d\d$/.test((await phone.getByTestId("rewind-behind").textContent()) ?? ""), 10_000, `how far behind, at ${width} px`);
      const layout = await phone.evaluate(() => {
        const bar = document.querySelector(".live-player")!.getBoundingClientRect();
        const controls = [...document.querySelectorAll<HTMLElement>(".live-player button, .live-player input")].filter(
          (element) => element.offsetParent !== null,
        );
        return {
          scrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
          barWidth: bar.width,
          hidden: controls
            .filter((element) => {
              const box = element.getBoundingClientRect();
              const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
              return box.right > window.innerWidth || box.left < 0 || !(hit === element || element.contains(hit));
            })
            .map((element) => element.getAttribute("aria-label") ?? element.textContent),
        };
      });
      await screenshot(phone, `rewind-${width}`);
      expect(layout.scrollsSideways, `${width} px`).toBe(false);
      expect(layout.barWidth).toBeLessThanOrEqual(width);
      expect(layout.hidden, `${width} px`).toEqual([]);
      await phone.context().close();
    }
  }, 240_000);
});
