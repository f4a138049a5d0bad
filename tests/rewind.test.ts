import { spawn } from "node:child_process";
import HLS from "hls-parser";
import type { MediaPlaylist } from "hls-parser/types";
import { pruneRewind } from "~/models/rewind.server";
import { db } from "~/services/db.server";
import { framesDuration, readMp3Frames } from "~/services/mp3-frames.server";
import { getStorage } from "~/services/storage.server";
import { icecastAvailable, startIcecast, type RunningIcecast } from "./helpers/icecast";
import { startTestServer, type TestServer } from "./helpers/server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check().catch(() => null);
    if (value) return value;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Debian's ffmpeg reading the playlist from the start of the window: the PCM bytes it decoded. */
function ffmpegDecodes(url: string, seconds: number): Promise<{ bytes: number; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-live_start_index",
      "0",
      "-i",
      url,
      "-t",
      String(seconds),
      "-f",
      "s16le",
      "-ac",
      "1",
      "-ar",
      "44100",
      "pipe:1",
    ]);
    let bytes = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("close", (code) => resolve({ bytes, stderr, code }));
  });
}

// A real Icecast 2 with ffmpeg as the source client and changing titles; the server records it.
describe.skipIf(!icecastAvailable && !process.env.REQUIRE_BROWSER)("rewinding the live stream and shows becoming episodes", () => {
  let icecast: RunningIcecast;
  let server: TestServer;
  const titles: { title: string; at: number }[] = [];
  let airingStart: Date;
  let airingEnd: Date;

  beforeAll(async () => {
    icecast = await startIcecast();
    await icecast.setTitle("Opening Act - Before The Show");
    titles.push({ title: "Opening Act - Before The Show", at: Date.now() });
    server = await startTestServer({ STREAM_URL: icecast.streamUrl, STATION_TIMEZONE: "UTC", REWIND_HOURS: "1" });
    // A show airing for two minutes around now (slots are whole minutes), archived as an episode
    // at once: it ends 30 to 90 seconds from now, so at least half a minute of it is recorded.
    const now = Date.now();
    const minute = Math.floor(now / 60_000) * 60_000;
    airingStart = new Date(now - minute < 30_000 ? minute - 60_000 : minute);
    airingEnd = new Date(airingStart.getTime() + 120_000);
    const iso = airingStart.toISOString();
    const host = await db().crewMember.create({
      data: {
        name: "Dewi Host",
        age: 30,
        email: "dewi@example.com",
        jobTitle: "Host",
        address: "",
        bio: "",
        image: { create: { key: "crew/dewi.webp", contentType: "image/webp", size: 1, checksum: "0" } },
      },
    });
    await db().show.create({
      data: {
        slug: "afternoon-drive",
        name: "Afternoon Drive",
        description: "Songs for the road.",
        archive: "publish",
        hosts: { create: { crewMemberId: host.id, position: 0 } },
        // Two minutes: shorter than the admin form allows (5), written directly for the test's sake.
        slots: { create: { startDate: iso.slice(0, 10), startTime: iso.slice(11, 16), durationMinutes: 2 } },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await icecast?.stop();
  });

  it("records segments at frame boundaries, serves them as HLS that ffmpeg plays from the start, and the airing becomes an episode with the songs as chapters", async () => {
    // Titles change every 8 seconds until shortly before the airing ends.
    let n = 0;
    while (Date.now() < airingEnd.getTime() - 10_000) {
      await sleep(8_000);
      n += 1;
      const title = `Band ${n} - Song ${n}`;
      await icecast.setTitle(title);
      titles.push({ title, at: Date.now() });
    }

    // ---- on air: the feed carries the airing as a live item
    const liveFeed = await (await fetch(`${server.url}/podcast.xml`)).text();
    const liveItem = /<podcast:liveItem status="(\w+)" start="([^"]+)" end="([^"]+)">([\s\S]*?)<\/podcast:liveItem>/.exec(liveFeed);
    expect(liveItem?.slice(1, 3)).toEqual(["live", airingStart.toISOString()]);
    expect(liveItem?.[4]).toContain("<title>Afternoon Drive</title>");
    expect(liveItem?.[4]).toMatch(/<enclosure url="http:\/\/[^"]+\/stream\/live" length="0" type="audio\/mpeg"\/>/);
    expect(liveItem?.[4]).toMatch(/<podcast:contentLink href="http:\/\/[^"]+\/listen">/);

    // ---- the recording, as HLS
    const text = await (await fetch(`${server.url}/live.m3u8`)).text();
    const playlist = HLS.parse(text) as MediaPlaylist;
    expect(playlist.isMasterPlaylist).toBe(false);
    expect(playlist.endlist).toBe(false);
    expect(playlist.playlistType).toBeUndefined();
    expect(playlist.segments.length).toBeGreaterThanOrEqual(4);
    for (const [index, segment] of playlist.segments.entries()) {
      expect(segment.programDateTime).toBeInstanceOf(Date);
      expect(segment.duration).toBeGreaterThan(5.9);
      expect(segment.duration).toBeLessThan(6.1);
      const next = playlist.segments[index + 1];
      // One recorder, one uninterrupted connection: every segment starts where the last ended.
      if (next) expect(Math.abs(next.programDateTime!.getTime() - segment.programDateTime!.getTime() - segment.duration * 1000)).toBeLessThan(2);
      if (next) expect(next.discontinuity).toBeFalsy();
    }
    // The window's start is about when recording started, not in the future or long before.
    const first = playlist.segments[0].programDateTime!.getTime();
    const last = playlist.segments.at(-1)!;
    expect(last.programDateTime!.getTime() + last.duration * 1000).toBeLessThan(Date.now() + 2_000);
    expect(last.programDateTime!.getTime() + last.duration * 1000).toBeGreaterThan(Date.now() - 15_000);

    const response = await fetch(new URL(playlist.segments[0].uri, server.url));
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = Buffer.from(await response.arrayBuffer());
    // The ID3 timestamp of HLS packed audio, then whole MP3 frames.
    expect(bytes.subarray(0, 3).toString("latin1")).toBe("ID3");
    expect(bytes.includes(Buffer.from("com.apple.streaming.transportStreamTimestamp"))).toBe(true);
    const audio = bytes.subarray(10 + ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9]));
    const frames = readMp3Frames(audio);
    expect(frames.reduce((sum, frame) => sum + frame.data.length, 0)).toBe(audio.length);
    expect(framesDuration(frames)).toBeCloseTo(playlist.segments[0].duration, 2);

    const decoded = await ffmpegDecodes(`${server.url}/live.m3u8`, 5);
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(decoded.bytes).toBeGreaterThanOrEqual(0.95 * 5 * 44100 * 2);
    expect(first).toBeLessThan(Date.now());

    // ---- the airing becomes an episode
    const recording = await until(
      "the airing to become an episode",
      () => db().showRecording.findFirst({ where: { status: { in: ["published", "failed"] } } }),
      airingEnd.getTime() - Date.now() + 120_000,
    );
    expect(recording.error).toBeNull();
    expect(recording.status).toBe("published");
    const episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: recording.episodeId! }, include: { audio: true, credits: true } });
    expect(episode.title).toBe(
      `Afternoon Drive — ${new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(airingStart)}`,
    );
    expect(episode.credits.map((credit) => credit.role)).toEqual(["host"]);
    // Recording began after the airing started: the episode holds what was recorded and says what is missing.
    const recordedFrom = Math.max(first, airingStart.getTime());
    expect(episode.durationSeconds).toBeGreaterThan((airingEnd.getTime() - recordedFrom) / 1000 - 3);
    expect(episode.durationSeconds).toBeLessThan((airingEnd.getTime() - recordedFrom) / 1000 + 3);
    if (first > airingStart.getTime() + 5_000) expect(episode.description).toMatch(/seconds of this airing were not recorded/);

    // Chapters: the song playing when the airing began, then each title sent during it, about where it was sent.
    const sent = titles.filter((title) => title.at < airingEnd.getTime());
    const openedWith = [...sent].reverse().find((title) => title.at <= Math.max(first, airingStart.getTime()))!;
    const expected = sent.filter((title) => title === openedWith || title.at > Math.max(first, airingStart.getTime()));
    const chapters = episode.chapters as { startTime: number; title: string }[];
    expect(chapters.map((chapter) => chapter.title)).toEqual(expected.map((title) => title.title));
    expect(chapters[0].startTime).toBe(0);
    for (let index = 2; index < chapters.length; index += 1) {
      expect(chapters[index].startTime - chapters[index - 1].startTime).toBeGreaterThan(6);
      expect(chapters[index].startTime - chapters[index - 1].startTime).toBeLessThan(10);
    }

    // Playable and in the feed with an enclosure of the stored size.
    const media = await fetch(`${server.url}/media/${episode.audio.key}`);
    expect(media.status).toBe(200);
    const mp3 = Buffer.from(await media.arrayBuffer());
    expect(readMp3Frames(mp3).reduce((sum, frame) => sum + frame.data.length, 0)).toBe(mp3.length);
    const feed = await (await fetch(`${server.url}/podcast.xml`)).text();
    const item = feed.slice(feed.indexOf(`<guid isPermaLink="false">${episode.guid}</guid>`) - 2_000);
    expect(feed).toContain(`/media/${episode.audio.key}" length="${mp3.length}" type="audio/mpeg"`);
    expect(item).toContain("podcast:chapters");
    expect(feed).toMatch(/<podcast:liveItem status="ended"/);
    const chaptersJson = (await (await fetch(`${server.url}/podcast/chapters/${episode.id}`)).json()) as { chapters: { title: string }[] };
    expect(chaptersJson.chapters.map((chapter) => chapter.title)).toEqual(expected.map((title) => title.title));
  }, 300_000);

  it("removes segments that left the window from storage and the database alike", async () => {
    // The source goes off air: the recorder stores what it had, then nothing more arrives.
    await icecast.stopSource();
    await sleep(1_500);
    const before = await db().rewindSegment.count();
    expect(before).toBeGreaterThan(0);
    const removed = await pruneRewind(1, new Date(Date.now() + 2 * 3_600_000));
    expect(removed).toBe(before);
    expect(await db().rewindSegment.count()).toBe(0);
    const left: string[] = [];
    for await (const key of getStorage().list("rewind/")) left.push(key);
    expect(left).toEqual([]);
  });
});
