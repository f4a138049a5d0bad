import { confirmSiteOrigin } from "~/models/site-origin.server";
import { execFile } from "node:child_process";
import http from "node:http";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ICAL from "ical.js";
import { parseFeed } from "podcast-partytime";
import Parser from "rss-parser";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "~/models/activity.server";
import { createEvent } from "~/models/events.server";
import { saveStationEmail } from "~/models/feed-identity.server";
import { db } from "~/services/db.server";
import { podcastGuid } from "~/services/feeds.server";
import { adminCookie, expectStorageConsistent, storageKeys, testImage } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

/*
 * The podcast feed as directories and apps read it: the seeded station plus
 * one WAV episode uploaded through the admin form with a transcript and
 * chapters, checked with the parsers apps use (podcast-partytime, rss-parser),
 * xmllint, ical.js, ffmpeg's loudness meter and the image/enclosure rules of
 * Apple Podcasts.
 */

const run = promisify(execFile);
const SEED = path.resolve("prisma/seed-assets");

const VTT = `WEBVTT

00:00:00.000 --> 00:00:02.500
<v Rina>Selamat pagi, campus!

00:00:02.500 --> 00:00:06.000
Today: how the station encodes WAV uploads.
`;
const CHAPTERS = JSON.stringify([
  { startTime: 0, title: "Intro" },
  { startTime: 3, title: "Encoding", url: "https://example.org/encoding" },
]);

/** A WAV of pink noise far quieter than the podcast norm, so normalising it shows. */
async function quietWav(seconds: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "wav-"));
  const file = path.join(dir, "quiet.wav");
  await run("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `anoisesrc=color=pink:amplitude=0.02:duration=${seconds}:seed=7`,
    "-ar",
    "44100",
    "-ac",
    "2",
    file,
  ]);
  const bytes = await fs.readFile(file);
  await fs.rm(dir, { recursive: true, force: true });
  return bytes;
}

/** Integrated loudness (LUFS) as ffmpeg's EBU R128 meter prints it. */
async function integratedLoudness(audio: Buffer): Promise<number> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "lufs-"));
  const file = path.join(dir, "audio.mp3");
  await fs.writeFile(file, audio);
  const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128", "-f", "null", "-"]);
  await fs.rm(dir, { recursive: true, force: true });
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)![1]);
}

