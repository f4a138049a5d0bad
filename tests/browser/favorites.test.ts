import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { db } from "~/services/db.server";
import { describeInBrowser, launchBrowser, screenshot, viewports, axeViolations } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

// Issue 29, item 1: a marked ♡ looked like an unmarked one; a guest's ♡ was lost through sign-in;
// registering left the new listener on an empty sign-in form.

const PASSWORD = "night shift playlist";
type Language = "en" | "id";
const words = {
  en: {
    guestHeart: (title: string) => `Sign in to save ${title} to your favorites`,
    heart: (title: string) => `Favorite: ${title}`,
    register: "Register",
    signIn: "Sign in",
  },
  id: {
    guestHeart: (title: string) => `Masuk untuk menyimpan ${title} ke favorit Anda`,
    heart: (title: string) => `Favorit: ${title}`,
    register: "Daftar",
    signIn: "Masuk",
  },
} as const;
const pendingNote = {
  en: "Sign in or register, and the episode you marked with ♡ is saved to your favorites.",
  id: "Masuk atau daftar, dan episode yang Anda tandai dengan ♡ tersimpan di favorit Anda.",
};

/** Share of a control's pixels that differ clearly from its own background (its corner): how much "ink" the icon has. */
async function ink(page: Page, selector: string): Promise<number> {
  const { data, info } = await sharp(await page.locator(selector).first().screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => (y * info.width + x) * info.channels;
  // The middle of the control's edge row is its background (the round button's corners are the page).
  const bg = at(Math.floor(info.width / 2), 1);
  let inked = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const distance = Math.abs(data[i] - data[bg]) + Math.abs(data[i + 1] - data[bg + 1]) + Math.abs(data[i + 2] - data[bg + 2]);
    if (distance > 90) inked++;
  }
  return inked / (info.width * info.height);
}

// A filled heart covers about 0.08 of its 44 px button, its 2 px outline about 0.05.
const FILLED_INK = 0.07;

