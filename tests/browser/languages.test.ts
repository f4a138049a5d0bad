import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { DEMO_EPISODE_EXTRAS } from "~/models/demo-content.server";
import { db } from "~/services/db.server";
import { adminCookie } from "../helpers/admin";
import { describeInBrowser, launchBrowser, newPage } from "../helpers/browser";
import { startTestServer, type TestServer } from "../helpers/server";

/**
 * Issue 19: every page reads in one language. Each route is loaded by a browser asking for
 * Indonesian and by one asking for English, and its visible text (plus what screen readers read:
 * aria-labels, titles, alt texts, placeholders) is searched for words of the other language,
 * after taking out what is not the interface's to translate: the station's content (names and
 * titles an admin typed) and the spec's own wording, which stays verbatim in Indonesian.
 */

// The spec's exact strings: in the Indonesian interface they read as the spec writes them, English or not.
const SPEC_STRINGS = [
  "LISTEN",
  "WATCH",
  "NEWS",
  "CHART",
  "CREW",
  "EVENTS",
  "MENU",
  "Guest",
  "FAVORITE PODCAST",
  "SIGN OUT",
  "REGISTER WITH GOOGLE",
  "Sign With Google",
  "Invalid PIN!",
  "LATEST PODCAST",
  "PODCAST",
  "TRENDING",
  "VIEW MORE",
  "Registration Success!",
  "You have registered!",
];
const INDONESIAN_SPEC_STRINGS = ["Lengkapi semua data sebelum mengunggah.", "Event berhasil diunggah!", "Belum ada event yang diunggah."];

// Everyday words of one language that the other never uses ("episode" and "podcast" are both).
const ENGLISH_WORDS =
  /\b(the|and|your|you|with|from|this|that|there|here|not|yet|no|play|pause|sign in|loading|next|previous|back to|upload|delete|save|edit|cancel|close|search|schedule|history|show|shows|episodes|listen to|live stream|on air|off the air|today|tomorrow|minutes?|hours?|days?|name|date|time)\b/i;
const INDONESIAN_WORDS =
  /\b(yang|dan|untuk|dengan|belum|sudah|tidak|sedang|semua|dari|ini|itu|atau|akan|bisa|kembali|putar|jeda|dengarkan|masuk|keluar|simpan|hapus|unggah|acara|jadwal|siaran|langsung|hari|jam|menit|minggu|sekarang|lihat|tutup|cari|nama|tanggal|waktu)\b/i;

const PUBLIC_ROUTES = [
  "/listen",
  "/watch",
  "/news",
  "/chartcontent",
  "/Chart",
  "/CrewSpin",
  "/events",
  "/schedule",
  "/history",
  "/cardlistmore",
  "/favorites",
  "/login",
  "/register",
  "/pin?kind=admin",
  "/Game",
  "/no-such-page",
];
const ADMIN_ROUTES = [
  "/dashboard-admin",
  "/chartcontentadmin",
  "/CrewAdmin",
  "/eventsAdmin",
  "/schedule-admin",
  "/cardlistmoreadmin",
  "/episodes-admin",
  "/recordings-admin",
];

/** What the station's admins typed: names and titles, which stay as written in every language. */
async function stationContent(): Promise<string[]> {
  const [episodes, shows, events, crew, songs] = await Promise.all([
    db().podcastEpisode.findMany({ select: { title: true, description: true } }),
    db().show.findMany({ select: { name: true, description: true } }),
    db().event.findMany({ select: { name: true } }),
    db().crewMember.findMany({ select: { name: true, jobTitle: true, bio: true, address: true, email: true } }),
    db().songPlay.findMany({ select: { artist: true, title: true, raw: true, showName: true } }),
  ]);
  // The demo stream's programme (songs keep arriving while the pages are read) and the demo episodes'
  // transcripts and chapters are content too.
  const programme = JSON.parse(await readFile("prisma/seed-assets/programme/programme.json", "utf8")) as { tracks: { artist: string; title: string }[] };
  const tracks = programme.tracks.map(({ artist, title }) => ({ artist, title }));
  const extras = Object.values(DEMO_EPISODE_EXTRAS).map(({ transcript, chapters }) => ({ transcript, chapters: chapters.map((c) => c.title).join("\n") }));
  return [...episodes, ...shows, ...events, ...crew, ...songs, ...tracks, ...extras]
    .flatMap((row) => Object.values(row) as string[])
    .flatMap((text) => [text, ...text.split(/\n+/)])
    .map((text) => text.trim())
    .filter((text) => text.length > 1)
    .sort((a, b) => b.length - a.length);
}

