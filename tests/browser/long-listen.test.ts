import fs from "node:fs/promises";
import type { Browser } from "playwright-core";
import { describeInBrowser, launchBrowser, newPage } from "../helpers/browser";
import { advancing, msUntil } from "../helpers/audio";
import { icecastAvailable, startIcecast, type RunningIcecast } from "../helpers/icecast";
import { startTestServer, type TestServer } from "../helpers/server";

// A listener who keeps the live stream on for a long time while the station's source keeps
// dropping (for a second, a few seconds, longer than the backoff's 30 s ceiling) and Icecast
// restarts, never touching the page. Opt-in, as it takes as long as it is asked to:
// LONG_LISTEN_MINUTES=60 npx vitest run tests/browser/long-listen.test.ts
const MINUTES = Number(process.env.LONG_LISTEN_MINUTES ?? 0);
// Each interruption, in turn: [what happens, seconds the stream stays away].
const INTERRUPTIONS: ["source" | "icecast", number][] = [
  ["source", 1],
  ["source", 4],
  ["icecast", 1],
  ["source", 15],
  ["source", 40],
  ["icecast", 3],
];

(MINUTES > 0 && (icecastAvailable || process.env.REQUIRE_BROWSER) ? describeInBrowser : describe.skip)("listening for a long time through drops", () => {
  let icecast: RunningIcecast;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    icecast = await startIcecast();
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true", STREAM_URL: icecast.streamUrl }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await icecast?.stop();
  });

  it(
    `keeps playing for ${MINUTES} minutes through source drops and Icecast restarts, untouched`,
    async () => {
      const page = await newPage(browser, "desktop", { colorScheme: "dark" });
      await page.goto(`${server.url}/listen`);
      await page.getByRole("button", { name: "Play the live stream" }).click();
      await msUntil(() => advancing(page), 30_000, "live audio to advance");
      const deadline = Date.now() + MINUTES * 60_000;
      const recoveries: { what: string; awaySeconds: number; resumedAfterMs: number | null }[] = [];
      for (let round = 0; Date.now() < deadline; round++) {
        const [what, awaySeconds] = INTERRUPTIONS[round % INTERRUPTIONS.length];
        if (what === "source") {
          await icecast.stopSource();
          await page.waitForTimeout(awaySeconds * 1000);
          await icecast.startSource();
        } else {
          await icecast.restartIcecast({ downMs: awaySeconds * 1000 });
        }
        // From the moment the stream is back: audio moves again within 5 s, nobody clicking.
        const resumedAfterMs = await msUntil(() => advancing(page), 60_000, `audio after ${what} away ${awaySeconds} s`).catch(() => null);
        recoveries.push({ what, awaySeconds, resumedAfterMs });
        // Listen a while before the next interruption.
        await page.waitForTimeout(20_000);
        expect(await advancing(page), `still playing after ${what} away ${awaySeconds} s`).toBe(true);
      }
      await fs.mkdir("test-output", { recursive: true });
      await fs.writeFile("test-output/long-listen.json", JSON.stringify({ minutes: MINUTES, recoveries }, null, 2));
      console.log(`long listen: ${JSON.stringify(recoveries)}`);
      expect(recoveries.filter((each) => each.resumedAfterMs === null || each.resumedAfterMs > 5_400)).toEqual([]);
      expect(await page.locator(".live-player").getAttribute("data-status")).toBe("playing");
      await page.context().close();
    },
    (MINUTES + 5) * 60_000,
  );
});
