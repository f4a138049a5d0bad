import type { Browser, Page } from "playwright-core";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { axeViolations, describeInBrowser, launchBrowser, openVisitorPage, screenshot, viewports } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, item 3: every crew member's home address and age were printed on the public CREW page.

type Language = "en" | "id";
const words = {
  en: { tick: "Show age, email and address on the public page", save: "Save changes", saved: (name: string) => `${name} saved.` },
  id: { tick: "Tampilkan usia, email, dan alamat di halaman publik", save: "Simpan perubahan", saved: (name: string) => `${name} disimpan.` },
} as const;

describeInBrowser("crew privacy on the public pages", () => {
  let server: TestServer;
  let browser: Browser;
  let admin: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    admin = await adminCookie(server.url);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  function open(viewport: keyof typeof viewports, language: Language, { asAdmin = false, theme = "dark" as "dark" | "light" } = {}): Promise<Page> {
    return openVisitorPage(browser, server.url, { viewport, language, theme, admin: asAdmin ? admin : undefined });
  }

  /** Everything the public CREW page sends: its HTML and the data its JavaScript reads. */
  async function publicCrewPage(page: Page): Promise<string> {
    await page.goto(`${server.url}/CrewSpin`);
    await page.locator(".crew-card").first().waitFor();
    const data = await (await page.request.get(`${server.url}/CrewSpin.data`)).text();
    return (await page.content()) + data;
  }

  it.each([
    ["phone", "en"],
    ["desktop", "id"],
  ] as const)(
    "shows name, role, photo and bio only, until the admin ticks 'show on the public page' for one member (%s, %s)",
    async (viewport, language) => {
      const crew = await db().crewMember.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
      expect(crew.length).toBeGreaterThan(1);
      // Seeded crew follow the default: nothing private is public.
      expect(crew.every((member) => !member.detailsPublic)).toBe(true);
      const guest = await open(viewport, language);
      let html = await publicCrewPage(guest);
      for (const member of crew) {
        expect(html).toContain(member.name);
        expect(html).toContain(member.jobTitle);
        expect(html).not.toContain(member.email);
        expect(html).not.toContain(member.address);
      }
      expect(await guest.locator(".crew-card__facts").count()).toBe(0);
      await screenshot(guest, `crew-private-${language}`);
      expect(await axeViolations(guest)).toEqual([]);

      // The admin ticks the box for one member.
      const [chosen, other] = crew;
      const adminPage = await open(viewport, language, { asAdmin: true });
      await adminPage.goto(`${server.url}/CrewAdmin?edit=${chosen.id}`);
      const form = adminPage.locator("form").filter({ has: adminPage.locator('input[name="detailsPublic"]') });
      const box = form.getByRole("checkbox", { name: words[language].tick });
      expect(await box.isChecked()).toBe(false);
      await box.check();
      await form.getByRole("button", { name: words[language].save }).click();
      await adminPage.getByText(words[language].saved(chosen.name)).first().waitFor();
      await expect.poll(async () => (await db().crewMember.findUniqueOrThrow({ where: { id: chosen.id } })).detailsPublic).toBe(true);
      await adminPage.goto(`${server.url}/CrewAdmin?edit=${chosen.id}`);
      expect(await adminPage.getByRole("checkbox", { name: words[language].tick }).isChecked()).toBe(true);
      await screenshot(adminPage, `crew-admin-public-${language}`);

      html = await publicCrewPage(guest);
      const card = guest.locator(`#crew-${chosen.id}`);
      expect(await card.getByRole("link", { name: chosen.email }).getAttribute("href")).toBe(`mailto:${chosen.email}`);
      expect(await card.textContent()).toContain(chosen.address);
      expect(html).not.toContain(other.email);
      expect(html).not.toContain(other.address);
      expect(await guest.locator(".crew-card__facts").count()).toBe(1);
      await screenshot(guest, `crew-one-public-${language}`);

      // Unticking makes it private again.
      await adminPage.goto(`${server.url}/CrewAdmin?edit=${chosen.id}`);
      await adminPage.getByRole("checkbox", { name: words[language].tick }).uncheck();
      await adminPage
        .locator("form")
        .filter({ has: adminPage.locator('input[name="detailsPublic"]') })
        .getByRole("button", { name: words[language].save })
        .click();
      await expect.poll(async () => (await db().crewMember.findUniqueOrThrow({ where: { id: chosen.id } })).detailsPublic).toBe(false);
      expect(await publicCrewPage(guest)).not.toContain(chosen.email);
      await adminPage.context().close();
      await guest.context().close();
    },
    180_000,
  );
});