/** The page's text as people see and hear it. */
function readableText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = [...document.querySelectorAll("[aria-label], [title], [alt], [placeholder], [aria-valuetext]")].flatMap((element) =>
      ["aria-label", "title", "alt", "placeholder", "aria-valuetext"].map((name) => element.getAttribute(name) ?? ""),
    );
    return [document.title, document.body.innerText, ...attributes].join("\n");
  });
}

function withoutStrings(text: string, strings: string[]): string {
  let rest = text;
  for (const each of strings) rest = rest.split(each).join(" ");
  return rest;
}

/** The lines of `text` holding a word of the other language (empty when the page is clean). Paths such as /shows/… are addresses, not words. */
function foreignLines(text: string, foreign: RegExp): string[] {
  return text
    .split(/\n+/)
    .map((line) => line.replace(/(^|\s)\/[^\s]*/g, " ").trim())
    .filter((line) => foreign.test(line));
}

describeInBrowser("every page in one language", () => {
  let server: TestServer;
  let browser: Browser;
  let content: string[];
  let admin: string;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer({ STATION_LANGUAGE: "id", SEED_CONTENT: "true" }), launchBrowser()]);
    content = [...(await stationContent()), "SPIN RADIO", "Spin Radio"];
    admin = (await adminCookie(server.url)).split("=").slice(1).join("=");
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const languages = [
    { language: "id", locale: "id-ID", foreign: ENGLISH_WORDS, allowed: [...SPEC_STRINGS, ...INDONESIAN_SPEC_STRINGS] },
    { language: "en", locale: "en-US", foreign: INDONESIAN_WORDS, allowed: SPEC_STRINGS },
  ] as const;

  it.each(languages)("reads every page in $language only, with <html lang> saying so", async ({ language, locale, foreign, allowed }) => {
    const page = await newPage(browser, "phone", { locale });
    const host = new URL(server.url).hostname;
    const problems: Record<string, string[]> = {};
    const visit = async (path: string) => {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBeLessThan(path === "/no-such-page" ? 500 : 400);
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.lang), path).toBe(language);
      const lines = foreignLines(withoutStrings(await readableText(page), [...content, ...allowed]), foreign);
      if (lines.length > 0) problems[path] = lines;
    };
    for (const path of PUBLIC_ROUTES) await visit(path);
    const episode = await db().podcastEpisode.findFirstOrThrow({ select: { id: true } });
    await visit(`/play/${episode.id}`);
    const show = await db().show.findFirst({ select: { slug: true } });
    if (show) await visit(`/shows/${show.slug}`);
    await page.context().addCookies([{ name: "__admin", value: admin, domain: host, path: "/" }]);
    for (const path of ADMIN_ROUTES) await visit(path);
    expect(problems).toEqual({});
    await page.context().close();
  });

  it("shows the spec's Indonesian strings verbatim in Indonesian, and English ones in English", async () => {
    for (const { locale, expected } of [
      { locale: "id-ID", expected: "Belum ada event yang diunggah." },
      { locale: "en-US", expected: null },
    ]) {
      await db().event.deleteMany({});
      const page = await newPage(browser, "desktop", { locale });
      await page.goto(`${server.url}/events`);
      const text = await page.evaluate(() => document.body.innerText);
      if (expected) expect(text).toContain(expected);
      else expect(text).not.toContain("Belum ada event yang diunggah.");
      await page.context().close();
    }
  });
});
