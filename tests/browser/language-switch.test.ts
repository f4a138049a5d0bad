import type { Browser, Page } from "playwright-core";
import { describeInBrowser, launchBrowser, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// A listener picks Bahasa Indonesia or English: the page comes back in that language, and the
// choice stays on this device (cookie) across reloads and new pages, with or without JavaScript.

describeInBrowser("language switch", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const lang = (page: Page) => page.locator("html").getAttribute("lang");

  it("switches from the profile drawer on a phone, and the choice is remembered", async () => {
    const context = await browser.newContext({ viewport: viewports.phone, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/news`);
    expect(await lang(page)).toBe("en");
    // Once hydrated, the toggle opens the drawer as a modal dialog.
    await page.getByRole("button", { name: "Play the live stream" }).and(page.locator(":enabled")).waitFor();
    await page.getByRole("button", { name: "Profile: Guest" }).click();
    await page.getByRole("dialog", { name: "Profile" }).getByRole("button", { name: "Bahasa Indonesia" }).click();
    await expect.poll(() => lang(page)).toBe("id");
    // The same page, its drawer open again, now in Indonesian.
    expect(new URL(page.url()).pathname).toBe("/news");
    const profile = page.getByRole("dialog", { name: "Profil" });
    await profile.getByRole("group", { name: "Tema" }).waitFor();
    expect(await profile.getByRole("button", { name: "Bahasa Indonesia" }).getAttribute("aria-pressed")).toBe("true");

    await page.reload();
    expect(await lang(page)).toBe("id");
    const next = await context.newPage();
    await next.goto(`${server.url}/events`);
    expect(await lang(next)).toBe("id");
    // The demo's latest event greets a first visit to /events: closed first, as a listener would.
    const popup = next.locator("dialog.event-popup");
    await expect.poll(() => popup.evaluate((dialog) => dialog.matches(":modal"))).toBe(true);
    await next.keyboard.press("Escape");
    await expect.poll(() => next.locator("dialog.event-popup[open]").count()).toBe(0);
    await next.getByRole("button", { name: "Profil: Guest" }).waitFor();

    // And back to English (before hydration the toggle is a link to the drawer: it opens either way).
    await next.getByRole("button", { name: "Profil: Guest" }).click();
    await next.getByRole("dialog", { name: "Profil" }).getByRole("button", { name: "English" }).click();
    await expect.poll(() => lang(next)).toBe("en");
    await next.getByRole("dialog", { name: "Profile" }).getByRole("group", { name: "Theme" }).waitFor();
    await context.close();
  });

  it("switches from the footer without JavaScript, and the choice is remembered", async () => {
    const context = await browser.newContext({ viewport: viewports.phone, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/events`);
    expect(await lang(page)).toBe("en");
    const footer = page.locator(".site-footer");
    await footer.getByRole("button", { name: "Bahasa Indonesia" }).click();
    await expect.poll(() => lang(page)).toBe("id");
    expect(new URL(page.url()).pathname).toBe("/events");
    await page.getByRole("button", { name: "Profil: Guest" }).waitFor();
    expect(await footer.getByRole("group", { name: "Bahasa" }).getByRole("button", { name: "Bahasa Indonesia" }).getAttribute("aria-pressed")).toBe("true");

    await page.reload();
    expect(await lang(page)).toBe("id");
    const next = await context.newPage();
    await next.goto(`${server.url}/listen`);
    expect(await lang(next)).toBe("id");
    await next.getByRole("link", { name: "Langsung ke konten" }).waitFor({ state: "attached" });

    await next.locator(".site-footer").getByRole("button", { name: "English" }).click();
    await expect.poll(() => lang(next)).toBe("en");
    await next.getByRole("button", { name: "Profile: Guest" }).waitFor();
    await context.close();
  });
});
