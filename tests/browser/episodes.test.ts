import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

const SEED = path.resolve("prisma/seed-assets");

describeInBrowser("publishing an episode and listening to it", () => {
  let server: TestServer;
  let browser: Browser;
  let files: { audio: string; cover: string; dir: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    // A copy of a bundled episode under a new name, as an admin would pick it from disk.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "episode-upload-"));
    files = { dir, audio: path.join(dir, "ngobrol-malam.mp3"), cover: path.join(dir, "ngobrol-malam.jpg") };
    await fs.copyFile(path.join(SEED, "audio/episode-1.mp3"), files.audio);
    await fs.copyFile(path.join(SEED, "covers/cover-07.jpg"), files.cover);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (files) await fs.rm(files.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db().rateLimit.deleteMany();
  });

  /** Opens the EPISODES screen, which asks for the admin PIN, and enters it in the dialog. */
  async function enterEpisodesAdmin(page: Page) {
    await page.goto(`${server.url}/episodes-admin`);
    expect(new URL(page.url()).pathname).toBe("/listen");
    const dialog = page.locator("dialog.pin-dialog[open]");
    await dialog.locator('input[name="pin"]').fill("123456");
    await Promise.all([page.waitForURL("**/episodes-admin"), dialog.getByRole("button", { name: "Enter" }).click()]);
    await page.getByRole("heading", { level: 1, name: "EPISODES" }).waitFor();
  }

  async function fillEpisode(page: Page, title: string) {
    const form = page.getByRole("form", { name: "Upload an episode" });
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Description").fill("Obrolan malam tentang musik indie kampus, direkam langsung dari studio.");
    await form.locator('input[name="audio"]').setInputFiles(files.audio);
    await form.locator('input[name="cover"]').setInputFiles(files.cover);
    return form;
  }

  it("uploads an episode as admin with upload progress, shows it first on /listen, and plays it with seeking", async () => {
    const admin = await newPage(browser, "desktop", { colorScheme: "dark" });
    await enterEpisodesAdmin(admin);
    const form = await fillEpisode(admin, "Ngobrol Malam: Indie Kampus");
    await form.getByText(/^ngobrol-malam\.mp3 · \d+ KB$/).waitFor();
    await admin.evaluate(() => {
      const record = window as unknown as { sawProgress?: boolean };
      new MutationObserver(() => {
        if (document.querySelector("progress.admin-progress")) record.sawProgress = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    await form.getByRole("button", { name: "Upload episode" }).click();
    await admin.getByText('Episode "Ngobrol Malam: Indie Kampus" published.').waitFor();
    expect(await admin.evaluate(() => (window as unknown as { sawProgress?: boolean }).sawProgress)).toBe(true);
    await admin.getByRole("listitem").filter({ hasText: "Ngobrol Malam: Indie Kampus" }).waitFor();
    await screenshot(admin, "episodes-admin");
    const episode = await db().podcastEpisode.findFirstOrThrow({ where: { title: "Ngobrol Malam: Indie Kampus" }, include: { audio: true } });

    const listener = await newPage(browser, "desktop", { colorScheme: "dark" });
    await listener.goto(`${server.url}/listen`);
    const firstCard = listener.getByRole("list", { name: "Latest podcast episodes" }).getByRole("listitem").first();
    expect(await firstCard.getByRole("heading").textContent()).toBe("Ngobrol Malam: Indie Kampus");
    // The title leads to the play page; once the page runs, the ▶ is a button that plays in the bar
    // (it is a link there too until then, so the links are read after it has become the button).
    await firstCard.getByRole("button", { name: /^Play / }).waitFor();
    const links = await firstCard.locator(`a[href^="/play/"]`).all();
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(await link.getAttribute("href")).toBe(`/play/${episode.id}`);

    // Open the play page directly, as from a shared link.
    const ranges: number[] = [];
    listener.on("response", (response) => {
      if (response.url().includes(episode.audio.key)) ranges.push(response.status());
    });
    await listener.goto(`${server.url}/play/${episode.id}`);
    expect(await listener.getByRole("heading", { level: 1 }).textContent()).toBe("Ngobrol Malam: Indie Kampus");
    expect(await listener.locator('meta[property="og:image"]').getAttribute("content")).toMatch(new RegExp(`^${server.url}/media/covers/.+\\.webp$`));
    expect(await listener.locator('meta[name="twitter:title"]').getAttribute("content")).toBe("Ngobrol Malam: Indie Kampus");
    const audio = listener.getByTestId("episode-audio");
    await audio.evaluate((element: HTMLAudioElement) =>
      element.readyState >= 1 ? undefined : new Promise((resolve) => element.addEventListener("loadedmetadata", resolve, { once: true })),
    );
    const seeked = await audio.evaluate(
      (element: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          element.addEventListener("seeked", () => resolve(element.currentTime), { once: true });
          element.currentTime = 20;
        }),
    );
    expect(seeked).toBeCloseTo(20, 0);
    await listener.getByRole("button", { name: "Share at 0:20" }).waitFor();
    expect(Number(await listener.getByLabel("Position in Ngobrol Malam: Indie Kampus").inputValue())).toBe(20);
    expect(ranges).toContain(206);
    await screenshot(listener, "episode-play");

    // The position is remembered in this browser...
    await audio.evaluate((element: HTMLAudioElement) => element.dispatchEvent(new Event("pause")));
    await listener.reload();
    const resumed = await listener.getByTestId("episode-audio").evaluate(
      (element: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          const check = () => (element.currentTime > 0 ? resolve(element.currentTime) : setTimeout(check, 50));
          check();
        }),
    );
    expect(resumed).toBeCloseTo(20, 0);

    // ...and a shared ?t= link starts where it says.
    const friend = await newPage(browser, "phone", { colorScheme: "dark" });
    await friend.goto(`${server.url}/play/${episode.id}?t=12`);
    const started = await friend.getByTestId("episode-audio").evaluate(
      (element: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          const check = () => (element.currentTime >= 11 ? resolve(element.currentTime) : setTimeout(check, 50));
          check();
        }),
    );
    expect(Math.floor(started)).toBeGreaterThanOrEqual(12);
    await friend.getByRole("button", { name: /^Share at 0:1\d$/ }).waitFor();
    await screenshot(friend, "episode-play");

    for (const page of [admin, listener, friend]) await page.context().close();
  });

  it("asks a play page's episode only for the chapters and transcript it has (no 404 in the console)", async () => {
    const [plain, withChapters] = await db().podcastEpisode.findMany({
      where: { publishedAt: { lte: new Date() }, listeningReady: true, transcriptId: null },
      orderBy: { id: "asc" },
      take: 2,
    });
    await db().podcastEpisode.update({ where: { id: plain.id }, data: { chapters: Prisma.DbNull } });
    await db().podcastEpisode.update({
      where: { id: withChapters.id },
      data: {
        chapters: [
          { startTime: 0, title: "Opening" },
          { startTime: 30, title: "The talk" },
        ],
      },
    });
    const page = await newPage(browser, "desktop", { colorScheme: "dark" });
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${new URL(response.url()).pathname}`));

    await page.goto(`${server.url}/play/${plain.id}`);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);

    await page.goto(`${server.url}/play/${withChapters.id}`);
    await page.getByRole("heading", { name: "Chapters" }).waitFor();
    await page.getByRole("button", { name: /The talk/ }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("uploads, edits and deletes an episode without JavaScript", async () => {
    const page = await newPage(browser, "phone", { javaScriptEnabled: false, colorScheme: "dark" });
    await enterEpisodesAdmin(page);
    const form = await fillEpisode(page, "Tanpa JavaScript");
    await Promise.all([page.waitForLoadState("load"), form.getByRole("button", { name: "Upload episode" }).click()]);
    await page.getByText('Episode "Tanpa JavaScript" published.').waitFor();
    await screenshot(page, "episodes-admin");

    await page.getByRole("link", { name: "Edit Tanpa JavaScript" }).click();
    const edit = page.getByRole("form", { name: "Edit Tanpa JavaScript" });
    await edit.getByLabel("Title").fill("Tanpa JavaScript (revisi)");
    await Promise.all([page.waitForLoadState("load"), edit.getByRole("button", { name: "Save changes" }).click()]);
    await page.getByText('Episode "Tanpa JavaScript (revisi)" saved.').waitFor();

    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Delete Tanpa JavaScript (revisi)" }).click()]);
    await page.getByText('Episode "Tanpa JavaScript (revisi)" deleted.').waitFor();
    expect(await db().podcastEpisode.count({ where: { title: { startsWith: "Tanpa JavaScript" } } })).toBe(0);
    await page.context().close();
  });
});
