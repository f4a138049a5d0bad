import type { Browser, Page } from "playwright-core";
import { db } from "~/services/db.server";
import { testImage } from "../helpers/admin";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

describeInBrowser("the admin area in a browser", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    await db().rateLimit.deleteMany();
  });

  describe.each([
    { mode: "JavaScript on", javaScriptEnabled: true },
    { mode: "JavaScript off", javaScriptEnabled: false },
  ])("$mode", ({ javaScriptEnabled }) => {
    const suffix = javaScriptEnabled ? "js" : "nojs";

    /** Opens an admin URL, which asks for the PIN, and enters it. */
    async function enterAdmin(page: Page, path: string) {
      await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname).toBe("/listen");
      const dialog = page.locator("dialog.pin-dialog[open]");
      await expect(dialog.getByRole("heading", { name: "Admin access" }).isVisible()).resolves.toBe(true);
      await dialog.locator('input[name="pin"]').fill("123456");
      await Promise.all([page.waitForURL(`**${path}`), dialog.getByRole("button", { name: "Enter" }).click()]);
    }

    function onlyIfJs(page: Page) {
      // Deletes ask for confirmation with JavaScript; accept it.
      page.on("dialog", (dialog) => void dialog.accept());
    }

    it("refuses a wrong PIN with 'Invalid PIN!', then lets the right one into the page that asked", async () => {
      const page = await newPage(browser, "desktop", { javaScriptEnabled, colorScheme: "dark" });
      const liveSessions = () => db().adminSession.count({ where: { expiresAt: { gt: new Date() } } });
      const sessionsBefore = await liveSessions();
      await page.goto(`${server.url}/eventsAdmin`);
      const dialog = page.locator("dialog.pin-dialog[open]");
      const input = dialog.locator('input[name="pin"]');
      expect(await input.getAttribute("type")).toBe("password");
      expect(await input.getAttribute("maxlength")).toBe("6");
      await input.fill("000000");
      // With JavaScript the refusal is followed by a revalidation of the page's data; let it land first.
      const revalidated = javaScriptEnabled ? page.waitForResponse((response) => response.url().includes("/listen.data")) : null;
      await dialog.getByRole("button", { name: "Enter" }).click();
      await page.getByText("Invalid PIN!").waitFor();
      await revalidated;
      await screenshot(page, `admin-pin-invalid-${suffix}`);
      expect(await liveSessions()).toBe(sessionsBefore);
      await page.locator('dialog.pin-dialog[open] input[name="pin"]').fill("123456");
      await page.locator("dialog.pin-dialog[open]").getByRole("button", { name: "Enter" }).click();
      await page.getByRole("heading", { level: 1, name: "Events" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/eventsAdmin");
      await page.context().close();
    });

    it("uploads an event: missing data first, then 'Event berhasil diunggah!'", async () => {
      const page = await newPage(browser, "desktop", { javaScriptEnabled, colorScheme: "dark" });
      const dataPosts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") dataPosts.push(new URL(request.url()).pathname);
      });
      await enterAdmin(page, "/eventsAdmin");
      // The spec's messages are Indonesian: the page is asked for in Indonesian (the remembered `lang` cookie, "id" encoded).
      await page.context().addCookies([{ name: "lang", value: "id", url: server.url }]);
      await page.goto(`${server.url}/eventsAdmin`);
      const form = page.locator('form[aria-label="Unggah event"]');
      const name = `Konser Kampus ${suffix}`;
      await form.getByLabel("Nama").fill(name);
      await form.getByRole("button", { name: "Unggah event" }).click();
      await page.getByText("Lengkapi semua data sebelum mengunggah.").waitFor();
      expect(await db().event.count({ where: { name } })).toBe(0);
      // What was typed is still there, with or without JavaScript.
      expect(await page.locator('form[aria-label="Unggah event"]').getByLabel("Nama").inputValue()).toBe(name);

      const poster = await testImage(javaScriptEnabled ? "#cc3366" : "#3366cc", 800, 1000);
      const uploadForm = page.locator('form[aria-label="Unggah event"]');
      await uploadForm.getByLabel("Poster").setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: poster });
      if (javaScriptEnabled) {
        // The chosen file is previewed before it is sent.
        await uploadForm.locator('img[alt$="poster.png"]').waitFor();
      }
      await uploadForm.getByLabel("Nama").fill(name);
      await uploadForm.getByLabel("Tanggal").fill("2030-08-17");
      await uploadForm.getByLabel("Waktu").fill("19:30");
      await uploadForm.getByRole("button", { name: "Unggah event" }).click();
      await page.getByText("Event berhasil diunggah!").waitFor();
      await page.locator(".admin-list__title", { hasText: name }).waitFor();
      expect(await db().event.count({ where: { name } })).toBe(1);
      // With JavaScript the form goes through a Remix fetcher to the same action; without, a plain post.
      expect(dataPosts).toContain(javaScriptEnabled ? "/eventsAdmin.data" : "/eventsAdmin");
      await screenshot(page, `admin-events-${suffix}`);
      await page.context().close();
    });

    it("refuses an embed that is not an allowed player, and adds one that is", async () => {
      const page = await newPage(browser, "phone", { javaScriptEnabled, colorScheme: "dark" });
      await enterAdmin(page, "/chartcontentadmin");
      const embedsBefore = await db().embed.count();
      const form = page.locator('form[aria-label="Add an embed"]');
      await form.getByLabel("Embed code").fill('<script>alert("x")</script>');
      await form.getByRole("button", { name: "Add embed" }).click();
      await page.getByText("That is not a single <iframe> embed.", { exact: false }).first().waitFor();
      expect(await page.locator(".form-error", { hasText: "Only a single <iframe> player" }).isVisible()).toBe(true);
      await screenshot(page, `admin-chart-refused-${suffix}`);
      expect(await db().embed.count()).toBe(embedsBefore);

      await page
        .locator('form[aria-label="Add an embed"]')
        .getByLabel("Embed code")
        .fill(`<iframe src="https://open.spotify.com/embed/episode/${suffix}" width="100%" height="152" onload="alert(1)"></iframe>`);
      await page.locator('form[aria-label="Add an embed"]').getByRole("button", { name: "Add embed" }).click();
      await page.getByText("Embed added to the chart.").waitFor();
      const frame = page.locator(`iframe[src="https://open.spotify.com/embed/episode/${suffix}"]`);
      await frame.waitFor({ state: "attached" });
      expect(await frame.getAttribute("sandbox")).toContain("allow-scripts");
      expect(await frame.getAttribute("onload")).toBeNull();
      await page.context().close();
    });

    it("reorders crew images with move buttons and leaves admin", async () => {
      const page = await newPage(browser, "desktop", { javaScriptEnabled, colorScheme: "dark" });
      onlyIfJs(page);
      await enterAdmin(page, "/dashboard-admin");
      const firstTwo = async () => (await db().crewImage.findMany({ orderBy: { position: "asc" }, take: 2 })).map((image) => image.key);
      const [first, second] = await firstTwo();
      // Each crew image's controls are behind its "Edit" (the grid stays compact).
      await page.getByText(`Edit ${second}`, { exact: true }).click();
      await page.getByRole("button", { name: `Move ${second} up` }).click();
      await page.getByText(`${second} moved up.`).waitFor();
      expect(await firstTwo()).toEqual([second, first]);
      await screenshot(page, `admin-dashboard-${suffix}`);
      await Promise.all([page.waitForURL("**/listen"), page.getByRole("button", { name: "Leave admin", exact: true }).click()]);
      await page.goto(`${server.url}/dashboard-admin`);
      expect(new URL(page.url()).pathname).toBe("/listen");
      await page.context().close();
    });
  });

  it("shows a new event on an open public page without a reload", async () => {
    const admin = await newPage(browser, "desktop", { colorScheme: "dark" });
    const listener = await newPage(browser, "phone", { colorScheme: "dark" });
    await listener.goto(`${server.url}/events?popup=closed`);
    await admin.goto(`${server.url}/eventsAdmin`);
    await admin.locator('dialog.pin-dialog[open] input[name="pin"]').fill("123456");
    await Promise.all([admin.waitForURL("**/eventsAdmin"), admin.locator("dialog.pin-dialog[open]").getByRole("button", { name: "Enter" }).click()]);
    // The spec's message is Indonesian: the admin page is asked for in Indonesian (the `lang` cookie, "id" encoded).
    await admin.context().addCookies([{ name: "lang", value: "id", url: server.url }]);
    await admin.goto(`${server.url}/eventsAdmin`);
    const form = admin.locator('form[aria-label="Unggah event"]');
    await form.getByLabel("Poster").setInputFiles({ name: "live.png", mimeType: "image/png", buffer: await testImage("#22aa88", 800, 1000) });
    await form.getByLabel("Nama").fill("Siaran Langsung");
    await form.getByLabel("Tanggal").fill("2030-09-01");
    await form.getByLabel("Waktu").fill("08:00");
    await form.getByRole("button", { name: "Unggah event" }).click();
    await admin.getByText("Event berhasil diunggah!").waitFor();
    await listener.locator(".event-list").getByText("Siaran Langsung").waitFor({ timeout: 5000 });
    await admin.context().close();
    await listener.context().close();
  });

  it.each(["phone", "desktop"] as const)("screenshots every admin screen (%s)", async (viewport) => {
    const page = await newPage(browser, viewport, { colorScheme: "dark" });
    await page.goto(`${server.url}/dashboard-admin`);
    await page.locator('dialog.pin-dialog[open] input[name="pin"]').fill("123456");
    await Promise.all([page.waitForURL("**/dashboard-admin"), page.locator("dialog.pin-dialog[open]").getByRole("button", { name: "Enter" }).click()]);
    for (const [path, name] of [
      ["/dashboard-admin", "admin-dashboard"],
      ["/cardlistmoreadmin", "admin-cards"],
      ["/chartcontentadmin", "admin-chart"],
      ["/CrewAdmin", "admin-crew"],
      ["/eventsAdmin", "admin-events-page"],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("networkidle");
      await screenshot(page, name);
    }
    await page.context().close();
  });
});
