import { execFileSync } from "node:child_process";
import { runShowArchiver } from "~/models/show-archive.server";
import { db } from "~/services/db.server";
import { readMp3Frames } from "~/services/mp3-frames.server";
import { getStorage } from "~/services/storage.server";
import { adminCookie, postAdminForm } from "./helpers/admin";
import { startTestServer, type TestServer } from "./helpers/server";

// Drafts of archived shows (issue 21): built from the rewind buffer, trimmed by an admin, published
// once. The buffer is written here from a real MP3 (Debian's ffmpeg), as the recorder writes it:
// segments of about six seconds cut at frame boundaries, each with its wall-clock start.
const SEGMENT_FRAMES = 230; // 230 × 1152 samples at 44.1 kHz ≈ 6 s

describe("show recordings kept as drafts", () => {
  let server: TestServer;
  let cookie: string;
  let showId: string;
  const base = Date.now() - 10 * 60_000;
  const at = (seconds: number) => new Date(base + seconds * 1000);

  const draft = async (startSeconds: number, endSeconds: number) => {
    const recording = await db().showRecording.create({ data: { showId, airingStart: at(startSeconds), airingEnd: at(endSeconds) } });
    for (let i = 0; i < 40; i++) {
      await runShowArchiver(1);
      const row = await db().showRecording.findUniqueOrThrow({ where: { id: recording.id } });
      if (row.status === "draft") return row;
      if (row.status === "failed") throw new Error(row.error ?? "failed");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the draft was not built");
  };
  const publish = (id: string, trimStart: string, trimEnd: string) =>
    postAdminForm(server.url, "/recordings-admin", cookie, { formId: `publish-${id}`, intent: "publish-draft", id, trimStart, trimEnd });

  beforeAll(async () => {
    server = await startTestServer({ STATION_TIMEZONE: "UTC", REWIND_HOURS: "1" });
    cookie = await adminCookie(server.url);
    // Three minutes of a tone, mono 64 kb/s, stored as the rewind buffer from `base` on.
    const mp3 = execFileSync(
      "ffmpeg",
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=180",
        "-ac",
        "1",
        "-ar",
        "44100",
        "-b:a",
        "64k",
        "-f",
        "mp3",
        "pipe:1",
      ],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const frames = readMp3Frames(mp3);
    let seconds = 0;
    for (let start = 0, sequence = 1; start < frames.length; start += SEGMENT_FRAMES, sequence += 1) {
      const segment = frames.slice(start, start + SEGMENT_FRAMES);
      const data = Buffer.concat(segment.map((frame) => frame.data));
      const durationMs = Math.round(segment.reduce((sum, frame) => sum + frame.samples / frame.sampleRate, 0) * 1000);
      const key = `rewind/${base}-${sequence}.mp3`;
      await getStorage().put(key, data, "audio/mpeg");
      await db().rewindSegment.create({ data: { sequence, startedAt: at(seconds), durationMs, size: data.length, key, gapBefore: sequence === 1 } });
      seconds += durationMs / 1000;
    }
    const show = await db().show.create({ data: { slug: "morning-test", name: "Morning Test", archive: "draft" } });
    showId = show.id;
    // The song history: one song already playing when the airing starts, two during it.
    for (const [offset, raw] of [
      [2, "Alpha - One"],
      [15, "Beta - Two"],
      [27, "Gamma - Three"],
    ] as const) {
      const [artist, title] = raw.split(" - ");
      await db().songPlay.create({ data: { playedAt: at(offset), raw, artist, title, showId, showName: "Morning Test" } });
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("builds a draft with the songs as chapters, and publishes it trimmed, frame-exact, as an episode", async () => {
    const recording = await draft(5, 35);
    expect(recording.durationMs / 1000).toBeGreaterThan(29.9);
    expect(recording.durationMs / 1000).toBeLessThan(30.1);
    expect(recording.missingSeconds).toBe(0);
    const chapters = recording.chapters as { startTime: number; title: string }[];
    expect(chapters.map((chapter) => chapter.title)).toEqual(["Alpha - One", "Beta - Two", "Gamma - Three"]);
    expect(chapters.map((chapter) => Math.round(chapter.startTime))).toEqual([0, 10, 22]);

    const page = await (await fetch(`${server.url}/recordings-admin`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Morning Test");
    expect(page).toContain("Publish episode");

    const response = await publish(recording.id, "12", "3");
    const text = await response.text();
    const episodeId = Number(/Published as episode (\d+)\./.exec(text)?.[1]);
    expect(episodeId, text.slice(0, 300)).toBeGreaterThan(0);

    const episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: episodeId }, include: { audio: true } });
    expect(episode.showId).toBe(showId);
    expect(episode.durationSeconds).toBeGreaterThanOrEqual(14);
    expect(episode.durationSeconds).toBeLessThanOrEqual(16);
    // The chapter playing at the new start begins the episode; the later one moved with the cut.
    expect((episode.chapters as { startTime: number; title: string }[]).map((chapter) => [chapter.title, Math.round(chapter.startTime)])).toEqual([
      ["Beta - Two", 0],
      ["Gamma - Three", 10],
    ]);
    // Whole frames only, served like any episode.
    const audio = Buffer.from(await (await fetch(`${server.url}/media/${episode.audio.key}`)).arrayBuffer());
    expect(readMp3Frames(audio).reduce((sum, frame) => sum + frame.data.length, 0)).toBe(audio.length);
    const published = await db().showRecording.findUniqueOrThrow({ where: { id: recording.id } });
    expect(published).toMatchObject({ status: "published", episodeId, trimStartSeconds: 12, trimEndSeconds: 3, audioKey: null });
    // The draft's own audio is gone from storage.
    const drafts: string[] = [];
    for await (const key of getStorage().list("recordings/")) drafts.push(key);
    expect(drafts).toEqual([]);
  });

  it("refuses a trim that leaves nothing, and changes nothing", async () => {
    const recording = await draft(40, 60);
    const episodes = await db().podcastEpisode.count();
    const response = await publish(recording.id, "15", "10");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Trimming would leave nothing of the recording.");
    const after = await db().showRecording.findUniqueOrThrow({ where: { id: recording.id } });
    expect(after).toMatchObject({ status: "draft", audioKey: recording.audioKey });
    expect(await db().podcastEpisode.count()).toBe(episodes);
    expect(await getStorage().stat(recording.audioKey!)).not.toBeNull();
  });

  it("publishes a draft once when two admins (or a double click) publish it at the same time", async () => {
    const recording = await draft(70, 95);
    const episodes = await db().podcastEpisode.count();
    const answers = await Promise.all([publish(recording.id, "0", "0"), publish(recording.id, "1", "1")].map(async (response) => (await response).text()));
    expect(answers.filter((text) => /Published as episode \d+\./.test(text))).toHaveLength(1);
    expect(answers.filter((text) => text.includes("That recording is not a draft any more."))).toHaveLength(1);
    expect(await db().podcastEpisode.count()).toBe(episodes + 1);
  });

  it("builds an airing the server restarted in from the segments that exist, noting the gap", async () => {
    // A restart mid-airing: no segments for about 18 s, and the first one after it starts a new run.
    const lost = await db().rewindSegment.findMany({ where: { startedAt: { gte: at(140), lt: at(158) } }, orderBy: { sequence: "asc" } });
    expect(lost.length).toBeGreaterThanOrEqual(2);
    const lostSeconds = lost.reduce((sum, segment) => sum + segment.durationMs, 0) / 1000;
    await db().rewindSegment.deleteMany({ where: { sequence: { in: lost.map((segment) => segment.sequence) } } });
    await db().rewindSegment.update({ where: { sequence: lost.at(-1)!.sequence + 1 }, data: { gapBefore: true } });

    const recording = await draft(125, 175);
    expect(recording.missingSeconds).toBeGreaterThanOrEqual(Math.floor(lostSeconds) - 1);
    expect(recording.missingSeconds).toBeLessThanOrEqual(Math.ceil(lostSeconds) + 1);
    expect(recording.durationMs / 1000).toBeCloseTo(50 - recording.missingSeconds, 0);
    const text = await (await publish(recording.id, "0", "0")).text();
    const episodeId = Number(/Published as episode (\d+)\./.exec(text)?.[1]);
    const episode = await db().podcastEpisode.findUniqueOrThrow({ where: { id: episodeId } });
    expect(episode.description).toContain(`${recording.missingSeconds} seconds of this airing were not recorded`);
  });

  it("discards a draft with its audio", async () => {
    const recording = await draft(100, 120);
    const response = await postAdminForm(server.url, "/recordings-admin", cookie, {
      formId: `discard-${recording.id}`,
      intent: "discard-draft",
      id: recording.id,
    });
    expect(await response.text()).toContain("Draft discarded.");
    expect(await db().showRecording.findUniqueOrThrow({ where: { id: recording.id } })).toMatchObject({ status: "discarded", audioKey: null });
    expect(await getStorage().stat(recording.audioKey!)).toBeNull();
  });
  it("saves a show's archive setting from its form, and the next draft takes the pre- and post-roll", async () => {
    const setting = (fields: Record<string, string>) =>
      postAdminForm(server.url, "/recordings-admin", cookie, { formId: `archive-${showId}`, intent: "show-archive", id: showId, ...fields });
    const before = await db().show.findUniqueOrThrow({ where: { id: showId } });
    // Refused whole, each field saying what is wrong, nothing saved.
    const refused = await setting({ archive: "sometimes", preroll: "601", postroll: "-1" });
    expect(refused.status).toBe(400);
    const refusal = await refused.text();
    expect(refusal).toContain("Choose off, draft or publish.");
    expect(refusal).toContain("Pre- and post-roll are whole seconds, at most 600.");
    expect(await db().show.findUniqueOrThrow({ where: { id: showId } })).toEqual(before);

    expect((await setting({ archive: "draft", preroll: "4", postroll: "6" })).status).toBe(200);
    expect(await db().show.findUniqueOrThrow({ where: { id: showId } })).toMatchObject({
      archive: "draft",
      archivePrerollSeconds: 4,
      archivePostrollSeconds: 6,
    });
    // A ten-second airing, recorded from 4 s before to 6 s after.
    const recording = await draft(10, 20);
    expect(recording.durationMs / 1000).toBeGreaterThan(19.9);
    expect(recording.durationMs / 1000).toBeLessThan(20.2);
  });
});
