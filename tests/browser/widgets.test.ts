import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Frame, Page, Request } from "playwright-core";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startFakeIcecast, statusJson, type FakeIcecast } from "../helpers/fake-icecast";
import { startTestServer, type TestServer } from "../helpers/server";

/**
 * The widgets on another site: a page served by a second local server (another origin, and
 * another site: 127.0.0.1 against the station's localhost) embeds each widget by script and by
 * iframe, under a strict CSP of its own. The stream's title changes and every widget follows it;
 * the page never reads the station's cookies and no request of a widget carries them.
 */
describeInBrowser("widgets on another site", () => {
  let icecast: FakeIcecast;
  let station: TestServer;
  let host: http.Server;
  let hostUrl = "";
  let browser: Browser;
  let title = "Campus Band - First Song";
  let episodeId = 0;

  beforeAll(async () => {
    icecast = await startFakeIcecast();
    icecast.status = statusJson(`${icecast.url}/live`, () => title);
    station = await startTestServer({ SEED_CONTENT: "true", STREAM_URL: icecast.streamUrl, REWIND_HOURS: "0" });
    episodeId = (await db().podcastEpisode.findFirstOrThrow({ where: { listeningReady: true }, orderBy: { id: "asc" } })).id;
    const stationOrigin = station.url;
    // The host page: scripts, data, images, audio and frames from the station only, and no inline style at all.
    const hostPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Campus news</title><link rel="stylesheet" href="/host.css"><script src="${stationOrigin}/widgets.js" async></script></head>
<body><h1>Campus news</h1>
<spin-now-playing id="now" lang="en"></spin-now-playing>
<spin-player id="live" accent="#0a7d3b" lang="en"></spin-player>
<spin-player id="ep" episode="${episodeId}" t="5" theme="dark" lang="en"></spin-player>
<spin-episode id="card" episode="${episodeId}" size="large" lang="en"></spin-episode>
<spin-schedule id="week" view="week" lang="en"></spin-schedule>
<spin-history id="history" limit="3" lang="en"></spin-history>
<spin-now-playing id="hostile" theme="&lt;img src=x onerror=alert(1)&gt;" accent="red;background:url(javascript:alert(1))" size="huge" lang="xx"><b id="light-dom">fallback</b></spin-now-playing>
<iframe id="f-now" src="${stationOrigin}/embed/now-playing?lang=en" title="Now playing" width="480" height="96"></iframe>
<iframe id="f-player" src="${stationOrigin}/embed/player?lang=en&amp;theme=light" title="Player" width="480" height="112"></iframe>
<iframe id="f-episode" src="${stationOrigin}/embed/episode/${episodeId}?lang=en" title="Episode" width="480" height="200"></iframe>
<iframe id="f-schedule" src="${stationOrigin}/embed/schedule?lang=en" title="Schedule" width="480" height="320"></iframe>
<iframe id="f-history" src="${stationOrigin}/embed/history?lang=en&amp;limit=3" title="History" width="480" height="196"></iframe>
</body></html>`;
    const hostCss =
      "body{font:16px serif;max-width:520px;margin:0 auto;padding:8px} spin-now-playing,spin-player,spin-episode,spin-schedule,spin-history,iframe{display:block;margin:8px 0} *{color:hotpink !important}";
    host = http.createServer((req, res) => {
      const csp = [
        "default-src 'self'",
        `script-src ${stationOrigin}`,
        `connect-src ${stationOrigin}`,
        `img-src ${stationOrigin} data:`,
        `media-src ${stationOrigin}`,
        `frame-src ${stationOrigin}`,
        "style-src 'self'",
      ].join("; ");
      if (req.url === "/host.css") res.writeHead(200, { "Content-Type": "text/css" }).end(hostCss);
      else res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp }).end(hostPage);
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await station?.stop();
    await new Promise((resolve) => host?.close(resolve));
    await icecast?.close();
  });

  const frameOf = (page: Page, id: string): Frame => {
    const frame = page.frames().find((each) => each.url().includes(id));
    if (!frame) throw new Error(`no frame ${id}`);
    return frame;
  };

  it("shows every widget, follows a title change live, and never shares the station's cookies", async () => {
    // The host's own CSP applies (the visitor helper bypasses CSP unless told otherwise).
    const page = await openVisitorPage(browser, station.url, { language: "en", theme: "light", admin: await adminCookie(station.url), bypassCSP: false });
    const stationRequests: Request[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(station.url)) stationRequests.push(request);
    });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    await page.goto(hostUrl);

    // First title, in the widgets and in the iframe versions.
    await expect.poll(() => page.locator("#now .t").textContent(), { timeout: 20_000 }).toBe(title);
    await expect.poll(() => page.locator("#live .t").textContent()).toBe(title);
    await expect.poll(() => frameOf(page, "/embed/now-playing").locator("spin-now-playing .t").textContent(), { timeout: 20_000 }).toBe(title);
    await expect.poll(() => frameOf(page, "/embed/player").locator("spin-player .t").textContent()).toBe(title);
    await expect.poll(() => page.locator("#history li").first().textContent()).toContain("First Song");

    // The episode in both forms, starting at the shared time.
    const episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: episodeId } });
    await expect.poll(() => page.locator("#card .t").textContent()).toBe(episode.title);
    await expect.poll(() => page.locator("#ep .t").textContent()).toBe(episode.title);
    await expect(page.locator("#ep .seek span").first().textContent()).resolves.toBe("0:05");
    await expect(page.locator("#card a.lnk").getAttribute("href")).resolves.toBe(`${station.url}/play/${episodeId}`);
    await expect.poll(() => frameOf(page, `/embed/episode/${episodeId}`).locator("spin-episode .t").textContent()).toBe(episode.title);
    await expect(page.locator("#card button").getAttribute("aria-label")).resolves.toBe(`Play ${episode.title}`);

    // The week's schedule lists the demo station's shows with links to their pages.
    await expect.poll(() => page.locator("#week li").count()).toBeGreaterThan(3);
    const show = await db().show.findFirstOrThrow({ orderBy: { name: "asc" } });
    await expect.poll(() => page.locator(`#week a[href="${station.url}/shows/${show.slug}"]`).count()).toBeGreaterThan(0);
    await expect.poll(() => frameOf(page, "/embed/schedule").locator("spin-schedule li").count()).toBeGreaterThan(0);

    // The shadow DOM keeps the host page's CSS out (its `* { color: hotpink !important }`), and the styles apply under its CSP.
    const colours = await page.locator("#now .t").evaluate((node) => getComputedStyle(node).color);
    expect(colours).not.toBe("rgb(255, 105, 180)");
    await expect(page.locator("#live button").evaluate((node) => getComputedStyle(node).backgroundColor)).resolves.toBe("rgb(10, 125, 59)");

    // The title changes at the source: every widget follows within the station's push interval.
    title = "Campus Band - Second Song";
    await expect.poll(() => page.locator("#now .t").textContent(), { timeout: 20_000 }).toBe(title);
    await expect.poll(() => page.locator("#live .t").textContent()).toBe(title);
    await expect.poll(() => page.locator("#hostile .t").textContent()).toBe(title);
    await expect.poll(() => frameOf(page, "/embed/now-playing").locator("spin-now-playing .t").textContent()).toBe(title);
    await expect.poll(() => frameOf(page, "/embed/player").locator("spin-player .t").textContent()).toBe(title);
    await expect.poll(() => page.locator("#history li").first().textContent(), { timeout: 20_000 }).toContain("Second Song");
    await expect(page.locator("#history li").count()).resolves.toBe(2);
    await expect.poll(() => frameOf(page, "/embed/history").locator("spin-history li").first().textContent()).toContain("Second Song");

    // Hostile attributes fell back to the defaults; nothing of them became markup, nothing ran.
    const hostile = await page.locator("#hostile").evaluate((node) => {
      const box = node.shadowRoot!.querySelector("div")!;
      return { classes: [...box.classList], accent: box.style.getPropertyValue("--a"), images: node.shadowRoot!.querySelectorAll("img[src='x']").length };
    });
    expect(hostile.classes).toEqual(expect.arrayContaining(["w", "auto", "medium"]));
    expect(hostile.accent).not.toContain("url");
    expect(hostile.images).toBe(0);
    expect(dialogs).toEqual([]);

    // The station's cookies (language, theme, an admin session) exist, but the host page cannot read them
    // and not one request the widgets made (script, data, live stream, iframes) carried them.
    const stationCookies = await page.context().cookies(station.url);
    expect(stationCookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(["lang", "theme"]));
    expect(await page.evaluate(() => document.cookie)).toBe("");
    expect(stationRequests.length).toBeGreaterThan(8);
    const kinds = new Set(stationRequests.map((request) => new URL(request.url()).pathname.replace(/\d+/g, "N")));
    expect([...kinds]).toEqual(
      expect.arrayContaining(["/widgets.js", "/widgets/live", "/widgets/now-playing.json", "/widgets/schedule.json", "/embed/player"]),
    );
    for (const request of stationRequests) expect(await request.headerValue("cookie"), request.url()).toBeNull();
    expect(problems.filter((text) => /Content Security Policy|Refused/.test(text))).toEqual([]);

    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const viewport of ["phone", "desktop"] as const) {
        await page.setViewportSize(viewports[viewport]);
        await screenshot(page, `widgets-host-${theme}`);
      }
    }
    await page.context().close();
  });

  it("lets other sites frame only the embed pages", async () => {
    const embed = await fetch(`${station.url}/embed/player`);
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const listen = await fetch(`${station.url}/listen`);
    expect(listen.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(listen.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    // A station page put in a frame on the host page is refused by the browser; an embed page is shown.
    const page = await openVisitorPage(browser, station.url, { bypassCSP: false });
    await page.goto(hostUrl);
    await page.evaluate(
      (sources) =>
        Promise.all(
          sources.map((src) => {
            const frame = document.createElement("iframe");
            frame.src = src;
            document.body.append(frame);
            return new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
          }),
        ),
      [`${station.url}/listen`, `${station.url}/embed/now-playing?lang=en`],
    );
    const urls = page.frames().map((frame) => frame.url());
    expect(urls.some((url) => url.startsWith("chrome-error://"))).toBe(true);
    expect(urls.some((url) => url.endsWith("/listen"))).toBe(false);
    await expect.poll(() => page.frames().filter((frame) => frame.url().endsWith("/embed/now-playing?lang=en")).length).toBeGreaterThan(1);
    await page.context().close();
  });

  it("builds a widget in the admin: preview and snippets at 390 and 1366", async () => {
    const cookie = await adminCookie(station.url);
    for (const [theme, viewport] of [
      ["dark", "phone"],
      ["light", "desktop"],
    ] as const) {
      {
        const page = await openVisitorPage(browser, station.url, { viewport, theme, language: "en", admin: cookie });
        await page.goto(`${station.url}/widgets-admin?widget=now-playing&theme=${theme}&accent=%23ff6600`);
        await expect.poll(() => page.locator("[data-testid=widget-preview] spin-now-playing .t").textContent(), { timeout: 20_000 }).toBe(title);
        const script = await page.getByLabel("Code for a page that allows scripts").inputValue();
        expect(script).toBe(`<script src="${station.url}/widgets.js" async></script>\n<spin-now-playing theme="${theme}" accent="#ff6600"></spin-now-playing>`);
        const iframe = await page.getByLabel("Code for a page that allows only iframes").inputValue();
        expect(iframe).toContain(`src="${station.url}/embed/now-playing?theme=${theme}&accent=%23ff6600"`);
        // Switching the widget redraws the preview (the form submits itself on change).
        await page.getByLabel("Widget", { exact: true }).selectOption("schedule");
        await expect.poll(() => page.locator("[data-testid=widget-preview] spin-schedule li").count(), { timeout: 20_000 }).toBeGreaterThan(0);
        await screenshot(page, `widgets-admin-${theme}`);
        await page.context().close();
      }
    }
    // A value outside the allowed ones is named under its field, and the snippet keeps the default.
    const page = await openVisitorPage(browser, station.url, { language: "en", admin: cookie });
    await page.goto(`${station.url}/widgets-admin?widget=history&limit=500&accent=javascript:alert(1)`);
    await expect(page.locator("[data-field=limit] .form-error").textContent()).resolves.toBe("Not one of the allowed values.");
    await expect(page.locator("[data-field=accent] .form-error").textContent()).resolves.toBe("Not one of the allowed values.");
    expect(await page.getByLabel("Code for a page that allows scripts").inputValue()).toContain("<spin-history></spin-history>");
    await page.context().close();
  });
});