describe("the podcast feed for directories and apps", () => {
  let server: TestServer;
  let admin: string;
  let wav: Buffer;
  let cover: Buffer;

  beforeAll(async () => {
    // No STATION_EMAIL: the owner address comes from the dashboard prompt.
    server = await startTestServer({ SEED_CONTENT: "true" });
    admin = await adminCookie(server.url);
    [wav, cover] = await Promise.all([quietWav(6), testImage("#3366cc", 1000, 800)]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  function episodeForm(fields: Record<string, string>, files: { audio?: Buffer; transcript?: { bytes: string; name: string } } = {}) {
    const body = new FormData();
    body.set("formId", "episode-form");
    body.set("intent", "save-episode");
    body.set("title", "Studio Notes: From WAV to Your Podcast App");
    body.set("description", "How a WAV upload becomes an episode every app can play.");
    body.set("publishedAt", "2026-01-05T08:00");
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    body.set("audio", files.audio ? new Blob([new Uint8Array(files.audio)]) : new Blob([]), files.audio ? "studio.wav" : "");
    body.set("cover", new Blob([new Uint8Array(cover)]), "cover.png");
    if (files.transcript) body.set("transcript", new Blob([files.transcript.bytes]), files.transcript.name);
    return fetch(`${server.url}/episodes-admin`, { method: "POST", body, headers: { Cookie: admin }, redirect: "manual" });
  }

  async function feedXml(host?: string): Promise<string> {
    const url = new URL(`${server.url}/podcast.xml`);
    if (host) url.host = host;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return response.text();
  }

  it("refuses a bad transcript or bad chapters, changing nothing", async () => {
    const before = { episodes: await db().podcastEpisode.count(), files: await db().storedFile.count(), keys: await storageKeys() };
    const attacks: [Record<string, string>, { bytes: string; name: string } | undefined, string][] = [
      [{}, { bytes: "WEBVTT\n\n00:00:05.000 --> 00:00:01.000\nbackwards\n", name: "t.vtt" }, "is not a valid timing"],
      [{}, { bytes: "1\n00:00:01,000 -> 00:00:02,000\nno arrow\n", name: "t.srt" }, "expected a timing line"],
      [{}, { bytes: "WEBVTT\n\nNOTE only a note\n", name: "t.vtt" }, "The transcript has no cues"],
      [{}, { bytes: "\u0000\u0001binary\u00ff", name: "t.vtt" }, "The transcript is not UTF-8 text"],
      [{ chapters: '[{"startTime": -1, "title": "x"}]' }, undefined, "Chapter 1: startTime must be a number"],
      [{ chapters: '[{"startTime": 1, "title": "x", "url": "javascript:alert(1)"}]' }, undefined, "Chapter 1: url must be an http(s) address"],
      [{ chapters: "{not json" }, undefined, "The chapters are not valid JSON"],
      [{ seasonNumber: "-2" }, undefined, "The season number is a whole number"],
      [{ credits: "no-such-member" }, undefined, "Choose the credited crew from the list"],
      [{ credits: "cm0000000000000000000000" }, undefined, "A credited crew member no longer exists"],
    ];
    for (const [fields, transcript, message] of attacks) {
      const response = await episodeForm(fields, { audio: wav, transcript });
      expect(response.status, message).toBe(400);
      // The form comes back with the field's error next to it.
      expect(await response.text(), message).toContain(message);
    }
    expect(await db().podcastEpisode.count()).toBe(before.episodes);
    expect(await db().storedFile.count()).toBe(before.files);
    expect(await storageKeys()).toEqual(before.keys);
  });

  it("publishes an uploaded WAV episode only once its -16 LUFS MP3 listening copy exists, keeping the original", async () => {
    const member = await db().crewMember.findFirstOrThrow({ orderBy: { createdAt: "asc" } });
    const response = await episodeForm(
      { chapters: CHAPTERS, seasonNumber: "2", episodeNumber: "7", credits: member.id },
      { audio: wav, transcript: { bytes: VTT, name: "studio.vtt" } },
    );
    expect(response.status).toBe(200);
    const created = await db().podcastEpisode.findFirstOrThrow({
      where: { title: { startsWith: "Studio Notes" } },
      include: { audio: true, originalAudio: true },
    });
    // The queue (pg-boss on this PostgreSQL) encodes it; until then it is not published.
    if (!created.listeningReady) expect(await feedXml()).not.toContain(created.guid);
    let episode = created;
    for (let i = 0; i < 120 && !episode.listeningReady; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: created.id }, include: { audio: true, originalAudio: true } });
    }
    expect(episode.encodeError).toBeNull();
    expect(episode.listeningReady).toBe(true);
    expect(episode.audio.contentType).toBe("audio/mpeg");
    expect(episode.originalAudio?.contentType).toBe("audio/wav");
    expect(episode.originalAudio?.size).toBe(wav.length);
    const copy = Buffer.from(await (await fetch(`${server.url}/media/${episode.audio.key}`)).arrayBuffer());
    const loudness = await integratedLoudness(copy);
    expect(loudness).toBeGreaterThan(-17);
    expect(loudness).toBeLessThan(-15);
    // The seeded WAV episodes were encoded at seed time the same way.
    const seededWav = await db().podcastEpisode.findMany({ where: { originalAudioId: { not: null }, NOT: { id: episode.id } }, include: { audio: true } });
    const manifest = JSON.parse(await fs.readFile(path.join(SEED, "manifest.json"), "utf8")) as { episodes: { audio: string }[] };
    expect(seededWav.length).toBe(manifest.episodes.filter((e) => e.audio.endsWith(".wav")).length);
    for (const seeded of seededWav) expect(seeded.audio.contentType).toBe("audio/mpeg");
    await expectStorageConsistent();
  }, 60_000);

  it("passes podcast-partytime, rss-parser and xmllint, with every tag apps honour", async () => {
    await saveStationEmail("studio@spinradio.example", SYSTEM_ACTOR);
    const xml = await feedXml();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "feed-"));
    await fs.writeFile(path.join(dir, "podcast.xml"), xml);
    await run("xmllint", ["--noout", path.join(dir, "podcast.xml")]);
    await fs.rm(dir, { recursive: true, force: true });

    const feed = parseFeed(xml, { allowMissingGuid: false })!;
    expect(feed).toBeTruthy();
    const found = Object.values(feed.pc20support).flat();
    for (const tag of ["guid", "locked", "transcript", "chapters", "person", "season", "episode"]) expect(found, tag).toContain(tag);
    expect(feed.locked).toBe(true);
    expect(feed.podcastOwner).toBe("studio@spinradio.example");
    expect(feed.owner?.email).toBe("studio@spinradio.example");
    expect(feed.explicit).toBe(false);
    expect(feed.categories?.length).toBeGreaterThan(0);
    expect(feed.items.length).toBe(11);
    const studio = feed.items.find((item) => item.title?.startsWith("Studio Notes"))!;
    expect(studio.podcastTranscripts?.[0]).toMatchObject({ type: "text/vtt" });
    expect(studio.podcastChapters).toMatchObject({ type: "application/json+chapters" });
    expect(studio.podcastPeople?.[0]?.role?.toLowerCase()).toBe("host");
    expect(studio.podcastSeason?.number).toBe(2);
    expect(studio.podcastEpisode?.number).toBe(7);

    const rss = await new Parser({ customFields: { item: [["podcast:transcript", "transcript"]] } }).parseString(xml);
    expect(rss.items.length).toBe(11);
    for (const item of rss.items) expect(item.enclosure?.type).toBe("audio/mpeg");
    expect(rss.itunes?.owner?.email).toBe("studio@spinradio.example");

    // What the transcript and chapters URLs serve.
    const transcript = await fetch(studio.podcastTranscripts![0].url);
    expect(transcript.headers.get("content-type")).toBe("text/vtt");
    expect(await transcript.text()).toBe(VTT);
    const chapters = await fetch(studio.podcastChapters!.url);
    expect(chapters.headers.get("content-type")).toMatch(/^application\/json\+chapters(;|$)/);
    expect(((await chapters.json()) as { chapters: unknown[] }).chapters).toEqual(JSON.parse(CHAPTERS));
  });

  it("has true enclosures and JPEG artwork of 1400-3000 px square RGB at every image URL", async () => {
    const xml = await feedXml();
    // The episodes' enclosures (a live item, for a demo show on air or next, has the stream as its own).
    const items = (xml.match(/<item>[\s\S]*?<\/item>/g) ?? []).join("");
    const enclosures = [...items.matchAll(/<enclosure url="([^"]+)" length="(\d+)" type="([^"]+)"\/>/g)];
    expect(enclosures.length).toBe(11);
    for (const [, url, length, type] of enclosures) {
      expect(["audio/mpeg", "audio/mp4"]).toContain(type);
      const head = await fetch(url.replace(/&amp;/g, "&"), { method: "HEAD" });
      expect(head.headers.get("content-length"), url).toBe(length);
      expect(head.headers.get("content-type")).toBe(type);
    }
    const images = new Set([...xml.matchAll(/(?:href|img)="([^"]+\.(?:jpg|png|webp|svg)[^"]*)"/g), ...xml.matchAll(/<url>([^<]+)<\/url>/g)].map((m) => m[1]));
    expect(images.size).toBeGreaterThanOrEqual(12);
    for (const url of images) {
      const response = await fetch(url);
      expect(response.headers.get("content-type"), url).toMatch(/^image\/(jpeg|png)$/);
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.width, url).toBe(meta.height);
      expect(meta.width!, url).toBeGreaterThanOrEqual(1400);
      expect(meta.width!, url).toBeLessThanOrEqual(3000);
      expect(meta.channels, url).toBe(3);
      expect(meta.space, url).toBe("srgb");
    }
    // The admin says so when a cover had to be upscaled (Studio Notes' is 1000×800 px; the seeded covers are 1400 px).
    const page = await (await fetch(`${server.url}/episodes-admin`, { headers: { Cookie: admin } })).text();
    expect(page).toContain("upscaled to 1400 px");
  });

  it("keeps podcast:guid, episode guids and event UIDs across host names and a later public address", async () => {
    await createEvent(
      { name: "Malam Akustik; Edisi 1", date: "2026-12-31", time: "19:30", poster: await fs.readFile(path.join(SEED, "covers/cover-02.jpg")) },
      SYSTEM_ACTOR,
    );
    const guid = (xml: string) => /<podcast:guid>([^<]+)<\/podcast:guid>/.exec(xml)![1];
    const itemGuids = (xml: string) => [...xml.matchAll(/<guid isPermaLink="false">([^<]+)<\/guid>/g)].map((m) => m[1]);
    const port = new URL(server.url).port;
    const [a, b] = [await feedXml(`127.0.0.1:${port}`), await feedXml(`localhost:${port}`)];
    expect(guid(a)).toBe(guid(b));
    expect(itemGuids(a)).toEqual(itemGuids(b));
    const uids = async (host: string) => {
      const ics = await (await fetch(`http://${host}/events.ics`)).text();
      // ical.js is strict: a malformed line throws.
      const calendar = new ICAL.Component(ICAL.parse(ics));
      return calendar.getAllSubcomponents("vevent").map((event) => String(event.getFirstPropertyValue("uid")));
    };
    const uidsA = await uids(`127.0.0.1:${port}`);
    expect(uidsA.length).toBeGreaterThan(0);
    expect(await uids(`localhost:${port}`)).toEqual(uidsA);

    // The station gets a public address: the guid stays, nothing else of the feed's identity changes.
    await confirmSiteOrigin("https://radio.example", SYSTEM_ACTOR);
    const canonical = await feedXml();
    expect(guid(canonical)).toBe(guid(a));
    expect(guid(canonical)).not.toBe(podcastGuid("https://radio.example/podcast.xml"));
    expect(canonical).toContain('<atom:link href="https://radio.example/podcast.xml"');
    expect(canonical).not.toContain("itunes:new-feed-url");

    // It moves: the old address redirects to the new feed, which names its new URL; the guid never changes.
    await confirmSiteOrigin("https://spin.example", SYSTEM_ACTOR);
    const moved = await feedXml();
    expect(guid(moved)).toBe(guid(a));
    expect(moved).toContain("<itunes:new-feed-url>https://spin.example/podcast.xml</itunes:new-feed-url>");
    // fetch() will not send another Host; node:http will, as a proxy in front would.
    const old = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${server.url}/podcast.xml`, { headers: { Host: "radio.example" } }, resolve).on("error", reject),
    );
    old.resume();
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe("https://spin.example/podcast.xml");
    expect(await uids(`127.0.0.1:${port}`)).toEqual(uidsA);
  });
});
