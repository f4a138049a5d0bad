import fs from "node:fs/promises";
import path from "node:path";
import os from "node:os";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import sharp from "sharp";
import { db } from "~/services/db.server";
import { describeInBrowser, launchProfileBrowser, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const SHOTS = "/tmp/w6-pwa-shots";

/** The installed app: manifest and icons, the service worker, offline episodes, updates and push. */
describeInBrowser("the station as an installed app", () => {
  let server: TestServer;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let episode: { id: number; title: string; audioKey: string };
  const secondBuild = path.resolve(`test-output/second-build-${process.pid}`);

  beforeAll(async () => {
    profile = await fs.mkdtemp(path.join(os.tmpdir(), "spin-app-profile-"));
    // A profile of its own, not incognito: Chromium installs web apps only there. The page's own CSP (not bypassed) must let the worker in.
    [server, context] = await Promise.all([
      startTestServer({ SEED_CONTENT: "true" }),
      launchProfileBrowser(profile, { viewport: viewports.phone, colorScheme: "dark" }),
    ]);
    const row = await db().podcastEpisode.findFirstOrThrow({
      where: { listeningReady: true, transcriptId: { not: null }, publishedAt: { lte: new Date() } },
      orderBy: { id: "asc" },
      select: { id: true, title: true, audio: { select: { key: true } } },
    });
    episode = { id: row.id, title: row.title, audioKey: row.audio.key };
    await context.addCookies([{ name: "lang", value: "en", url: server.url }]);
    page = context.pages()[0] ?? (await context.newPage());
    cdp = await context.newCDPSession(page);
    await fs.mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await context?.close();
    await server?.stop();
    await Promise.all([secondBuild, profile].map((dir) => dir && fs.rm(dir, { recursive: true, force: true })));
  });

  const controlled = () => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  const shoot = async (name: string) => {
    for (const [label, size] of [
      ["390", viewports.phone],
      ["1366", viewports.desktop],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
    }
    await page.setViewportSize(viewports.phone);
  };

  it("installs: Chromium reports no installability errors, and the icons are PNGs of the sizes the manifest names", async () => {
    await page.goto(`${server.url}/listen`);
    await controlled();
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as {
      icons: { src: string; sizes: string; purpose: string }[];
      shortcuts: { name: string; url: string }[];
    };
    expect(manifest.shortcuts.map((shortcut) => [shortcut.name, shortcut.url])).toEqual([
      ["Live", "/listen"],
      ["Schedule", "/schedule"],
    ]);
    for (const [src, size, opaque] of [
      ["/icons/icon-192.png", 192, false],
      ["/icons/icon-512.png", 512, false],
      ["/icons/maskable-512.png", 512, true],
      ["/apple-touch-icon.png", 180, true],
    ] as const) {
      const response = await fetch(`${server.url}${src}`);
      expect(response.headers.get("content-type")).toBe("image/png");
      const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([image.format, image.width, image.height, image.hasAlpha && opaque]).toEqual(["png", size, size, false]);
    }
    expect(manifest.icons.some((icon) => icon.purpose === "maskable" && icon.src === "/icons/maskable-512.png")).toBe(true);
    expect((await fetch(`${server.url}/icons/icon-64.png`)).status).toBe(404);
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute("href")).toBe("/apple-touch-icon.png");
  });

  it("downloads an episode, lists it with its size, and plays it with the network cut, seeking through ranges", async () => {
    await page.goto(`${server.url}/play/${episode.id}`);
    await page.getByRole("button", { name: "Download for offline" }).click();
    await page.getByText("Downloaded", { exact: true }).waitFor();
    await shoot("episode-downloaded");
    await page.getByRole("link", { name: "Downloads" }).first().click();
    const item = page.locator(".download-item", { hasText: episode.title });
    await item.waitFor();
    expect(await item.locator(".download-item__meta").textContent()).toMatch(/\d+(\.\d)? MB$/);
    await shoot("downloads");

    await context.setOffline(true);
    await page.reload();
    await item.waitFor();
    await item.getByRole("button", { name: `Play ${episode.title}` }).click();
    const audio = page.locator(`audio[src$="${episode.audioKey}"]`);
    await page.waitForFunction((key) => {
      const element = [...document.querySelectorAll("audio")].find((a) => a.src.endsWith(key));
      return element !== undefined && !element.paused && element.currentTime > 0.5;
    }, episode.audioKey);
    // A seek far into the file is answered from the kept copy by a byte range.
    const played = await audio.evaluate(async (element: HTMLAudioElement) => {
      element.currentTime = Math.floor(element.duration / 2);
      await new Promise((resolve) => element.addEventListener("seeked", resolve, { once: true }));
      const from = element.currentTime;
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { from, to: element.currentTime, duration: element.duration, error: element.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.from).toBeGreaterThan(played.duration / 2 - 2);
    expect(played.to).toBeGreaterThan(played.from);
    // The live stream is never kept: offline, it is simply unreachable.
    const live = await page.evaluate(() =>
      fetch("/stream/live").then(
        (response) => response.status,
        () => "unreachable",
      ),
    );
    expect(live).toBe("unreachable");
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(kept).toContain(`/media/${episode.audioKey}`);
    expect(kept.filter((url) => /^\/(stream|live|socket\.io)[/.]/.test(url))).toEqual([]);

    // A page this device never kept: the offline page, in the listener's language.
    await page.goto(`${server.url}/events`);
    await page.getByRole("heading", { name: "You are offline" }).waitFor();
    expect(await page.getByRole("link", { name: "Downloads" }).getAttribute("href")).toBe("/downloads");
    await shoot("offline");
    await context.setOffline(false);
  });

  it("shows a push message the server sends as a notification (delivered through the DevTools protocol)", async () => {
    await context.grantPermissions(["notifications"], { origin: server.url });
    await cdp.send("ServiceWorker.enable");
    const registrationId = await new Promise<string>((resolve) => {
      cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
          const found = registrations.find((registration) => registration.scopeURL === `${server.url}/` && !registration.isDeleted);
          if (found) resolve(found.registrationId);
        },
      );
    });
    const message = { title: "Ngopi Pagi starts in 5 minutes", body: "07:00–09:00", url: "/listen", tag: "airing-test" };
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: `${server.url}/`, registrationId, data: JSON.stringify(message) });
    const shown = await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      const notifications = await registration.getNotifications();
      return notifications.length > 0 ? notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })) : null;
    });
    expect(await shown.jsonValue()).toEqual([{ title: message.title, body: message.body, tag: message.tag, data: { url: "/listen" } }]);
    await cdp.send("ServiceWorker.disable");
  });

  it("offers a new deployment's worker, switches on Reload, and keeps the downloads", async () => {
    const oldCaches = await page.evaluate(() => caches.keys());
    // A second version of the app: the same build under another version, served at the same address.
    await fs.mkdir(secondBuild, { recursive: true });
    const source = await fs.readFile("build/index.js", "utf8");
    const version = /version: "([0-9a-f]+)"/.exec(source)![1];
    await fs.writeFile(path.join(secondBuild, "index.js"), source.replace(`version: "${version}"`, `version: "${version}b"`));
    // The offline page has no script: back on a page of the app.
    await page.goto(`${server.url}/listen`);
    await controlled();
    server = await server.restart({ buildPath: path.join(secondBuild, "index.js") });

    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration!.update()));
    const notice = page.getByRole("status").filter({ hasText: "A new version of the site is ready." });
    await notice.waitFor();
    // The old worker still serves this page meanwhile.
    expect(await page.evaluate(() => caches.keys())).toContain(`spin-shell-${version}`);
    await shoot("update-ready");
    await Promise.all([page.waitForEvent("load"), notice.getByRole("button", { name: "Reload" }).click()]);
    await page.waitForFunction((next) => caches.keys().then((names) => names.includes(`spin-shell-${next}`)), `${version}b`);
    const caches_ = await page.evaluate(() => caches.keys());
    expect(caches_).not.toContain(`spin-shell-${version}`);
    expect(caches_).toContain("spin-downloads");
    expect(oldCaches).toContain("spin-downloads");
    await page.goto(`${server.url}/downloads`);
    await page.locator(".download-item", { hasText: episode.title }).waitFor();
  });
});
