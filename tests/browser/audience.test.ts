import type { Browser } from "playwright-core";
import { primarySource } from "~/models/audience-figures.server";
import { runAudienceRollup } from "~/models/audience-rollup.server";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// The audience screen as a station admin reads it, on a phone and a desktop, in both themes:
// a fortnight of listening by the demo's shows, rolled up as the leader does every hour.
describeInBrowser("the audience screen", () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    admin = await adminCookie(server.url);
    const DAY = 24 * 3600_000;
    const from = new Date(Math.floor(Date.now() / DAY) * DAY - 16 * DAY);
    // 4,000 sessions over the fortnight, 10 s to 3 h long, 500 listeners on three apps and two devices.
    await db().$executeRawUnsafe(
      `INSERT INTO "ListeningSession" (source, "clientKey", "listenerHash", "startedAt", "endedAt", open, app, device, country)
       SELECT $2, 'gen-' || i, 'listener-' || (i * 7919 % 500),
              $1::timestamptz + (i * 104729 % 1209600) * interval '1 second',
              $1::timestamptz + (i * 104729 % 1209600) * interval '1 second' + (10 + (i * 31337 % 10800)) * interval '1 second',
              false, (ARRAY['Chrome','Safari','Apple Podcasts'])[1 + i % 3], (ARRAY['phone','desktop'])[1 + i % 2], (ARRAY['ID','MY',''])[1 + i % 3]
       FROM generate_series(1, 4000) AS i`,
      from,
      primarySource(),
    );
    expect(await runAudienceRollup({ sessionDays: 30, retentionDays: 730 })).toBe(true);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const viewport of ["desktop", "phone"] as const) {
    for (const theme of ["dark", "light"] as const) {
      it(`reads on a ${viewport} in the ${theme} theme: figures, charts that fit with a legend of names, nothing sideways, axe clean`, async () => {
        const page = await openVisitorPage(browser, server.url, { viewport, theme, admin });
        await page.goto(`${server.url}/audience-admin`);
        // Both charts drew; the per-show one names its lines (only names: the figures are in the
        // table under it). Their axis labels are drawn on the canvas: the screenshots show them.
        await expect.poll(() => page.locator(".uplot canvas").count()).toBe(2);
        await screenshot(page, `audience-${theme}`);
        const legend = (await page.locator(".u-legend").allTextContents()).join(" ");
        expect(legend).toContain("Indie Hour");
        expect(legend).not.toMatch(/Value|--/);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        // Each chart fits its section.
        const overflowing = await page.evaluate(
          () =>
            [...document.querySelectorAll<HTMLElement>(".uplot")].filter(
              (chart) => chart.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
            ).length,
        );
        expect(overflowing).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await page.context().close();
      });
    }
  }
});
