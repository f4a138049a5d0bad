import type { Browser } from "playwright-core";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

describeInBrowser("a listener opening the site", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each(["phone", "desktop"] as const)("lands on /listen from / (%s)", async (viewport) => {
    const page = await newPage(browser, viewport);
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/listen");
    await expect(page.title()).resolves.toContain("SPIN RADIO");
    expect(await page.getByRole("heading", { name: "LATEST PODCAST" }).isVisible()).toBe(true);
    await screenshot(page, "listen");
    await page.context().close();
  });
});
