import type { Browser } from "playwright-core";
import { publicLinks } from "~/utils/public-links";
import { describeInBrowser, launchBrowser, newPage, screenshot } from "../helpers/browser";
import { startStationInstances, type ChildServer } from "../helpers/child-server";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { icyStream, startFakeIcecast, type FakeIcecast } from "../helpers/fake-icecast";

// Issue 28: an admin changes the station's name, time zone and stream in the settings form on one
// instance, and every public page of both instances shows them without a restart.
describeInBrowser("station settings in a browser, two instances", () => {
  let database: TestDatabase;
  let icecast: FakeIcecast;
  let browser: Browser;
  let a: ChildServer;
  let b: ChildServer;
  let instances: Awaited<ReturnType<typeof startStationInstances>> | undefined;

  beforeAll(async () => {
    [database, icecast, browser] = await Promise.all([createTestDatabase(), startFakeIcecast(), launchBrowser()]);
    icecast.stream = icyStream({ title: () => "Hindia - Evaluasi" });
    instances = await startStationInstances(2, { DATABASE_URL: database.url, NEWS_API_URL: "http://127.0.0.1:9/unused" });
    [a, b] = instances.instances;
  });
  afterAll(async () => {
    await browser?.close();
    await instances?.stop();
    await icecast?.close();
    await database?.drop();
  });

  it("saves name, time zone and stream on A; both instances' public pages show them at once", async () => {
    const page = await newPage(browser, "phone");
    await page.goto(`${a.url}/settings-admin`);
    const dialog = page.locator("dialog.pin-dialog[open]");
    await dialog.locator('input[name="pin"]').fill("123456");
    await Promise.all([page.waitForURL("**/settings-admin"), dialog.getByRole("button", { name: "Enter" }).click()]);

    await page.getByLabel("Station name", { exact: true }).fill("Radio Dua Kota");
    await page.getByLabel("Time zone", { exact: true }).fill("America/Bogota");
    await page.getByLabel("Stream address", { exact: true }).fill(icecast.streamUrl);
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("The stream answers and is playing “Hindia - Evaluasi”").waitFor({ timeout: 15_000 });
    // The form shows what was saved (mounted afresh with the reloaded values).
    await expect.poll(() => page.getByLabel("Station name", { exact: true }).inputValue()).toBe("Radio Dua Kota");
    await screenshot(page, "settings-saved-phone");

    for (const server of [a, b]) {
      await expect.poll(async () => (await page.goto(`${server.url}/listen`), page.title()), { timeout: 10_000 }).toContain("Radio Dua Kota");
      // Every public page of either instance names the station in its header and footer.
      for (const path of [...publicLinks.map((link) => link.to), "/schedule", "/history", "/cardlistmore", "/downloads", "/login"]) {
        await page.goto(`${server.url}${path}`);
        expect(await page.locator("header .brand").first().textContent(), path).toContain("Radio Dua Kota");
        expect(await page.locator("footer .brand").first().textContent(), path).toContain("Radio Dua Kota");
      }
      await page.goto(`${server.url}/schedule`);
      await page.getByText("America/Bogota").first().waitFor();
      const stream = await fetch(`${server.url}/stream/live`, { redirect: "manual" });
      expect(stream.headers.get("location")).toBe(icecast.streamUrl);
    }
    // The one leading instance follows the new stream: its title reaches the player bar on B.
    await page.goto(`${b.url}/listen`);
    await page.getByText("Hindia - Evaluasi").first().waitFor({ timeout: 20_000 });
    await page.context().close();
  });
});
