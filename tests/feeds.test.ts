import fs from "node:fs/promises";
import path from "node:path";
import Parser from "rss-parser";
import sharp from "sharp";
import { SYSTEM_ACTOR } from "~/models/activity.server";
import { createEpisode, deleteEpisode } from "~/models/episodes.server";
import { createEvent } from "~/models/events.server";
import { db } from "~/services/db.server";
import { buildVTimezone, escapeIcsText, escapeXml, foldIcsLine, itunesDuration, podcastGuid, rfc2822Date, uuidV5 } from "~/services/feeds.server";
import { getStorage } from "~/services/storage.server";
import { fromDateTimeLocal, toDateTimeLocal } from "~/utils/time-zone";
import { startTestServer, type TestServer } from "./helpers/server";

const SEED = path.resolve("prisma/seed-assets");

type Item = {
  title: string;
  guid: string;
  pubDate: string;
  link: string;
  enclosure: { url: string; length: string; type: string };
  itunes: { duration: string; image?: string };
};
type Feed = { title: string; description: string; language: string; itunes: { image: string; owner: { name: string; email?: string }; categories: string[] } };

// rss-parser is what many podcast tools use; it reads the itunes namespace itself.
const parser = new Parser<Feed, Item>({ customFields: { feed: ["language"] } });

/** Unfolds an iCalendar document into its logical content lines (RFC 5545 3.1). */
function unfold(ics: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter(Boolean);
}