describeInBrowser("favourites a listener can see and keep", () => {
  let server: TestServer;
  let browser: Browser;
  let episode: { id: number; title: string };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ SEED_CONTENT: "true" }), launchBrowser()]);
    episode = await db().podcastEpisode.findFirstOrThrow({ orderBy: [{ publishedAt: "desc" }, { id: "desc" }], select: { id: true, title: true } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    await db().rateLimit.deleteMany();
  });

  async function open(viewport: keyof typeof viewports, language: Language, { javaScript = true, theme = "dark" as "dark" | "light" } = {}) {
    const context = await browser.newContext({ viewport: viewports[viewport], javaScriptEnabled: javaScript, colorScheme: theme, bypassCSP: true });
    await context.addCookies([
      { name: "lang", value: language, url: server.url },
      { name: "theme", value: encodeURIComponent(Buffer.from(JSON.stringify(theme)).toString("base64")), url: server.url },
    ]);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    return page;
  }
  async function visit(page: Page, path: string, javaScript: boolean) {
    await page.goto(`${server.url}${path}`);
    if (!javaScript) return;
    // Hydrated: the play page has cued its episode in the bar; elsewhere the bar's live button is enabled.
    if (path.startsWith("/play/")) await page.waitForFunction(() => document.querySelector("[data-testid=episode-audio]")?.getAttribute("src"));
    else await page.locator(".live-player button:enabled").first().waitFor();
  }
  const favoriteCount = (email: string) => db().favorite.count({ where: { user: { email }, episodeId: episode.id } });

  it.each([
    ["phone", "en"],
    ["desktop", "id"],
  ] as const)(
    "a guest taps ♡, registers, and is back signed in with the favourite saved (%s, %s)",
    async (viewport, language) => {
      const page = await open(viewport, language);
      const email = `guest-heart-${viewport}@example.com`;
      await visit(page, "/listen", true);
      await page
        .getByRole("button", { name: words[language].guestHeart(episode.title) })
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === "/login");
      expect(await page.getByRole("status").filter({ hasText: "♡" }).textContent()).toBe(pendingNote[language]);
      await page.locator(".auth-card__foot").getByRole("link", { name: words[language].register }).click();
      await page.waitForURL((url) => url.pathname === "/register");
      await page.locator("#register-name").fill("Dewi Malam");
      await page.locator("#register-email").fill(email);
      await page.locator("#register-password").fill(PASSWORD);
      await page.locator("#register-con-password").fill(PASSWORD);
      await page.locator(".auth-card form").getByRole("button", { name: words[language].register }).click();

      // Back where the ♡ was tapped, signed in, with the spec's message (verbatim in both languages).
      await page.waitForURL((url) => url.pathname === "/listen");
      expect(await page.locator(".registered-banner").textContent()).toBe("Registration Success! You have registered!");
      await page.locator(".live-player button:enabled").first().waitFor();
      const heart = page.getByRole("button", { name: words[language].heart(episode.title) }).first();
      expect(await heart.getAttribute("aria-pressed")).toBe("true");
      expect(await favoriteCount(email)).toBe(1);
      expect(await page.locator("#login-email").count()).toBe(0);
      await screenshot(page, `favorites-registered-${language}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    },
    180_000,
  );

  it.each([
    ["phone", "id"],
    ["desktop", "en"],
  ] as const)(
    "without JavaScript: a guest taps ♡ on the play page, signs in, and the favourite is saved (%s, %s)",
    async (viewport, language) => {
      const email = `nojs-heart-${viewport}@example.com`;
      const signup = await open(viewport, language);
      await visit(signup, "/register", true);
      await signup.locator("#register-name").fill("Tanpa Skrip");
      await signup.locator("#register-email").fill(email);
      await signup.locator("#register-password").fill(PASSWORD);
      await signup.locator("#register-con-password").fill(PASSWORD);
      await signup.locator(".auth-card form").getByRole("button", { name: words[language].register }).click();
      await signup.waitForURL((url) => url.pathname === "/listen");
      await signup.context().close();

      const page = await open(viewport, language, { javaScript: false });
      await visit(page, `/play/${episode.id}`, false);
      await page
        .getByRole("button", { name: words[language].guestHeart(episode.title) })
        .first()
        .click();
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.locator("#login-email").fill(email);
      await page.locator("#login-password").fill(PASSWORD);
      await page.locator(".auth-card form").getByRole("button", { name: words[language].signIn, exact: true }).click();
      expect(new URL(page.url()).pathname).toBe(`/play/${episode.id}`);
      expect(
        await page
          .getByRole("button", { name: words[language].heart(episode.title) })
          .first()
          .getAttribute("aria-pressed"),
      ).toBe("true");
      expect(await favoriteCount(email)).toBe(1);
      await page.context().close();
    },
    180_000,
  );

  it.each(["phone", "desktop"] as const)(
    "shows a marked ♡ filled, unlike an unmarked one, on cards, the play page and the favourites page, light and dark (%s)",
    async (viewport) => {
      const email = `filled-${viewport}@example.com`;
      for (const theme of ["dark", "light"] as const) {
        const page = await open(viewport, "en", { theme });
        if (theme === "dark") {
          await visit(page, "/register", true);
          await page.locator("#register-name").fill("Fan Setia");
          await page.locator("#register-email").fill(email);
          await page.locator("#register-password").fill(PASSWORD);
          await page.locator("#register-con-password").fill(PASSWORD);
          await page.locator(".auth-card form").getByRole("button", { name: "Register" }).click();
          await page.waitForURL((url) => url.pathname === "/listen");
          await page.locator(".live-player button:enabled").first().waitFor();
          const heart = page.getByRole("button", { name: `Favorite: ${episode.title}` }).first();
          await heart.click();
          await expect.poll(() => favoriteCount(email)).toBe(1);
        } else {
          await visit(page, "/login", true);
          await page.locator("#login-email").fill(email);
          await page.locator("#login-password").fill(PASSWORD);
          await page.locator(".auth-card form").getByRole("button", { name: "Sign in", exact: true }).click();
          await page.waitForURL((url) => url.pathname === "/listen");
          await page.locator(".live-player button:enabled").first().waitFor();
        }
        for (const path of ["/listen", `/play/${episode.id}`, "/favorites"]) {
          await visit(page, path, true);
          const marked = page.getByRole("button", { name: `Favorite: ${episode.title}`, pressed: true }).first();
          await marked.scrollIntoViewIfNeeded();
          await page.mouse.move(0, 0);
          const markedInk = await ink(page, `[aria-pressed="true"][aria-label="Favorite: ${episode.title}"]`);
          // Beside it, an episode that is not a favourite, where the page shows one.
          const unmarked = `.favorite-button[aria-pressed="false"]:visible`;
          const unmarkedInk = (await page.locator(unmarked).count()) > 0 ? await ink(page, unmarked) : null;
          if (unmarkedInk !== null) expect(markedInk, `${path} ${theme}`).toBeGreaterThan(unmarkedInk * 1.4);
          expect(markedInk, `${path} ${theme}`).toBeGreaterThan(FILLED_INK);
          await screenshot(page, `favorites-filled-${path.replace(/\W+/g, "-").replace(/^-|-$/g, "")}-${theme}`);
        }
        await page.context().close();
      }
    },
    240_000,
  );
});