describe("feed building blocks", () => {
  it("escapes XML and drops characters XML 1.0 forbids", () => {
    expect(escapeXml(`Rock & "Roll" <live> it's\u0001`)).toBe("Rock &amp; &quot;Roll&quot; &lt;live&gt; it&apos;s");
  });

  it("writes RFC 2822 dates and HH:MM:SS durations", () => {
    expect(rfc2822Date(new Date("2026-10-15T03:00:00Z"))).toBe("Thu, 15 Oct 2026 03:00:00 +0000");
    expect(itunesDuration(36)).toBe("00:00:36");
    expect(itunesDuration(3725)).toBe("01:02:05");
  });

  it("derives podcast:guid as the Podcasting 2.0 spec does", () => {
    // RFC 4122 appendix test vector for UUIDv5 (DNS namespace).
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
    // The example in the Podcasting 2.0 spec for <podcast:guid>.
    expect(podcastGuid("https://mp3s.nashownotes.com/pc20rss.xml")).toBe("917393e3-1b1e-5cef-ace4-edaa54e1f810");
    expect(podcastGuid("http://mp3s.nashownotes.com/pc20rss.xml/")).toBe("917393e3-1b1e-5cef-ace4-edaa54e1f810");
  });

  it("escapes iCalendar text and folds lines at 75 octets without splitting characters", () => {
    expect(escapeIcsText("Rock, Pop; Jazz\\Blues\nLive")).toBe("Rock\\, Pop\\; Jazz\\\\Blues\\nLive");
    const line = `SUMMARY:${"Konser Akbar Kampus 🎸 ".repeat(8)}`;
    const folded = foldIcsLine(line);
    const physical = folded.split("\r\n");
    expect(physical.length).toBeGreaterThan(2);
    for (const part of physical) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    for (const part of physical.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(folded.replace(/\r\n /g, "")).toBe(line);
    expect(folded).not.toContain("\uFFFD");
  });

  it("describes a zone without daylight saving with one fixed offset", () => {
    const lines = buildVTimezone("Asia/Jakarta", { first: 2026, last: 2026 });
    expect(lines).toEqual([
      "BEGIN:VTIMEZONE",
      "TZID:Asia/Jakarta",
      "BEGIN:STANDARD",
      "DTSTART:20250101T000000",
      "TZOFFSETFROM:+0700",
      "TZOFFSETTO:+0700",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]);
  });

  it("spells out daylight-saving changes with their local onsets", () => {
    const text = buildVTimezone("America/New_York", { first: 2026, last: 2026 }).join("\n");
    // 2026: clocks go forward 8 March at 02:00 EST and back 1 November at 02:00 EDT.
    expect(text).toContain("BEGIN:DAYLIGHT\nDTSTART:20260308T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nEND:DAYLIGHT");
    expect(text).toContain("BEGIN:STANDARD\nDTSTART:20261101T020000\nTZOFFSETFROM:-0400\nTZOFFSETTO:-0500\nEND:STANDARD");
  });

  it("reads admin date inputs as station time", () => {
    expect(fromDateTimeLocal("2026-12-01T19:30", "Asia/Jakarta")?.toISOString()).toBe("2026-12-01T12:30:00.000Z");
    expect(fromDateTimeLocal("2026-07-01T09:00", "America/New_York")?.toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(fromDateTimeLocal("2026-02-30T10:00", "Asia/Jakarta")).toBeNull();
    expect(fromDateTimeLocal("yesterday", "Asia/Jakarta")).toBeNull();
    expect(toDateTimeLocal(new Date("2026-12-01T12:30:00Z"), "Asia/Jakarta")).toBe("2026-12-01T19:30");
  });
});

describe("the podcast feed and the events calendar", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_CONTENT: "true", STATION_EMAIL: "studio@spinradio.example" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is a podcast feed a common parser reads, with the station's identity", async () => {
    const response = await fetch(`${server.url}/podcast.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    for (const ns of ["http://www.itunes.com/dtds/podcast-1.0.dtd", "https://podcastindex.org/namespace/1.0"]) expect(xml).toContain(ns);
    const feed = await parser.parseString(xml);
    expect(feed.title).toBe("SPIN RADIO");
    expect(feed.description).toBe("Live from campus, all day long");
    // The station's language (STATION_LANGUAGE, "en" on test servers), whoever asks: directories list the feed under one.
    expect(feed.language).toBe("en");
    const askedInIndonesian = await fetch(`${server.url}/podcast.xml`, { headers: { "Accept-Language": "id" } });
    expect(await askedInIndonesian.text()).toContain("<language>en</language>");
    expect(feed.link).toBe(`${server.url}/listen`);
    expect(feed.itunes.owner.name).toBe("SPIN RADIO");
    expect(feed.itunes.owner.email).toBe("studio@spinradio.example");
    expect(feed.itunes.categories).toContain("Society & Culture");
    // No canonical origin is known (no PUBLIC_URL, none confirmed): the guid is the stored random one, never the request's host.
    const stored = await db().setting.findUnique({ where: { key: "podcast.guid" } });
    expect(xml).toContain(`<podcast:guid>${stored!.value}</podcast:guid>`);
    expect(xml).toContain(`<atom:link href="${server.url}/podcast.xml" rel="self" type="application/rss+xml"/>`);

    const artwork = await fetch(feed.itunes.image);
    expect(artwork.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(await artwork.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 3000, height: 3000, hasAlpha: false });
  });

  it("lists every published episode, newest first, with guid, RFC 2822 date, duration and cover", async () => {
    const published = await db().podcastEpisode.findMany({
      where: { publishedAt: { lte: new Date() } },
      orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
      include: { audio: true },
    });
    expect(published.length).toBeGreaterThan(0);
    const feed = await parser.parseURL(`${server.url}/podcast.xml`);
    expect(feed.items.map((item) => item.guid)).toEqual(published.map((episode) => episode.guid));
    for (const [index, item] of feed.items.entries()) {
      const episode = published[index];
      expect(item.title).toBe(episode.title);
      expect(new Date(item.pubDate).getTime()).toBe(episode.publishedAt.getTime());
      expect(item.pubDate).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
      expect(item.itunes.duration).toBe(itunesDuration(episode.durationSeconds));
      expect(item.link).toBe(`${server.url}/play/${episode.id}`);
      expect(item.itunes.image).toMatch(new RegExp(`^${server.url}/media/covers/`));
      expect(Number(item.enclosure.length)).toBe(episode.audio.size);
      expect(item.enclosure.type).toBe(episode.audio.contentType);
    }
  });

  it("has enclosures that answer HEAD and GET with exactly the stated length and type", async () => {
    const feed = await parser.parseURL(`${server.url}/podcast.xml`);
    for (const { enclosure } of feed.items) {
      const head = await fetch(enclosure.url, { method: "HEAD" });
      expect(head.status, enclosure.url).toBe(200);
      expect(head.headers.get("content-length")).toBe(enclosure.length);
      expect(head.headers.get("content-type")).toBe(enclosure.type);
      const get = await fetch(enclosure.url);
      expect(get.headers.get("content-type")).toBe(enclosure.type);
      expect((await get.arrayBuffer()).byteLength).toBe(Number(enclosure.length));
    }
  });

  it("leaves out scheduled episodes and episodes whose audio is missing from storage", async () => {
    const audio = await fs.readFile(path.join(SEED, "audio/episode-2.mp3"));
    const cover = await fs.readFile(path.join(SEED, "covers/cover-02.jpg"));
    const scheduled = await createEpisode(
      { title: "Next week's show", description: "Not out yet.", publishedAt: new Date(Date.now() + 7 * 86_400_000), audio, cover },
      SYSTEM_ACTOR,
    );
    if (!scheduled.ok) throw new Error(JSON.stringify(scheduled.errors));
    // Different bytes from the seed so removing the object touches only this episode.
    const lost = await createEpisode(
      {
        title: "Lost audio",
        description: "Its file went missing.",
        publishedAt: new Date(Date.now() - 60_000),
        audio: Buffer.concat([audio, Buffer.alloc(417)]),
        cover,
      },
      SYSTEM_ACTOR,
    );
    if (!lost.ok) throw new Error(JSON.stringify(lost.errors));
    try {
      let feed = await parser.parseURL(`${server.url}/podcast.xml`);
      expect(feed.items[0].guid).toBe(lost.episode.guid);
      expect(feed.items.map((item) => item.guid)).not.toContain(scheduled.episode.guid);

      await getStorage().remove(lost.episode.audio.key);
      feed = await parser.parseURL(`${server.url}/podcast.xml`);
      expect(feed.items.map((item) => item.guid)).not.toContain(lost.episode.guid);
      for (const { enclosure } of feed.items) expect((await fetch(enclosure.url, { method: "HEAD" })).status).toBe(200);
    } finally {
      await deleteEpisode(scheduled.episode.id, SYSTEM_ACTOR);
      await deleteEpisode(lost.episode.id, SYSTEM_ACTOR);
    }
  });

  it("publishes events as an iCalendar feed in the station's time zone", async () => {
    const poster = await fs.readFile(path.join(SEED, "covers/cover-03.jpg"));
    const name = "Konser Akhir Tahun; Band Kampus, DJ & Teman-Teman — malam puncak dengan bintang tamu spesial";
    await createEvent({ name, date: "2026-12-31", time: "19:30", poster });

    const response = await fetch(`${server.url}/events.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const ics = await response.text();
    // CRLF line endings and no physical line longer than 75 octets.
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);

    const lines = unfold(ics);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines).toContain("X-WR-TIMEZONE:Asia/Jakarta");
    expect(lines).toContain("TZID:Asia/Jakarta");
    expect(lines).toContain("TZOFFSETTO:+0700");
    // This event's VEVENT (the demo's upcoming events are in the feed too).
    const summary = `SUMMARY:${name.replace(/;/g, "\\;").replace(/,/g, "\\,")}`;
    const begins = lines.flatMap((line, index) => (line === "BEGIN:VEVENT" ? [index] : []));
    const event = begins.map((index) => lines.slice(index, lines.indexOf("END:VEVENT", index) + 1)).find((block) => block.includes(summary)) ?? [];
    expect(event).toContain("DTSTART;TZID=Asia/Jakarta:20261231T193000");
    expect(event).toContain(`SUMMARY:${name.replace(/;/g, "\\;").replace(/,/g, "\\,")}`);
    // The UID is stored with the event, so no host name or proxy changes it.
    const stored = await db().event.findUniqueOrThrow({ where: { name }, select: { uid: true } });
    expect(event.find((line) => line.startsWith("UID:"))).toBe(`UID:${stored.uid}`);
    expect(event.find((line) => line.startsWith("DTSTAMP:"))).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
    const image = event
      .find((line) => line.startsWith("IMAGE;"))!
      .split(":")
      .slice(1)
      .join(":");
    expect((await fetch(image)).headers.get("content-type")).toBe("image/webp");
    // Every BEGIN has its END.
    const stack: string[] = [];
    for (const line of lines) {
      if (line.startsWith("BEGIN:")) stack.push(line.slice(6));
      if (line.startsWith("END:")) expect(stack.pop()).toBe(line.slice(4));
    }
    expect(stack).toEqual([]);
  });
});
